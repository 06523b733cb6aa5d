"""How OCR worker processes live and die: never longer than the process that started them,
and never leaving a page image or tesseract's files behind.

A worker is started by ``citeview prepare`` (a pool, one per core) or by the viewer's
"OCR this page" (one). :func:`init_worker` runs first in each and arranges that

* it ends when its parent ends, however the parent ended (``kill -9``, the OOM killer):
  on Linux the kernel sends it SIGTERM (``PR_SET_PDEATHSIG``); everywhere a watchdog
  thread notices within ``WATCH_SECONDS`` that the parent is gone;
* SIGTERM stops it cleanly: its tesseract (in the worker's own process group, so the
  worker can stop it without touching its siblings or its parent) is stopped and reaped
  first, then a task under way unwinds (:func:`stoppable`), so every ``with`` and
  ``finally`` removes its temporary files, and the worker exits;
* its temporary files go to a folder of the run (:func:`run_folder`), which the parent
  removes on every way out (covering a worker killed outright), and which the last
  worker to leave removes when the parent is gone.

Ctrl-C is the parent's business: a worker ignores SIGINT, and the parent decides whether
running pages finish.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType
from typing import ParamSpec, TypeVar

# How often a worker checks that its parent is alive where the kernel cannot tell it.
WATCH_SECONDS = 1.0
# How long a stopping worker waits for its tesseract to end before leaving anyway.
CHILD_GRACE_SECONDS = 3.0
EXIT_TERMINATED = 128 + signal.SIGTERM
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

_state: dict[str, object] = {"run_dir": None, "in_task": False}
P = ParamSpec("P")
R = TypeVar("R")


class WorkerStopped(BaseException):
    """SIGTERM reached a worker during a task: unwind it (cleaning up), then exit."""


def init_worker(run_dir: str, parent_pid: int) -> None:
    """Set up a freshly started worker (a ``ProcessPoolExecutor`` initializer)."""
    _state["run_dir"] = run_dir
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # our tesseract joins this group; see _stop_children
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    # Temporary files (the page image, tesseract's tess_* files) go to the run's folder.
    tempfile.tempdir = run_dir
    os.environ["TMPDIR"] = run_dir
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True,
                     name="citeview-parent-watch").start()
    if os.getppid() != parent_pid:  # the parent died before we were watching
        os.kill(os.getpid(), signal.SIGTERM)


def stoppable(task: Callable[P, R]) -> Callable[P, R]:
    """Wrap a worker's task so that SIGTERM during it unwinds the task (its temporary
    files removed by their ``with`` blocks) and then ends the worker.

    Without this the pool would catch the exception as the task's result and carry on
    with the next page, its parent perhaps long dead.
    """
    @functools.wraps(task)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        _state["in_task"] = True
        try:
            return task(*args, **kwargs)
        except WorkerStopped:
            _leave()
        finally:
            _state["in_task"] = False
        raise AssertionError("unreachable")  # _leave() does not return
    return run


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)


def _on_sigterm(_signum: int, _frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _stop_children()
    if _state["in_task"]:
        raise WorkerStopped
    _leave()


def _stop_children() -> None:
    """SIGTERM this worker's process group (its tesseract; the worker ignores it now)
    and reap the children, so none writes a file after the clean-up."""
    if os.getpgrp() != os.getpid():
        return  # not our own group: signalling it would reach others
    with contextlib.suppress(OSError):
        os.killpg(os.getpid(), signal.SIGTERM)
    deadline = time.monotonic() + CHILD_GRACE_SECONDS
    while time.monotonic() < deadline:
        try:
            pid, _status = os.waitpid(-os.getpid(), os.WNOHANG)
        except ChildProcessError:
            return  # no child left
        if pid == 0:
            time.sleep(0.02)


def _leave() -> None:
    """End the worker now; the last one out removes the run's folder if it is empty."""
    run_dir = _state["run_dir"]
    if isinstance(run_dir, str):
        with contextlib.suppress(OSError):
            os.rmdir(run_dir)
    os._exit(EXIT_TERMINATED)


@contextlib.contextmanager
def run_folder() -> Iterator[Path]:
    """A private temporary folder for one run's workers, removed when the run ends,
    however it ends."""
    path = Path(tempfile.mkdtemp(prefix="citeview-ocr-run-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def stop_workers(processes: Iterable[BaseProcess], *, grace: float = 5.0) -> None:
    """SIGTERM each worker (it cleans up and ends), then SIGKILL any still alive after
    ``grace`` seconds."""
    alive = [p for p in processes if p.is_alive()]
    for p in alive:
        with contextlib.suppress(OSError, ValueError):
            p.terminate()
    deadline = time.monotonic() + grace
    for p in alive:
        with contextlib.suppress(OSError, ValueError):
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(1.0)


class Terminated(BaseException):
    """SIGTERM reached the parent: stop handing out work and leave."""


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """While the block runs in the main thread, SIGTERM raises :class:`Terminated` there
    (so ``finally`` blocks stop the workers and remove the run's files)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(_signum: int, _frame: FrameType | None) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
