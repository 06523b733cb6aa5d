"""The check process: citations read, documents inspected, quotes checked, scans recognised.

Everything the window needs from pydantic, PyMuPDF, pytesseract and the matcher happens in
this child process, so the GUI process imports none of them. ``citeview FILE`` starts it
before it imports Qt (:func:`viewer.checker.client.prestart`), and this process forks the
render process once it has imported PyMuPDF (:func:`viewer.render.worker.fork_here`). On
a two-core machine the child's imports (~0.25 s of pydantic, PyMuPDF and the matcher)
then run beside the GUI's own (~0.2 s of Qt), instead of after them, and a running check
does not compete with painting for the GUI process's interpreter lock.

Requests are served one at a time, in order (the messages are :mod:`.protocol`'s); a
check looks at what arrived between evidence items, so a cancel stops it early (and a
quick read, :data:`QUICK`, is answered there and then). While no
request waits (for :data:`WARM_AFTER_S`), the process imports what the next ones will
need, so the first check of a session does not start with 0.3 s of imports. A file
reopened unchanged gets the report kept from its last check (:mod:`.stored`).
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matcher.vocabulary import Rect

from .. import children, codecache
from ..collector import few_collections
from ..state.documents import Inspection
from ..state.records import Citations, Consistency, FactDifference, Report
from ..state.selection import PageWordBoxes
from . import protocol as p
from .citations import citations_record

log = logging.getLogger(__name__)

# Imported by the process while it waits for its first requests, in the order needed.
WARM_UP = ("matcher.citations", "matcher.document", "matcher.check", "rapidfuzz.fuzz")
# How long the process waits idle before it starts on those imports (seconds), once the
# answers it prepared were taken: while the window starts, its imports and painting have
# the cores, and its requests are not kept waiting behind an import (a file reopened
# unchanged is answered from what was kept, :mod:`.stored`, and needs none of them; on a
# loaded machine the window took 0.6 s to ask for what was ready, and waited 0.6 s more
# for a warm-up import of pydantic; after the answers, it paints for up to 0.8 s). A
# person's first request that needs these modules (a find, an export) comes later.
WARM_AFTER_S = 2.0
# Requests answered as soon as they are read, between two pieces of other work: quick
# reads that change nothing a prepared answer depends on. The window asks for a
# document's outline as soon as it shows the document, which it does before the file it
# is preparing is read (viewer.window.first_paint); waiting in the backlog, the request
# used to stop the preparing, or to have its answers thrown away as the window's moving on.
QUICK = (p.Outline,)


@dataclass(frozen=True, slots=True)
class _Answer:
    """A request's outcome before it is addressed to a caller: a value or a message."""

    ok: bool
    value: object

    def to(self, rid: int) -> p.Done | p.Failed:
        return p.Done(rid, self.value) if self.ok else p.Failed(rid, str(self.value))


class Server:
    """Serves requests in order; a check looks at what arrived between evidence items.

    ``Prepare`` is the one message with no reply: open a citations file, inspect its
    documents and check it, as the window will ask next. ``citeview FILE`` sends it
    before Qt is imported, so the check is done, or well on its way, by the time the
    window asks. A foreseen request gets the prepared answer: at once if it is ready,
    else as soon as it is (it joins the work under way). Preparing never delays other
    work: a request it did not foresee, with no one waiting on the preparing, stops it.
    """

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.backlog: deque[p.ToServer] = deque()
        self.stopping = False
        self.citations: tuple[str, Any] | None = None  # the last file opened: path, model
        self.reopen: Any = None  # a stored.Reopen (kept reports), made by the first open
        self.cancelled: set[int] = set()  # requests the window no longer waits for
        self.word_reader: Any = None  # a PageWordReader, once words are asked for
        # Preparing: what will be asked, answers not yet asked for, calls waiting.
        self.preparing = False
        self.foreseen: set[p.Request[Any]] = set()
        self.ready: dict[p.Request[Any], _Answer] = {}
        self.waiting: dict[p.Request[Any], list[p.Call]] = {}
        self.handlers: dict[type, Callable[[int, Any], object]] = {
            p.Open: self.open, p.Inspect: self.inspect, p.Check: self.check,
            p.ScannedPages: self.scanned_pages, p.OcrPage: self.ocr_page,
            p.Export: self.export, p.PrintCopy: self.print_copy,
            p.Import: import_answer,
            p.Words: self.words,
            p.Find: self.find, p.Outline: self.outline, p.PlaceOn: self.place_on,
            p.Reconsider: reconsider,
        }
        self.folded: Any = None  # viewer.checker.find.FoldedPages, made by the first find

    def run(self) -> None:
        warm = iter(WARM_UP)
        while not self.stopping:
            if self.backlog:
                msg = self.backlog.popleft()
            else:
                module = None
                if not self.ready and not self.conn.poll(WARM_AFTER_S):
                    while not self.conn.poll() and (module := next(warm, None)) is not None:
                        importlib.import_module(module)
                try:
                    msg = self.conn.recv()
                except (EOFError, OSError):
                    return
            if msg is None:
                return
            if isinstance(msg, p.Prepare):
                self.prepare(msg.path)
            elif isinstance(msg, p.Cancel):
                pass  # read here, its request was answered already: nothing to stop
            elif msg.rid in self.cancelled:  # cancelled while it waited in the backlog
                self.send(p.Failed(msg.rid, "cancelled"))
            else:
                answer = self.ready.pop(msg.request, None)
                if answer is None:
                    if not isinstance(msg.request, QUICK):
                        self.ready.clear()  # not foreseen: the window has moved on
                    answer = self.answer(msg.request, msg.rid)
                self.send(answer.to(msg.rid))
            if isinstance(msg, p.Call):
                self.cancelled.discard(msg.rid)

    def send(self, msg: p.FromServer) -> None:
        try:
            self.conn.send(msg)
        except (EOFError, OSError):
            self.stopping = True

    def answer(self, request: p.Request[Any], rid: int) -> _Answer:
        handler = self.handlers.get(type(request))
        try:
            if handler is None:
                raise p.CheckerError(f"unknown request {type(request).__name__}")
            with few_collections():  # a check or a find makes and drops many tuples
                return _Answer(True, handler(rid, request))
        except p.CheckerError as exc:
            return _Answer(False, str(exc))
        except Exception as exc:  # a bug: logged in full, the window says it plainly
            log.exception("%s request failed", type(request).__name__)
            return _Answer(False, f"{type(exc).__name__}: {exc}")

    # -- preparing ---------------------------------------------------------------------
    def prepare(self, path: str) -> None:
        check = p.Check(path)
        self.ready.clear()
        self.preparing = True
        self.foreseen = {p.Open(path), check}
        try:
            opened = self.keep(p.Open(path))
            if opened is None or not opened.ok:
                return
            assert isinstance(opened.value, Citations)
            documents = [p.Inspect(str(d.path)) for d in opened.value.documents]
            self.foreseen |= set(documents)
            for inspect in documents:
                if self.keep(inspect) is None:
                    return
            self.keep(check)
        finally:
            self.preparing = False
            self.foreseen = set()
            # Calls still waiting (preparing stopped first) are answered in turn.
            for calls in reversed(list(self.waiting.values())):
                self.backlog.extendleft(reversed(calls))
            self.waiting.clear()

    def keep(self, request: p.Request[Any]) -> _Answer | None:
        """Answer a foreseen request: to those waiting for it, else kept until asked for.
        None if preparing was stopped."""
        if self.arrived(-1):
            return None
        answer = self.answer(request, -1)
        if not self.preparing:
            return None  # stopped part way (a partial report is of no use)
        waiting = self.waiting.pop(request, [])
        for call in waiting:
            self.send(answer.to(call.rid))
        if not waiting:
            self.ready[request] = answer
        return answer

    def arrived(self, rid: int) -> bool:
        """Read what arrived meanwhile; True once the work on request ``rid`` (-1: the
        preparing) should stop. What is not for the work under way waits its turn."""
        while self.conn.poll():
            msg = self.conn.recv()
            if msg is None:
                self.stopping, self.preparing = True, False
                continue
            if isinstance(msg, p.Cancel):
                self.cancelled.add(msg.rid)
                for calls in self.waiting.values():
                    if any(c.rid == msg.rid for c in calls):
                        calls[:] = [c for c in calls if c.rid != msg.rid]
                        self.send(p.Failed(msg.rid, "cancelled"))
                continue
            if isinstance(msg, p.Call) and isinstance(msg.request, QUICK):
                self.send(self.answer(msg.request, msg.rid).to(msg.rid))
            elif isinstance(msg, p.Call) and msg.request in self.ready:
                self.send(self.ready.pop(msg.request).to(msg.rid))
            elif isinstance(msg, p.Call) and self.preparing and msg.request in self.foreseen:
                self.waiting.setdefault(msg.request, []).append(msg)
            else:
                self.backlog.append(msg)
        if self.backlog and not any(self.waiting.values()):
            self.preparing = False
        return self.stopping or rid in self.cancelled or (rid == -1 and not self.preparing)

    # -- requests ----------------------------------------------------------------------
    def open(self, _rid: int, request: p.Open) -> Citations:
        """Read and validate the file; or, when the report kept for it still holds, the
        record kept with it (pydantic and the matcher are then not needed)."""
        from .stored import Reopen

        self.reopen = self.reopen or Reopen()
        kept = self.reopen.open(request.path)
        if kept is not None:
            self.citations = None  # parsed (from the bytes read) if it is checked anew
            return kept
        cf = parse_file(request.path, self.reopen.take_raw(request.path))
        self.citations = (request.path, cf)
        return citations_record(cf, request.path)

    def inspect(self, _rid: int, request: p.Inspect) -> Inspection:
        from .inspection import inspect_pdf

        return inspect_pdf(Path(request.path), request.password)

    def check(self, rid: int, request: p.Check) -> Report:
        """Check the file last opened (as the window shows it), documents moved as given;
        the report kept for it (:mod:`.stored`) when nothing it depends on changed."""
        plain = not request.moved and not request.passwords and self.reopen is not None
        if plain and (kept := self.reopen.report(request.path)) is not None:
            return kept
        from matcher.ocr.store import OcrStore

        from .citations import report_record
        from .stored import Consulted

        consulted = Consulted(OcrStore.default())
        cf, report = self.checked(rid, request, ocr=consulted)
        record = report_record(report)
        if plain and not (self.stopping or rid in self.cancelled
                          or (rid == -1 and not self.preparing)):  # not cut short
            self.reopen.keep(request.path, consulted.paths, citations_record(cf, request.path),
                             record)
        return record

    def checked(self, rid: int, request: p.Check, *, ocr: Any = None) -> tuple[Any, Any]:
        """The citations file as checked (documents moved) and its ``CheckReport``."""
        from matcher.check import check_citations
        from matcher.ocr.store import OcrStore

        path = request.path
        if self.citations is None or self.citations[0] != path:
            # opened from what was kept, or in a process since ended
            raw = self.reopen.take_raw(path) if self.reopen is not None else None
            self.citations = (path, parse_file(path, raw))
        cf = moved_documents(self.citations[1], dict(request.moved))

        def progress(done: int, total: int) -> None:
            # To the caller; while preparing, to the calls that joined this check.
            for to in [rid] if rid >= 0 else [c.rid for c in self.waiting.get(request, ())]:
                self.send(p.Progressed(to, done, total))

        report = check_citations(cf, path, progress=progress,
                                 cancel=lambda: self.arrived(rid),
                                 passwords=dict(request.passwords),
                                 ocr=OcrStore.default() if ocr is None else ocr)
        return cf, report

    def export(self, rid: int, request: p.Export) -> p.Exported:
        """Check the file again (as the window shows it), apply its review and write the
        outputs; progress is the check's, then the export's."""
        from matcher.ocr.store import OcrStore

        from ..export import run
        from ..export.writing import Cancelled, OutputError
        from ..state.exports import ExportTargets
        from ..state.sidecar import SidecarError
        from .review import load_review, reviewed_report

        path = Path(request.path)
        try:  # an unusable review file is told before the check, not after it
            review, review_path = load_review(path, Path(request.review) if request.review
                                              else None)
        except SidecarError as exc:
            raise p.CheckerError(str(exc)) from None
        cf, report = self.checked(rid, p.Check(request.path, request.moved, request.passwords))
        if self.stopping or rid in self.cancelled:
            raise p.CheckerError("cancelled")
        targets = ExportTargets(*(None if t is None else Path(t) for t in (
            request.pdf, request.html, request.csv, request.annotations)))
        try:
            data = reviewed_report(report, cf, path, review)
            done = run.export(
                data, citations_path=path, citations=citations_record(cf, path),
                targets=targets, review_path=review_path,
                passwords=dict(request.passwords), ocr=OcrStore.default(),
                progress=lambda d, t: self.send(p.Progressed(rid, d, t)),
                cancel=lambda: self.arrived(rid))
        except OutputError as exc:
            raise p.CheckerError(str(exc)) from None
        except Cancelled:
            raise p.CheckerError("cancelled") from None
        return p.Exported(tuple(str(w) for w in done.written), done.problems)

    def print_copy(self, rid: int, request: p.PrintCopy) -> int:
        """The pages to print as one PDF, from the annotated copies an export writes (to
        a folder of its own, removed afterwards), or from the bare PDFs."""
        import tempfile

        from ..export.pdf import copy_names
        from ..export.print_copy import print_copy
        from ..export.writing import Cancelled, OutputError
        from .citations import citations_record

        sources = {doc_id: Path(path) for doc_id, path in request.documents}
        with tempfile.TemporaryDirectory(prefix="citeview-print-") as folder:
            if request.path is not None:
                self.export(rid, p.Export(request.path, pdf=folder, moved=request.moved,
                                          passwords=request.passwords))
                assert self.citations is not None
                cf = moved_documents(self.citations[1], dict(request.moved))
                paths = {d.id: d.path for d in citations_record(cf, request.path).documents}
                sources.update(copy_names(Path(folder), paths))
            try:
                return print_copy(request.pages, sources, Path(request.out),
                                  passwords=dict(request.passwords),
                                  progress=lambda d, t: self.send(p.Progressed(rid, d, t)),
                                  cancel=lambda: self.arrived(rid))
            except OutputError as exc:
                raise p.CheckerError(str(exc)) from None
            except Cancelled:
                raise p.CheckerError("cancelled") from None
            except Exception as exc:  # a document that cannot be read: said, not raised
                raise p.CheckerError(f"The pages could not be printed: {exc}") from None

    def scanned_pages(self, _rid: int, request: p.ScannedPages) -> tuple[int, ...]:
        from .scans import pages_needing_ocr

        return tuple(pages_needing_ocr(Path(request.path), request.pages,
                                       password=request.password))

    def ocr_page(self, _rid: int, request: p.OcrPage) -> int:
        from matcher.ocr.tesseract import OcrFailed, OcrSetupError

        from .scans import recognise_page

        if self.folded is not None:
            self.folded.forget(Path(request.path))  # the page's words are about to change
        try:
            return recognise_page(Path(request.path), request.page, password=request.password)
        except (OcrFailed, OcrSetupError) as exc:  # a sentence for the person already
            raise p.CheckerError(str(exc)) from None

    def find(self, rid: int, request: p.Find) -> int:
        """Search a document, streaming its hits; stops between pages once cancelled."""
        from matcher.document import DocumentError
        from matcher.files import os_error_reason

        from .find import FoldedPages, find_in_document

        if self.folded is None:
            self.folded = FoldedPages()
        try:
            return find_in_document(
                self.folded, Path(request.path), request.query, start=request.start,
                password=request.password, send=lambda hits: self.send(p.Found(rid, hits)),
                progress=lambda done, total: self.send(p.Progressed(rid, done, total)),
                stop=lambda: self.arrived(rid))
        except DocumentError as exc:
            raise p.CheckerError(str(exc)) from None
        except OSError as exc:
            raise p.CheckerError(f"{request.path}: {os_error_reason(exc)}") from None

    def outline(self, _rid: int, request: p.Outline) -> tuple[p.OutlineEntry, ...]:
        from matcher.document import DocumentError

        from .reading import read_outline

        try:
            return read_outline(Path(request.path), request.password)
        except DocumentError as exc:
            raise p.CheckerError(str(exc)) from None

    def place_on(self, _rid: int, request: p.PlaceOn) -> dict[int, tuple[Rect, ...]]:
        from matcher.document import DocumentError

        from .reading import place_on_pages

        try:
            return place_on_pages(Path(request.path), request.quote, request.pages,
                                  password=request.password)
        except DocumentError as exc:
            raise p.CheckerError(str(exc)) from None

    def words(self, _rid: int, request: p.Words) -> PageWordBoxes:
        if self.word_reader is None:
            from .page_words import PageWordReader

            self.word_reader = PageWordReader()
        return self.word_reader.words(Path(request.path), request.page,
                                      password=request.password)


def parse_file(path: str, raw: bytes | None = None) -> Any:
    """The citations file at ``path`` validated (a ``CitationsFile``), from ``raw``, its
    bytes as read when it was opened, else as it is now; CheckerError saying why not."""
    from matcher.citations import CitationsError, load_citations

    try:
        return load_citations(path, raw=raw)
    except CitationsError as exc:
        from ..imports.run import is_answer

        if is_answer(Path(path)):
            raise p.CheckerError(f"{path} is an answer to import, not a citations file: "
                                 "open it with File ▸ Import…, or run citeview FILE "
                                 "--document PDF (or --request REQUEST.json)") from None
        raise p.CheckerError(open_failure(exc)) from None


def open_failure(exc: Any) -> str:
    """What the window says when a citations file cannot be opened (a ``CitationsError``):
    a file that is not there, or empty, in plain words; else every problem with its JSON
    path, as the command line says them."""
    from ..state.presentation import plain_problem, problems_text

    problems: list[tuple[str, str]] = exc.problems
    path: Path = exc.path
    if len(problems) != 1 or problems[0][0] != "$":
        return problems_text(path.name, problems)
    reason = plain_problem(problems[0][1])
    if reason == "file not found":
        return f"There is no file {path}."
    if reason.startswith("not valid JSON") and _blank(path):
        return (f"{path.name} is empty: a citations file is a JSON object with a "
                "\"claims\" list (citeview schema prints its form).")
    return f"{path.name} cannot be opened: {reason}"


def import_answer(_rid: int, request: p.Import) -> p.Imported:
    """Import an answer as ``citeview import`` does; the citations file written."""
    from ..export.writing import OutputError
    from ..imports.model import ImportProblem, Inputs
    from ..imports.run import run_import

    inputs = Inputs(tuple(Path(d) for d in request.documents),
                    None if request.request is None else Path(request.request),
                    by_title=request.by_title)
    try:
        done = run_import(Path(request.response), inputs)
    except (ImportProblem, OutputError) as exc:
        raise p.CheckerError(str(exc)) from None
    return p.Imported(str(done.citations), tuple(done.lines()))


def reconsider(_rid: int, request: p.Reconsider) -> Consistency:
    """A claim's consistency against the words its evidence stands on now."""
    from matcher.consistency import check_claim

    c = check_claim(request.claim, request.texts, pages=request.pages)
    return Consistency(c.status, tuple(FactDifference(d.kind, d.claim, d.evidence)
                                       for d in c.differences))


def _blank(path: Path) -> bool:
    """Whether the file holds nothing but whitespace (up to a size where it surely
    holds something else too)."""
    limit = 1 << 16
    try:
        with path.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError:
        return False
    return len(data) <= limit and not data.strip()



def serve(conn: Any, parent_end: Any = None, render: Any = None) -> None:
    """The process's body: answer requests on ``conn`` until it closes or sends None;
    first, given a render handoff (:func:`viewer.render.process.prestart`), import
    PyMuPDF and fork the render process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the GUI's to handle
    children.lead_own_group()  # stopped with whatever it runs (tesseract)
    if parent_end is not None:
        parent_end.close()  # so the GUI's end closing shows here as end-of-file
    try:
        if render is not None:
            # PyMuPDF comes with the matcher's opener; imported once here, it is shared
            # with the render process from here on.
            import matcher.document  # noqa: F401
        start_collecting()  # before the fork, so the render process's imports are old too
        if render is not None:
            from ..render.worker import fork_here

            fork_here(render, conn)
        Server(conn).run()
    finally:
        codecache.save()  # what this process compiled that no run had kept (viewer.codecache)
        logging.shutdown()
        # Leave without the interpreter's teardown of pydantic and PyMuPDF (tens of ms
        # the window would otherwise wait for when it closes).
        os._exit(0)


def start_collecting() -> None:
    """Let the garbage collector run, paused since the window's start-up, with what was
    imported so far (PyMuPDF: some 60,000 objects that live as long as the process) put
    straight into the oldest generation, which only a full collection walks. Imported
    with the collector running, those objects were walked by 80-odd young collections:
    12 ms of the 0.25 s the process takes to a first check. Nothing stays frozen: each
    request's :func:`~viewer.collector.few_collections` sees the process as it was."""
    gc.freeze()
    gc.unfreeze()  # frozen objects go back to the oldest generation, not the youngest
    gc.enable()


def moved_documents(cf: Any, moved: dict[str, str]) -> Any:
    """The citations file ``cf`` with the documents the window located elsewhere at
    their new paths."""
    if not moved:
        return cf
    from matcher.citations import DocumentRef

    docs = [DocumentRef(id=d.id, path=moved[d.id]) if d.id in moved else d
            for d in cf.documents]
    return cf.model_copy(update={"documents": docs})
