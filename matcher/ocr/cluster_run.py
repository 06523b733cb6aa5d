"""``citeview prepare --scheduler ADDRESS``: OCR the pages on a Dask cluster.

The survey stays here (it decides which pages need OCR, and takes each document's lock);
every page is one task, run by any worker (each opens the PDF at the task's path, so the
documents must be at the same path on every worker: a shared folder), and every result
comes back here to be saved into the store by this process alone: one atomic write per
entry, never two processes writing one entry. A page Dask reruns because its worker died
is still saved once (the first result that arrives; a later one would replace it with
an equal entry, atomically). Dask gives a task whose worker died to another worker, up
to its allowed failures (:data:`matcher.cluster.ALLOWED_FAILURES` for a cluster started
here); a page that fails its OCR is not retried (tesseract would fail it again).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .prepare import OnDone, PageTask, RunResult, ocr_page_task, save_result
from .store import OcrStore, OcrStoreError
from .tesseract import OcrFailed
from .workers import Terminated, sigterm_raises

if TYPE_CHECKING:
    from distributed import Client, Future


def run_on_cluster(
    tasks: list[PageTask],
    store: OcrStore,
    client: Client,
    *,
    on_done: OnDone | None = None,
    on_interrupt: Callable[[int], None] | None = None,
) -> RunResult:
    """OCR ``tasks`` on ``client``'s cluster, saving each result here as it arrives; as
    :func:`matcher.ocr.prepare.run_tasks` for Ctrl-C, SIGTERM and a store that fails."""
    from distributed import as_completed

    result = RunResult()
    if not tasks:
        return result
    token = secrets.token_hex(4)
    futures: dict[Future[Any], PageTask] = {}
    with sigterm_raises():
        try:
            for i, task in enumerate(tasks):
                fut = client.submit(ocr_page_task, task, pure=False,
                                    key=f"citeview-ocr-{token}-{i}")
                futures[fut] = task
            for fut in as_completed(list(futures)):
                task = futures.pop(fut)
                page, error = _outcome(fut)
                save_result(task, page, error, store, result, on_done)
        except Terminated:
            result.interrupted = result.terminated = True
        except KeyboardInterrupt:
            result.interrupted = True
            if on_interrupt is not None:
                on_interrupt(len(futures))
        except OcrStoreError as exc:
            result.store_error = str(exc)
        finally:
            if futures:
                client.cancel(list(futures))
    return result


def _outcome(fut: Future[Any]) -> tuple[Any, str | None]:
    if fut.status == "finished":
        return fut.result(), None
    exc = fut.exception()
    if isinstance(exc, OcrFailed):
        return None, str(exc)
    return None, f"no worker could OCR it ({type(exc).__name__}: {exc})"[:300]
