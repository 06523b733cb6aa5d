"""The open → inspect → check → select flow, and the background work it needs.

The :class:`Controller` owns what happens when a file is opened: the citations file is
read in the check process, every document it names is inspected (a password asked for
when one is locked), the check runs in the background with progress and can be
cancelled, and the claim asked for (or the first) is selected once the report is in. It
also offers to recognise a scanned page a quote could not be found on. It touches no
widget: the state it changes is the :class:`~viewer.state.session.Session`, and what the
window should show besides (a notice, progress, a status message, which document) it
says through signals, which the window's shell turns into widgets.

Its check client comes from the factory it is given, so a test can hand it a slow or a
failing client; a client whose process died is replaced by the next one the factory makes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal

from matcher.vocabulary import CancelCallback, ProgressCallback

from ..checker.client import CheckClient
from ..state.documents import Inspection
from ..state.files import opens_as_pdf, resolved
from ..state.presentation import locked_document, status_word, unreadable_document
from ..state.records import Citations, Report
from ..state.session import Change, Session
from .operations import Operation, Operations

log = logging.getLogger(__name__)

AskPassword = Callable[[str, str], str | None]  # (document name, message) → password
AskPath = Callable[[str, str], Path | None]  # (title, filter) → chosen file
Call = Callable[[CheckClient, ProgressCallback, CancelCallback], object]
NoticeAction = tuple[str, Callable[[], None]]


@dataclass(frozen=True)
class Notice:
    """A sentence for the notice bar, its kind ("info" or "error") and its buttons."""

    text: str
    kind: Literal["info", "error"] = "info"
    actions: Sequence[NoticeAction] = ()


@dataclass(frozen=True)
class Busy:
    """Work the status bar shows: its label (``%v`` is ``done``) and how far it is;
    ``total`` 0 when unknown; ``cancellable`` when the person may stop it."""

    label: str
    done: int = 0
    total: int = 0
    cancellable: bool = False


class Controller(QObject):
    """Opens files, inspects their documents, checks them, and selects a claim."""

    busy_changed = Signal()  # background work started or ended
    opened = Signal(object)  # Path: a citations file or PDF is open now
    open_failed = Signal(object)  # Path: a citations file that could not be opened
    message = Signal(str, int)  # a status-bar message and how long it stays (ms; 0: until replaced)
    progress = Signal(object)  # Busy, or None when nothing is shown
    notice = Signal(object)  # Notice, or None to clear the bar
    document_wanted = Signal(object)  # the document id to show (None: nothing yet)
    page_wanted = Signal(int)  # 0-based page to show while the check runs

    def __init__(self, session: Session, checker: Callable[[], CheckClient], *,
                 interactive: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.interactive = interactive
        self._checker = checker
        self.client = checker()
        self.ops = Operations(self)
        self.ops.changed.connect(self.busy_changed)
        self.ask_password: AskPassword = lambda _name, _message: None
        self.ask_path: AskPath = lambda _title, _filter: None
        # What was asked to be opened (a file, a claim, a page) turned out not to exist.
        self.failed_to_open = False
        self.page_requested = False  # a page was asked for: do not jump to the claim's
        self._check: Operation | None = None
        self._open: Operation | None = None
        self._pending_claim: str | None = None
        self._notice_about_documents = False
        self._notice_about_ocr = False
        session.changed.connect(self._on_session)

    # -- opening ------------------------------------------------------------------------
    def open_path(self, path: Path) -> None:
        """Open a citations file (.cite/.json) or a bare PDF. A citations file is read and
        validated in the check process; if it cannot be used, the notice bar says why and
        what was open stays open."""
        path = Path(path).expanduser()
        self._pending_claim = None
        self.failed_to_open = False
        self._cancel_all()
        if opens_as_pdf(path):
            self.session.open_pdf(resolved(path))
            self.opened.emit(path)
            self._inspect_all()
            return
        self.message.emit(f"Opening {path.name}…", 0)
        self._open = self._run(lambda c, _p, cancel: c.open(path, cancel=cancel),
                               lambda citations: self._opened(path, citations),
                               on_failure=lambda exc: self._fail_open(path, exc),
                               name="citeview-open")

    def _opened(self, path: Path, citations: Citations) -> None:
        self._open = None
        self.message.emit("", 0)
        self.session.open_citations(resolved(path), citations)
        self.opened.emit(path)
        claim = self._pending_claim
        if claim is not None and citations.claim(claim) is None:
            self._pending_claim = None
            self._no_such_claim(claim)
        self._inspect_all()

    def _fail_open(self, path: Path, exc: BaseException) -> None:
        self._open = None
        self.open_failed.emit(path)
        self.failed_to_open = True
        self._pending_claim = None
        self.notice.emit(Notice(str(exc), "error"))
        self.message.emit("The file could not be opened.", 10000)

    def select_claim_when_ready(self, claim_id: str) -> None:
        """Select ``claim_id`` now if the report is in, else as soon as it arrives (a file
        still being opened is asked once it is read)."""
        if self._open is not None and not self._open.cancelled:
            self._pending_claim = claim_id  # looked up in the file once it is read
            return
        citations = self.session.citations
        if citations is None or citations.claim(claim_id) is None:
            self._no_such_claim(claim_id)
        elif self.session.report is not None:
            self.session.select(claim_id)
        else:
            self._pending_claim = claim_id

    def _no_such_claim(self, claim_id: str) -> None:
        self.failed_to_open = True
        self.notice.emit(Notice(f"There is no claim {claim_id!r} in this file.", "error"))

    # -- documents ----------------------------------------------------------------------
    def _inspect_all(self) -> None:
        for doc in self.session.documents.values():
            if doc.state == "unknown":
                self._inspect(doc.id)
        self._update_notice()

    def _inspect(self, doc_id: str) -> None:
        doc = self.session.documents[doc_id]
        path, password = doc.path, doc.password
        self._run(lambda c, _p, cancel: c.inspect(path, password, cancel=cancel),
                  lambda ins: self._inspected(doc_id, ins), name=f"citeview-inspect-{doc_id}")

    def _inspected(self, doc_id: str, ins: Inspection) -> None:
        doc = self.session.documents.get(doc_id)
        if doc is None or doc.path != ins.path:
            return  # a file opened since
        if ins.state in ("encrypted", "bad_password") and self.interactive:
            message = ("The password is not correct. Try again:" if ins.state == "bad_password"
                       else f"{ins.path.name} is password-protected. Password:")
            password = self.ask_password(ins.path.name, message)
            if password is not None:
                doc.password = password
                self._inspect(doc_id)
                return
        self.session.set_document_state(doc_id, ins.state, ins.message, pages=ins.pages,
                                        sha256=ins.sha256)
        if self.session.is_plain_pdf and ins.state != "ok":
            self.failed_to_open = True  # the PDF asked for cannot be shown (the notice says why)
        if all(d.state != "unknown" for d in self.session.documents.values()):
            self._documents_ready()

    def _documents_ready(self) -> None:
        self._update_notice()
        self.document_wanted.emit(self.session.shown_document)
        if not self.session.is_plain_pdf:
            self._start_check()
            # While the check runs, show (and so render) the page the claim about to be
            # selected says it is on: usually the page its highlight will be drawn on.
            rows = self.session.rows()
            claim = self._pending_claim or (rows[0].id if rows else None)
            hint = self.session.hinted_page(claim)
            if hint is not None and not self.page_requested:
                self.page_wanted.emit(hint - 1)

    def _update_notice(self) -> None:
        problems = self.session.problem_documents()
        if not problems:
            if self._notice_about_documents:
                self.notice.emit(None)
                self._notice_about_documents = False
            return
        self._notice_about_documents = True
        doc = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        if doc.state == "missing":
            self.notice.emit(Notice(f"{status_word('missing')}: {doc.path}{more}", "error",
                                    [("Locate…", lambda: self.locate_document(doc.id))]))
        elif doc.state in ("encrypted", "bad_password"):
            self.notice.emit(Notice(
                locked_document(doc.name, bare_pdf=self.session.is_plain_pdf, more=more),
                "error", [("Enter Password…", lambda: self.unlock_document(doc.id))]))
        else:  # the file is there but cannot be used: another copy may be
            self.notice.emit(Notice(unreadable_document(doc.name, doc.message) + more,
                                    "error", [("Use Another Copy…",
                                               lambda: self.locate_document(doc.id))]))

    def locate_document(self, doc_id: str | None = None) -> None:
        """Ask where a missing (or unreadable) document is, then check again."""
        problems = self.session.problem_documents()
        if doc_id is None:
            doc_id = problems[0].id if problems else None
        if doc_id is None:
            return
        name = self.session.documents[doc_id].name
        path = self.ask_path(f"Locate {name}", "PDF (*.pdf);;All files (*)")
        if path is None:
            return
        self.session.relocate(doc_id, resolved(path))
        self.relocated()

    def relocated(self) -> None:
        """Documents were pointed elsewhere: inspect them there and check again."""
        self.session.clear_report()
        self._inspect_all()

    def unlock_document(self, doc_id: str) -> None:
        doc = self.session.documents[doc_id]
        password = self.ask_password(doc.name, f"{doc.name} is password-protected. Password:")
        if password is None:
            return
        doc.password = password
        self.session.relocate(doc_id, doc.path)  # back to "unknown": inspect again
        self._inspect_all()

    # -- checking -----------------------------------------------------------------------
    def _start_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
        session = self.session
        assert session.citations_path is not None
        path, moved, passwords = (session.citations_path, session.moved_documents(),
                                  session.passwords())
        self.progress.emit(Busy("Checking…", cancellable=True))
        self.message.emit("Checking the citations…", 0)
        self._check = self._run(
            lambda c, progress, cancel: c.check(path, moved=moved, passwords=passwords,
                                                progress=progress, cancel=cancel),
            self._checked, on_progress=self._check_progress, name="citeview-check")

    def _check_progress(self, done: int, total: int) -> None:
        self.progress.emit(Busy(f"Checking %v/{total}", done, total, cancellable=True))
        self.session.set_progress(done, total)

    def _checked(self, report: Report) -> None:
        self._check = None
        self.progress.emit(None)
        self.message.emit("", 0)  # the status bar's summary shows the outcome for good
        self.session.set_report(report)
        claim, self._pending_claim = self._pending_claim, None
        rows = self.session.rows()
        if claim is None and self.session.selected is None and rows \
                and not self.page_requested:
            claim = rows[0].id  # show something useful at once: the first claim
        if claim is not None:
            self.session.select(claim)
        elif self.session.selected is not None:
            self.session.select(self.session.selected)

    def cancel_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
            self._check = None
        self.progress.emit(None)
        self.message.emit("Check cancelled; press F5 to check again.", 10000)
        self.busy_changed.emit()

    def recheck(self) -> None:
        if self.session.citations is not None:
            self._start_check()

    # -- scanned pages ------------------------------------------------------------------
    def _on_session(self, change: Change) -> None:
        if change == "selection":
            self._offer_ocr()
        elif change == "documents":
            self._update_notice()

    def _offer_ocr(self) -> None:
        """If the selected claim was not located on a page that is a scan without text,
        offer (in the notice bar) to recognise that page now."""
        if self._notice_about_ocr:
            self.notice.emit(None)
            self._notice_about_ocr = False
        claim = self.session.selected
        wanted = self.session.unlocated_pages(claim)
        if not wanted or self.session.problem_documents():
            return
        doc_id, pages = next(iter(wanted.items()))
        doc = self.session.documents[doc_id]
        if not doc.usable or not pages:
            return
        path, password = doc.path, doc.password
        self._run(lambda c, _p, cancel: c.scanned_pages(path, pages, password=password,
                                                        cancel=cancel),
                  lambda found: self._show_ocr_offer(claim, doc_id, found),
                  on_failure=lambda exc: log.info("scan check failed: %s", exc),
                  name="citeview-scan-check")

    def _show_ocr_offer(self, claim: str | None, doc_id: str, pages: Sequence[int]) -> None:
        if not pages or claim != self.session.selected or self.session.problem_documents():
            return
        doc = self.session.documents[doc_id]
        n = pages[0] + 1
        self._notice_about_ocr = True
        self.notice.emit(Notice(
            f"Page {n} of {doc.name} is a scanned image with no text yet, so the quote "
            f"cannot be found on it.", "info",
            [(f"Recognise Text on Page {n}", lambda: self.recognise_page(doc_id, n - 1))]))

    def recognise_page(self, doc_id: str, page: int) -> None:
        """OCR one page in the check process, store its words, then check again."""
        doc = self.session.documents[doc_id]
        path, password = doc.path, doc.password
        self.notice.emit(Notice(f"Recognising text on page {page + 1} of {doc.name}…"))
        self._notice_about_ocr = True
        self.progress.emit(Busy("Recognising text…"))

        def done(_words: int) -> None:
            self.progress.emit(None)
            self.notice.emit(None)
            self._notice_about_ocr = False
            self.message.emit(f"Text recognised on page {page + 1}; checking again…", 5000)
            self.recheck()

        def failed(exc: BaseException) -> None:
            self.progress.emit(None)
            self.notice.emit(Notice(f"Text recognition failed: {exc}", "error"))

        self._run(lambda c, _p, cancel: c.ocr_page(path, page, password=password,
                                                   cancel=cancel),
                  done, on_failure=failed, name="citeview-ocr")

    # -- background operations ----------------------------------------------------------
    def _run(self, call: Call, on_success: Callable[..., None], *,
             on_progress: ProgressCallback | None = None,
             on_failure: Callable[[BaseException], None] | None = None,
             name: str = "citeview-operation") -> Operation:
        """Run one call to the check process in the background. A client whose process
        has died (the request it died on was reported as failed) is replaced first."""
        if not self.client.is_alive():
            log.warning("the check process had stopped; starting a new one")
            self.client.stop()
            self.client = self._checker()
        client = self.client
        return self.ops.run(lambda progress, cancel: call(client, progress, cancel),
                            on_success, on_failure=on_failure or self._op_failed,
                            on_progress=on_progress, name=name)

    def ask(self, call: Call, on_success: Callable[..., None], *,
            on_failure: Callable[[BaseException], None] | None = None,
            on_progress: Callable[[int, int], None] | None = None,
            name: str = "citeview-operation") -> Operation:
        """Ask the check process something in the background, for the window's other
        parts (the review, find, the outline); see :meth:`_run`."""
        return self._run(call, on_success, on_failure=on_failure, on_progress=on_progress,
                         name=name)

    def _op_failed(self, exc: BaseException) -> None:
        log.error("background work failed", exc_info=exc)
        self.progress.emit(None)
        self.notice.emit(Notice(f"Something went wrong: {exc}", "error"))

    def _cancel_all(self) -> None:
        self.ops.cancel_all()
        self._open = None
        self._check = None

    def is_busy(self) -> bool:
        return self.ops.busy()

    def shutdown(self) -> None:
        """Stop background work and the check process (idempotent)."""
        self.ops.cancel_all()
        self.client.stop()  # a check still running stops between evidence items
        self.ops.wait_all()
