"""``citeview prepare FOLDER``: OCR every scanned page under a folder once, ahead of time.

With ``--scheduler ADDRESS`` the pages are OCRed on a Dask cluster
(:mod:`.cluster_run`); either way a document's pages are OCRed under its lock
(:mod:`.locks`), so two runs share the work.

Exit codes: 0 all done, 1 some pages or files failed, or the store stopped taking entries
(what was stored stays), 2 nothing could start (bad arguments, tesseract or a language
pack missing, the store cannot be written), 130 stopped with Ctrl-C, 143 with SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from ..cluster import ClusterError, dask_missing
from ..exit_status import ExitStatus
from ..progress import Progress, format_duration
from .boxes import OcrPage
from .locks import DocumentLocks
from .prepare import PageTask, RunResult, find_pdfs, run_tasks, survey
from .store import OcrStore, OcrStoreError, StoredDocument, default_store_dir
from .tesseract import DEFAULT_DPI, DEFAULT_LANG, OcrSetupError, check_tesseract
from .workers import EXIT_TERMINATED

# The statuses of matcher.exit_status's table; SIGTERM's is the workers' own.
EXIT_OK, EXIT_SOME_FAILED, EXIT_SETUP, EXIT_INTERRUPTED = (
    ExitStatus.OK, ExitStatus.FLAGGED, ExitStatus.UNUSABLE, ExitStatus.INTERRUPTED)
# Below 72 dpi text is unreadable to tesseract; above 1200 a page is hundreds of MB.
MIN_DPI, MAX_DPI = 72, 1200
PROG = "citeview prepare"


def build_parser() -> argparse.ArgumentParser:
    """The ``prepare`` argument parser (``citeview prepare`` runs it, see :func:`main`)."""
    p = argparse.ArgumentParser(
        prog=PROG,
        description="OCR the scanned pages of every PDF under FOLDER once and store the word "
                    "boxes, so citeview can match and highlight quotes on them.",
    )
    p.add_argument("folder", type=Path, metavar="FOLDER", help="folder (or one PDF) to prepare")
    p.add_argument("--lang", default=DEFAULT_LANG,
                   help="tesseract language(s), e.g. eng, deu, eng+fra (default: %(default)s)")
    p.add_argument("--dpi", type=int, default=DEFAULT_DPI,
                   help="render resolution for OCR (default: %(default)s)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="pages OCRed in parallel (default: all %(default)s cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="OCR the pages on the running Dask cluster at tcp://HOST:PORT "
                        "(the documents at the same path on every worker) instead of "
                        "--jobs local processes")
    p.add_argument("--store", type=Path, default=None,
                   help=f"where to keep the boxes (default: {default_store_dir()})")
    p.add_argument("--force", action="store_true",
                   help="redo pages that are already stored")
    return p


def main(argv: list[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run ``citeview prepare`` with ``argv`` (without the program name); return the exit code."""
    err = stderr if stderr is not None else sys.stderr
    args = build_parser().parse_args(argv)
    folder: Path = args.folder
    if not folder.exists():
        return _fail(err, f"{folder} does not exist")
    if not MIN_DPI <= args.dpi <= MAX_DPI:
        return _fail(err, f"--dpi must be between {MIN_DPI} and {MAX_DPI}, not {args.dpi}")
    if args.jobs < 1:
        return _fail(err, f"--jobs must be at least 1, not {args.jobs}")
    if args.scheduler is not None and (missing := dask_missing(PROG)) is not None:
        return _fail(err, missing)
    try:
        version = check_tesseract(args.lang)
    except OcrSetupError as exc:
        return _fail(err, str(exc))

    store = OcrStore(args.store) if args.store is not None else OcrStore.default()
    try:
        store.check_writable()  # before any page is OCRed, not after all are thrown away
    except OcrStoreError as exc:
        return _fail(err, str(exc))
    try:
        return _prepare(folder, store, args, version, err)
    except KeyboardInterrupt:  # during the survey: nothing was being written
        err.write("\nStopped before any page was OCRed; nothing was changed.\n")
        return EXIT_INTERRUPTED


def _prepare(folder: Path, store: OcrStore, args: argparse.Namespace, version: str,
             err: TextIO) -> int:
    pdfs = find_pdfs(folder, exclude=[store.root])
    if not pdfs:
        err.write(f"No PDF files under {folder}.\n")
        return EXIT_OK
    where = (f"on the Dask cluster at {args.scheduler}" if args.scheduler is not None
             else f"{args.jobs} job(s)")
    err.write(f"Preparing {len(pdfs)} PDF file(s) under {folder} with tesseract {version}, "
              f"language {args.lang}, {args.dpi} dpi, {where}; store: {store.root}\n")

    scan = Progress(len(pdfs), unit="files", label="Survey", stream=err)
    found = survey(pdfs, store, dpi=args.dpi, lang=args.lang, force=args.force,
                   on_file=lambda _path: scan.advance())
    scan.close()
    for problem in found.skipped_files:
        err.write(f"skipped: {problem}\n")
    parts = [f"{len(found.tasks)} page(s) to OCR"]
    if found.already_stored:
        parts.append(f"{found.already_stored} already prepared (skipped)")
    parts.append(f"{found.text_pages} with a text layer")
    if found.blank_pages:
        parts.append(f"{found.blank_pages} blank")
    if found.copies:
        parts.append(f"{found.copies} file(s) identical to another (done once)")
    err.write("; ".join(parts) + ".\n")
    if not found.tasks:
        err.write("Nothing to do.\n")
        return EXIT_SOME_FAILED if found.skipped_files else EXIT_OK

    bar = Progress(len(found.tasks), stream=err)
    bar.draw(force=True)

    def done(task: PageTask, page: OcrPage | None, error: str | None) -> None:
        if error is not None:
            bar.note(f"failed: {task.path} page {task.page_no + 1}: {error}")
        bar.advance()

    def stopping(running: int) -> None:
        bar.note(f"Stopping now: {running} page(s) in progress are left for the next run "
                 "(nothing is left half-written).")

    def retrying(pages: int) -> None:
        bar.note(f"A worker died (out of memory, or killed); trying its {pages} unfinished "
                 "page(s) once more.")

    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if args.scheduler is not None:
            from ..cluster import dask_client
            from .cluster_run import run_on_cluster

            try:
                client = stack.enter_context(dask_client(scheduler=args.scheduler))
            except ClusterError as exc:
                bar.close()
                return _fail(err, str(exc))

            def run(tasks: list[PageTask]) -> RunResult:
                return run_on_cluster(tasks, store, client, on_done=done,
                                      on_interrupt=stopping)
        else:
            def run(tasks: list[PageTask]) -> RunResult:
                return run_tasks(tasks, store, jobs=args.jobs, on_done=done,
                                 on_interrupt=stopping, on_retry=retrying)
        result, shared = run_locked(found.tasks, store, run, bar, want=PAGES_PER_WORKER * (
            len(client.nthreads()) if args.scheduler is not None else args.jobs),
            force=args.force)
    bar.close()
    elapsed = time.monotonic() - started
    rate = result.stored / elapsed if elapsed > 0 else 0.0

    summary = (f"{result.stored} page(s) OCRed and stored in {format_duration(elapsed)} "
               f"({rate:.2f} pages/s)")
    if found.already_stored:
        summary += f", {found.already_stored} already prepared"
    if shared:
        summary += f", {shared} prepared meanwhile by another prepare run"
    if result.failed:
        summary += f", {len(result.failed)} failed"
    if found.skipped_files:
        summary += f", {len(found.skipped_files)} file(s) skipped"
    left = len(found.tasks) - result.stored - len(result.failed) - shared
    if result.store_error is not None:
        err.write(f"Stopped: {result.store_error}. {summary}, kept; {left} page(s) left. "
                  "Run the same command again once the store can be written.\n")
        return EXIT_SOME_FAILED
    if result.interrupted:
        what = "Terminated" if result.terminated else "Interrupted"
        err.write(f"{what}: {summary}; {left} page(s) left. "
                  "Run the same command again to continue.\n")
        return EXIT_TERMINATED if result.terminated else EXIT_INTERRUPTED
    err.write(f"Done: {summary}.\n")
    return EXIT_SOME_FAILED if (result.failed or found.skipped_files) else EXIT_OK


# Pages handed out per worker in each round of documents locked (run_locked): two keep a
# worker busy while the next page is sent; a round's documents are locked until it ends.
PAGES_PER_WORKER = 4
# How often a run waiting for another run's document looks whether it is done.
LOCK_POLL_SECONDS = 0.5


def run_locked(tasks: list[PageTask], store: OcrStore,
               run: Callable[[list[PageTask]], RunResult], bar: Progress, *, want: int,
               force: bool = False) -> tuple[RunResult, int]:
    """Run ``tasks`` under each document's lock, a few documents at a time (about
    ``want`` pages: enough to keep every worker busy, few enough that a second run
    finds documents of its own to do): those no other run holds first, then, as their
    locks come free, those another run was preparing, minus the pages it stored
    meanwhile (their count is returned too). Each document's pages are looked up in the
    store again when its lock is taken, since another run may have just done them
    (``force``: only entries written since this run began count as done)."""
    by_doc: dict[str, list[PageTask]] = {}
    for task in tasks:
        by_doc.setdefault(task.doc_hash, []).append(task)
    locks = DocumentLocks(store.root)
    total, shared, waited = RunResult(), 0, False
    since = time.time()
    try:
        while by_doc:
            mine: list[str] = []
            for doc_hash in by_doc:
                if sum(len(by_doc[h]) for h in mine) >= want:
                    break
                if locks.try_lock(doc_hash):
                    mine.append(doc_hash)
            if not mine:
                if not waited:
                    bar.note(f"Waiting for another prepare run, which is OCRing "
                             f"{len(by_doc)} of these document(s).")
                waited = True
                time.sleep(LOCK_POLL_SECONDS)
                continue
            todo: list[PageTask] = []
            for doc_hash in mine:
                pages = by_doc.pop(doc_hash)
                fresh = [t for t in pages if not _done_meanwhile(store, t, since, force)]
                shared += len(pages) - len(fresh)
                bar.advance(len(pages) - len(fresh))
                todo += fresh
            got = run(todo)
            for doc_hash in mine:
                locks.release(doc_hash)
            total.stored += got.stored
            total.failed += got.failed
            total.interrupted, total.terminated = got.interrupted, got.terminated
            total.store_error = got.store_error
            if got.interrupted or got.store_error is not None:
                break
    except KeyboardInterrupt:  # while waiting for another run
        total.interrupted = True
    finally:
        locks.release_all()
    return total, shared


def _done_meanwhile(store: OcrStore, task: PageTask, since: float, force: bool) -> bool:
    if not store.has(task.doc_hash, task.page_no, lang=task.lang):
        return False
    if not force:
        return True
    try:
        return store.path(task.doc_hash, task.page_no).stat().st_mtime >= since
    except OSError:
        return False


def store_main(argv: list[str] | None = None, *, stdout: TextIO | None = None) -> int:
    """Run ``citeview store``: say what the OCR store holds; forget old or all entries."""
    out = stdout if stdout is not None else sys.stdout
    p = argparse.ArgumentParser(
        prog="citeview store",
        description="Show what the OCR store holds (word boxes kept by 'citeview prepare' "
                    "and by the viewer), and free space by forgetting entries. A forgotten "
                    "page is OCRed again when it is next needed.")
    p.add_argument("--store", type=Path, default=None,
                   help=f"the store to look at (default: {default_store_dir()})")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--forget-older-than", type=float, metavar="DAYS",
                      help="forget documents whose entries were all written over DAYS ago")
    what.add_argument("--forget-all", action="store_true", help="empty the store")
    args = p.parse_args(argv)
    store = OcrStore(args.store) if args.store is not None else OcrStore.default()
    documents = store.documents()
    if args.forget_all or args.forget_older_than is not None:
        if args.forget_older_than is not None and args.forget_older_than < 0:
            p.error("--forget-older-than needs a number of days, 0 or more")
        cutoff = time.time() - 86400 * (args.forget_older_than or 0.0)
        doomed = [d for d in documents if args.forget_all or d.last_written < cutoff]
        forgotten = []
        try:
            for doc in doomed:
                store.forget(doc.doc_hash)
                forgotten.append(doc)
        except OcrStoreError as exc:
            out.write(f"Forgot {_amount(forgotten)}.\n")
            sys.stderr.write(f"citeview store: error: {exc}\n")
            return EXIT_SETUP
        out.write(f"Forgot {_amount(forgotten)}.\n")
        documents = [d for d in documents if d not in forgotten]
    out.write(f"OCR store {store.root}: {_amount(documents)}.\n")
    damaged = sum(d.damaged for d in documents)
    if damaged:
        out.write(f"{damaged} damaged entr{'ies' if damaged != 1 else 'y'} (not whole records, "
                  "or links); they are read as absent and redone by the next prepare.\n")
    return EXIT_OK


def _amount(documents: list[StoredDocument]) -> str:
    pages = sum(d.pages for d in documents)
    mb = sum(d.nbytes for d in documents) / 1e6
    return (f"{len(documents)} document{'s' if len(documents) != 1 else ''}, "
            f"{pages} page{'s' if pages != 1 else ''}, {mb:.1f} MB")


def _fail(err: TextIO, message: str) -> int:
    err.write(f"{PROG}: error: {message}\n")
    return EXIT_SETUP


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
