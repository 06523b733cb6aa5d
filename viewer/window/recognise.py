"""Recognise the text of every scanned page, for a quote that names no page.

A quote with a page hint that is not located on a scanned page gets the controller's
offer to recognise that page. A quote without one could be on any page, so when it is
not located and its document has scanned pages without stored OCR words, the notice bar
offers to recognise all of them: page by page in the check process, with progress and a
Cancel button (the page being read is finished, then it stops; what was read is kept
for the next check), then the check runs again and finds the quote if it is there.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QStatusBar

from matcher.vocabulary import CancelCallback, ProgressCallback

from ..checker.client import CheckClient
from ..state.session import Change, Session
from .controller import Busy, Controller, Notice
from .operations import Operation


class RecogniseAll(QObject):
    """Offers, runs and cancels "Recognise Text on All Scanned Pages"."""

    def __init__(self, session: Session, controller: Controller, status: QStatusBar, *,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.controller, self.status = session, controller, status
        self._scans: dict[str, tuple[int, ...]] = {}  # document path → pages still to read
        self._offered = False
        self._op: Operation | None = None
        session.changed.connect(self._on_session)

    @property
    def running(self) -> bool:
        return self._op is not None

    def _on_session(self, change: Change) -> None:
        if change == "report":
            self._scans.clear()  # pages may have been recognised since
        if change == "selection" and self._op is None:
            self._offer()

    def _unhinted_document(self) -> str | None:
        """The document of the selected claim's first item that names no page and was
        not located there, if that document can be read."""
        s = self.session
        claim = s.citations.claim(s.selected) if s.citations is not None else None
        result = s.claim_result(s.selected)
        if claim is None or result is None or s.citations is None:
            return None
        for ev, got in zip(claim.evidence, result.evidence, strict=False):
            doc = s.documents.get(got.document or "")
            if got.status == "not_located" and doc is not None and doc.usable \
                    and not s.citations.evidence_pages(ev):
                return doc.id
        return None

    def _offer(self) -> None:
        if self._offered:
            self.controller.notice.emit(None)
            self._offered = False
        doc_id = self._unhinted_document()
        if doc_id is None:
            return
        doc = self.session.documents[doc_id]
        known = self._scans.get(str(doc.path))
        if known is not None:
            self._show_offer(self.session.selected, doc_id, known)
            return
        path, password, count = doc.path, doc.password, len(doc.pages)
        claim = self.session.selected

        def found(pages: Sequence[int]) -> None:
            self._scans[str(path)] = tuple(pages)
            self._show_offer(claim, doc_id, tuple(pages))

        self.controller.ask(
            lambda c, _p, cancel: c.scanned_pages(path, range(count), password=password,
                                                  cancel=cancel),
            found, on_failure=lambda _exc: None, name="citeview-scan-check")

    def _show_offer(self, claim: str | None, doc_id: str, pages: tuple[int, ...]) -> None:
        s = self.session
        if not pages or claim != s.selected or self._op is not None:
            return
        name, n = s.documents[doc_id].name, len(pages)
        self._offered = True
        self.controller.notice.emit(Notice(
            f"The quote names no page, and {n} page{'s' * (n != 1)} of {name} "
            f"{'are scanned images' if n != 1 else 'is a scanned image'} with no text yet, "
            "where it cannot be looked for.", "info",
            [(f"Recognise Text on All {n} Scanned Pages" if n != 1
              else "Recognise Text on the Scanned Page", lambda: self.start(doc_id, pages))]))

    def start(self, doc_id: str, pages: Sequence[int]) -> None:
        """Recognise ``pages`` (0-based) of the document one by one, then check again."""
        doc = self.session.documents[doc_id]
        path, password, todo = doc.path, doc.password, tuple(pages)
        controller = self.controller
        self._offered = False
        controller.progress.emit(Busy(f"Recognising %v/{len(todo)} pages…", 0, len(todo)))
        controller.notice.emit(Notice(f"Recognising the text of {len(todo)} scanned pages of "
                                      f"{doc.name}…", "info", [("Cancel", self.cancel)]))

        def work(c: CheckClient, progress: ProgressCallback, cancel: CancelCallback) -> int:
            for done, page in enumerate(todo):
                if cancel():
                    return done
                progress(done, len(todo))
                c.ocr_page(path, page, password=password, cancel=cancel)
            return len(todo)

        self._op = controller.ask(
            work, self._done, on_failure=self._failed, name="citeview-ocr-all",
            on_progress=lambda done, total: controller.progress.emit(
                Busy(f"Recognising %v/{total} pages…", done, total)))

    def cancel(self) -> None:
        """Stop after the page being read (what was read is stored and kept)."""
        if self._op is not None:
            self._op.cancel()
            self._op = None
        self.controller.progress.emit(None)
        self.controller.notice.emit(None)
        self.status.showMessage(
            "Text recognition cancelled; the pages read so far are kept for the next check "
            "(F5).", 10000)
        self._scans.clear()

    def _done(self, pages: int) -> None:
        self._op = None
        self._scans.clear()
        controller = self.controller
        controller.progress.emit(None)
        controller.notice.emit(None)
        self.status.showMessage(f"Text recognised on {pages} pages; checking again…", 8000)
        controller.recheck()

    def _failed(self, exc: BaseException) -> None:
        self._op = None
        self.controller.progress.emit(None)
        self.controller.notice.emit(Notice(f"Text recognition failed: {exc}", "error"))
