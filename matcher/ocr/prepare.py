"""Prepare a folder: find the pages that need OCR, run them on all cores, store the boxes.

The work is split in two so each half has one job: :func:`survey` opens every PDF once in
this process (content hash, which pages need OCR, which are already stored) and returns
picklable :class:`PageTask` snapshots; :func:`run_tasks` hands those to a process pool
whose workers each open the PDF themselves, and saves every result here, in the parent,
as it arrives. Saving is atomic (see :mod:`matcher.ocr.store`), so an interrupted run
leaves only whole entries and the next run continues where this one stopped.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from ..document import DocumentError, file_hash, open_pdf
from .boxes import OcrPage
from .store import OcrStore, OcrStoreError
from .tesseract import OcrFailed, recognize_page
from .textlayer import assess_text_layer
from .workers import Terminated, init_worker, run_folder, sigterm_raises, stop_workers, stoppable

# A page whose tesseract run takes longer than this is reported as failed, not waited
# for forever (a 300 dpi A4 page takes 1–4 s on one core; pathological scans ~30 s).
PAGE_TIMEOUT_SECONDS = 300
PDF_SUFFIX = ".pdf"
# How workers start. On Linux "fork": a worker begins with PyMuPDF and pytesseract already
# imported, where "spawn" re-imports them (~1 s of CPU per worker, measured as 0.25 s per
# page on an 8-page folder with 2 workers). It is safe here because `citeview prepare` is a
# command-line process whose only thread is the main one when the pool starts (the
# executor launches every worker before its own manager thread). Elsewhere "spawn": macOS
# system libraries are not fork-safe, and Windows has nothing else.
START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"


@dataclass(frozen=True, slots=True)
class PageTask:
    """Everything a worker needs to OCR one page: a snapshot, no open objects."""

    path: str
    page_no: int  # 0-based
    doc_hash: str
    dpi: int
    lang: str
    size: int  # file size and mtime at survey time: a worker refuses a file changed since
    mtime_ns: int


@dataclass
class Survey:
    """What a folder holds and what is left to do."""

    tasks: list[PageTask] = field(default_factory=list)
    documents: int = 0
    already_stored: int = 0  # pages needing OCR that the store already has (skipped)
    text_pages: int = 0
    blank_pages: int = 0
    copies: int = 0  # files whose bytes equal an earlier file's (their pages done once)
    skipped_files: list[str] = field(default_factory=list)  # "path: reason"


@dataclass
class RunResult:
    """How a run went: pages stored, failures with reasons, and whether it was stopped
    (Ctrl-C: ``interrupted``; SIGTERM: ``terminated`` too; a store that could not be
    written: ``store_error``, what was stored before it kept)."""

    stored: int = 0
    failed: list[str] = field(default_factory=list)
    interrupted: bool = False
    terminated: bool = False
    store_error: str | None = None


def find_pdfs(folder: Path, *, exclude: Iterable[Path] = ()) -> list[Path]:
    """PDF files under ``folder`` (recursively, ``.pdf`` in any case), sorted; or ``[folder]``.

    Symbolic links to folders are not followed (no loops); folders in ``exclude`` (the
    store, when it lives inside the documents folder) are not entered.
    """
    if folder.is_file():
        return [folder]
    skip = {p.resolve() for p in exclude}
    found: list[Path] = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if (Path(root) / d).resolve() not in skip)
        found.extend(Path(root) / f for f in files if f.lower().endswith(PDF_SUFFIX))
    return sorted(found)


def survey(
    paths: Iterable[Path],
    store: OcrStore,
    *,
    dpi: int,
    lang: str,
    force: bool = False,
    on_file: Callable[[Path], None] | None = None,
) -> Survey:
    """Open each PDF and list the pages that need OCR and are not stored with ``lang``.

    Unreadable, damaged and encrypted files are recorded in ``skipped_files`` and left.
    ``force`` redoes stored pages too. ``on_file`` is called after each file (progress).
    """
    result = Survey()
    seen: set[str] = set()
    for path in paths:
        try:
            _survey_file(path, store, result, seen, dpi=dpi, lang=lang, force=force)
        except DocumentError as exc:
            result.skipped_files.append(f"{path}: {exc.detail}")
        except OSError as exc:
            result.skipped_files.append(f"{path}: cannot be read ({exc.strerror or exc})")
        if on_file is not None:
            on_file(path)
    return result


def _survey_file(path: Path, store: OcrStore, result: Survey, seen: set[str], *,
                 dpi: int, lang: str, force: bool) -> None:
    stat = path.stat()
    doc = open_pdf(path)
    try:
        doc_hash = file_hash(path)
        result.documents += 1
        if doc_hash in seen:
            result.copies += 1
            return
        seen.add(doc_hash)
        for page_no in range(doc.page_count):
            if not force and store.has(doc_hash, page_no, lang=lang):
                result.already_stored += 1
                continue
            try:
                verdict = assess_text_layer(doc.load_page(page_no))
            except Exception:  # a damaged page: let the worker try, and report its failure
                verdict = None
            if verdict is not None and not verdict.needs_ocr:
                if verdict.reason == "blank":
                    result.blank_pages += 1
                else:
                    result.text_pages += 1
                continue
            result.tasks.append(PageTask(str(path), page_no, doc_hash, dpi, lang,
                                         stat.st_size, stat.st_mtime_ns))
    finally:
        doc.close()


def ocr_page_task(task: PageTask) -> OcrPage:
    """OCR one page (in a worker process: the pool's or a Dask worker's); every failure
    becomes a picklable :class:`OcrFailed`."""
    try:
        stat = os.stat(task.path)
        if (stat.st_size, stat.st_mtime_ns) != (task.size, task.mtime_ns):
            raise OcrFailed("the file changed since it was surveyed; run prepare again")
        doc = open_pdf(task.path)
        try:
            return recognize_page(doc.load_page(task.page_no), dpi=task.dpi, lang=task.lang,
                                  timeout=PAGE_TIMEOUT_SECONDS)
        finally:
            doc.close()
    except OcrFailed as exc:
        failure = str(exc)
    except DocumentError as exc:
        # DocumentError takes three arguments and would not unpickle in the parent.
        failure = exc.detail
    except Exception as exc:
        failure = f"{type(exc).__name__}: {exc}"[:300]
    # Raised outside the handlers, so it carries no __context__: where the pickling of
    # exceptions takes their chain along (tblib's, which Dask's distributed installs),
    # MuPDF's exception objects in that chain hold SWIG pointers and would fail it, and
    # with it the worker.
    raise OcrFailed(failure)


@stoppable
def ocr_task(task: PageTask) -> OcrPage:
    """The pool's task: :func:`ocr_page_task`, unwound by SIGTERM (matcher.ocr.workers)."""
    return ocr_page_task(task)

OnDone = Callable[[PageTask, OcrPage | None, str | None], None]
# A page whose worker died (killed, out of memory) is tried once more on a fresh pool; a
# second death is taken to be the page's own doing, and it is reported as failed.
WORKER_DEATH_RETRIES = 1


def run_tasks(
    tasks: list[PageTask],
    store: OcrStore,
    *,
    jobs: int,
    on_done: OnDone | None = None,
    on_interrupt: Callable[[int], None] | None = None,
    on_retry: Callable[[int], None] | None = None,
) -> RunResult:
    """OCR ``tasks`` on ``jobs`` processes, saving each result as it arrives.

    ``on_done(task, page, error)`` is called in this process after each page (``page`` is
    ``None`` and ``error`` a sentence when it failed). A worker that dies takes the pool
    with it: the pages it left unfinished run again, once, on a fresh pool
    (``on_retry(pages)``). On Ctrl-C the run stops at once: queued pages are dropped,
    ``on_interrupt(running)`` is told how many pages in progress are abandoned (the next
    run does them), and the result says ``interrupted``. On SIGTERM, or when the store
    cannot be written, the run stops the same way. No entry is ever half-written; the
    workers never outlive this process, and their temporary files are removed on every
    way out.
    """
    result = RunResult()
    tries = 0
    while tasks:
        lost = _run_pool(tasks, store, result, jobs=jobs, on_done=on_done,
                         on_interrupt=on_interrupt)
        if not lost or result.interrupted or result.store_error is not None:
            break
        if tries >= WORKER_DEATH_RETRIES:
            for task in lost:
                error = "its worker died twice (out of memory, or killed)"
                result.failed.append(f"{task.path} page {task.page_no + 1}: {error}")
                if on_done is not None:
                    on_done(task, None, error)
            break
        tries += 1
        if on_retry is not None:
            on_retry(len(lost))
        tasks = lost
    return result


def _run_pool(tasks: list[PageTask], store: OcrStore, result: RunResult, *, jobs: int,
              on_done: OnDone | None, on_interrupt: Callable[[int], None] | None
              ) -> list[PageTask]:
    """One pool's run over ``tasks``; the pages lost when a worker died, to run again."""
    lost: list[PageTask] = []
    context = multiprocessing.get_context(START_METHOD)
    before = set(multiprocessing.active_children())
    with run_folder() as tmp, sigterm_raises():
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                   initializer=init_worker, initargs=(str(tmp), os.getpid()))
        workers = []
        futures: dict[Future[OcrPage], PageTask] = {}
        stop_now = True
        try:
            futures = {pool.submit(ocr_task, t): t for t in tasks}
            workers = [p for p in multiprocessing.active_children() if p not in before]
            for fut in as_completed(futures):
                _finish(fut, futures[fut], store, result, on_done, lost)
            stop_now = False
        except Terminated:
            result.interrupted = result.terminated = True
        except KeyboardInterrupt:
            result.interrupted = True
            if on_interrupt is not None:
                on_interrupt(sum(f.running() for f in futures))
        except OcrStoreError as exc:
            result.store_error = str(exc)
        finally:
            if stop_now:  # stopped, or failed unexpectedly: end the workers now
                pool.shutdown(wait=False, cancel_futures=True)
                stop_workers(workers)
            pool.shutdown(wait=True, cancel_futures=True)
    return lost


def _finish(fut: Future[OcrPage], task: PageTask, store: OcrStore, result: RunResult,
            on_done: OnDone | None, lost: list[PageTask] | None = None) -> None:
    if fut.cancelled():
        return
    error: str | None = None
    page: OcrPage | None = None
    try:
        page = fut.result()
    except OcrFailed as exc:
        error = str(exc)
    except BrokenProcessPool as exc:
        if lost is not None:  # a worker died: this page is run again
            lost.append(task)
            return
        error = f"worker failed ({type(exc).__name__}: {exc})"
    except Exception as exc:  # anything else from a worker: report, go on
        error = f"worker failed ({type(exc).__name__}: {exc})"
    save_result(task, page, error, store, result, on_done)


def save_result(task: PageTask, page: OcrPage | None, error: str | None, store: OcrStore,
                result: RunResult, on_done: OnDone | None) -> None:
    """Store one page's result (or count its failure) and tell ``on_done``."""
    if page is not None:
        store.save(task.doc_hash, page)
        result.stored += 1
    else:
        result.failed.append(f"{task.path} page {task.page_no + 1}: {error}")
    if on_done is not None:
        on_done(task, page, error)
