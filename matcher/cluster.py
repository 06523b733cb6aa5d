"""A Dask distributed client for ``citeview batch`` and ``citeview prepare --scheduler``.

Either a cluster on this machine that the command starts and stops (``workers``
processes of one thread each: checking and OCR hold the GIL, so threads would only
queue), or a running cluster at ``scheduler`` (``dask scheduler`` and ``dask worker``
processes, on this machine or many). Dask is an optional extra: :func:`dask_missing`
says how to install it, and nothing else here imports it before it is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = "pip install 'citeview[batch]'"
# How long to wait for a scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT_SECONDS = 30
# A cluster with no worker for this long will not finish the run: its tasks are told
# as failed rather than waited for forever (workers restarting take a few seconds).
NO_WORKER_SECONDS = 60.0
# A task whose worker dies this many times is given up (Dask's "allowed failures"):
# one death is bad luck, three are the task itself.
ALLOWED_FAILURES = 2
# What the workers of a local cluster log: nothing short of a crash. A worker's errors
# are those of the cluster shutting down around it (its scheduler gone before it, at
# the end or at Ctrl-C: "Failed to communicate with scheduler during heartbeat" with a
# traceback); a check that fails is its file's error line, a worker that dies is the
# scheduler's to notice.
WORKER_LOGS = logging.CRITICAL


class ClusterError(Exception):
    """The cluster cannot be used: a sentence naming the scheduler and why."""


def dask_missing(command: str) -> str | None:
    """``None`` when Dask distributed can be imported, else what to tell the user."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return (f"{command} runs on Dask distributed, which is not installed; install it "
                f"with: {INSTALL_HINT}")
    return None


@contextlib.contextmanager
def dask_client(*, workers: int | None = None, scheduler: str | None = None,
                quiet: bool = True) -> Iterator[Client]:
    """A client of the running cluster at ``scheduler``, or of a local cluster of
    ``workers`` processes started here and stopped when the block ends (however it
    ends). :class:`ClusterError` when the scheduler cannot be reached."""
    import dask
    from distributed import Client, LocalCluster

    if quiet:
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.ERROR)
    cluster: Any = None
    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}):
        if scheduler is not None:
            try:
                client = Client(scheduler, timeout=CONNECT_TIMEOUT_SECONDS)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} "
                                   f"({exc or type(exc).__name__})") from None
            except ValueError as exc:
                raise ClusterError(f"not a scheduler address: {scheduler!r} ({exc}); "
                                   "give tcp://HOST:PORT") from None
        else:
            # Workers started while SIGINT is ignored keep ignoring it (an ignored signal
            # stays ignored across exec); the plugin covers workers restarted later.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
            try:
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None,
                                       scheduler_kwargs={"dashboard": False},
                                       silence_logs=WORKER_LOGS if quiet else logging.WARNING)
                client = Client(cluster)
                from .cluster_plugin import IgnoreCtrlC

                client.register_plugin(IgnoreCtrlC(), name="citeview-ignore-ctrl-c")
            finally:
                if previous is not None:
                    signal.signal(signal.SIGINT, previous)
        try:
            yield client
        finally:
            if quiet:  # a worker or comm closed first while the rest shut down is no news
                for name in ("distributed", "tornado", "asyncio"):
                    logging.getLogger(name).setLevel(logging.CRITICAL)
            with contextlib.suppress(Exception):
                client.close(timeout=10)
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close(timeout=20)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class WorkerWatch:
    """Notices a cluster left without workers for :data:`NO_WORKER_SECONDS`."""

    def __init__(self, client: Client, *, every: float = 2.0,
                 patience: float = NO_WORKER_SECONDS) -> None:
        self._client = client
        self._every = every
        self._patience = patience
        self._last_check = 0.0
        self._seen_at = time.monotonic()

    def stranded(self) -> bool:
        """Whether no worker has been connected for the whole patience (checked every
        few seconds, cheaply, from the loop that waits for results)."""
        now = time.monotonic()
        if now - self._last_check < self._every:
            return False
        self._last_check = now
        try:
            if self._client.nthreads():
                self._seen_at = now
        except Exception:  # the scheduler itself is gone: as stranded as it gets
            pass
        return now - self._seen_at > self._patience
