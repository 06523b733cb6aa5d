"""Find in the document shown: the find bar, the search in the check process, the marks.

:class:`FindController` starts a search when the bar asks (the check process folds the
pages as the matcher folds quotes and streams the hits back), collects them in a
:class:`~viewer.state.find.FindResults`, outlines them on the pages (:class:`~viewer.
render.marks.FindMarks`, never in the highlight colour) and centres the current one. A new
search, Stop, another document or closing the window stops the one under way; hits of a
stopped search that were still in transit are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QStatusBar

from ..palette import distinct
from ..render.marks import FindMarks
from ..render.view import PageView
from ..state.find import FindHit, FindResults
from ..widgets.find_bar import FindBar
from .controller import Controller
from .operations import Operation


class _Relay(QObject):
    """Carries hit batches from the check client's reader thread to the GUI thread."""

    hits = Signal(int, object)  # the search's number, tuple[FindHit, ...]


class FindController(QObject):
    """The window's find: bar, search, results, marks."""

    def __init__(self, view: PageView, controller: Controller, status: QStatusBar,
                 color: QColor, *, parent: QObject | None = None) -> None:
        """Find in what ``view`` shows, searching through ``controller``'s check process;
        ``status`` says when nothing more is found."""
        super().__init__(parent)
        self.view, self.controller, self.status = view, controller, status
        self.results = FindResults()
        self.color = QColor(color)  # as chosen; marks use it moved away from the highlight
        self.marks = FindMarks(distinct(color, view.highlighter.color))
        self.bar = FindBar(self.results)
        self._relay = _Relay(self)
        self._relay.hits.connect(self._on_hits)
        self._op: Operation | None = None
        self._search = 0  # numbers the searches, so a stopped one's hits are dropped
        self._shown: FindHit | None = None  # the hit last centred
        view.overlays.append(self.marks)
        self.results.connect(self._on_results)
        self.bar.search.connect(self.search)
        self.bar.step.connect(self.step)
        self.bar.stop.connect(self.stop)
        self.bar.closed.connect(self._closed)
        view.document_changed.connect(self._document_changed)

    # -- commands -------------------------------------------------------------------------
    def open(self) -> None:
        """Ctrl+F: show the bar, its text selected."""
        self.bar.open_bar()

    def step(self, delta: int) -> None:
        """F3 / Shift+F3: the next or previous hit (searching first if need be)."""
        if self.results.state == "idle" or self.results.query != self.bar.text():
            if not self.bar.isVisible():
                self.bar.open_bar()
            if self.bar.text().strip():
                self.search(self.bar.text())
            return
        hit = self.results.step(delta)
        if hit is None and self.results.state == "done":
            self.status.showMessage(
                f"No matches for “{self.results.query}” in this document.", 5000)

    def search(self, text: str) -> None:
        """Search the document shown for ``text`` from the current page on."""
        self._cancel()
        view = self.view
        doc = view.doc
        if doc is None or not text.strip():
            self.results.clear()
            return
        self._search += 1
        number, relay = self._search, self._relay
        start = max(view.current_page, 0)
        self.results.start(text, document=doc.path, pages=view.page_count(), start_page=start)
        path, password = doc.path, doc.password
        self._op = self.controller.ask(
            lambda c, progress, cancel: c.find(
                path, text, start=start, password=password, progress=progress, cancel=cancel,
                found=lambda hits: relay.hits.emit(number, hits)),
            lambda _pages: self._finished(number),
            on_progress=self.results.progress,
            on_failure=lambda exc: self._failed(number, exc), name="citeview-find")

    def stop(self) -> None:
        """Stop the search under way; what it found so far stays."""
        self._cancel()
        self.results.stop()

    def choose(self, index: int) -> None:
        """A row of the hit list was picked: make that hit current."""
        self.results.choose(index)

    def set_color(self, color: QColor) -> None:
        """Mark hits in ``color``, or a shade of it far enough from the highlight colour
        (also called when the highlight colour changes)."""
        self.color = QColor(color)
        self.marks.color = distinct(color, self.view.highlighter.color)
        self.view.viewport().update()

    # -- what comes back --------------------------------------------------------------------
    def _cancel(self) -> None:
        if self._op is not None:
            self._op.cancel()
            self._op = None
        self._search += 1

    def _on_hits(self, number: int, hits: Sequence[FindHit]) -> None:
        if number == self._search:
            self.results.add(hits)

    def _finished(self, number: int) -> None:
        if number == self._search:
            self._op = None
            self.results.finish()

    def _failed(self, number: int, exc: BaseException) -> None:
        if number == self._search:
            self._op = None
            self.results.fail(str(exc))

    def _on_results(self) -> None:
        hit = self.results.current_hit()
        self.marks.set_hits(self.results.by_page(),
                            None if hit is None else (hit.page, hit.rects))
        view = self.view
        if hit is not None and hit is not self._shown:
            self._shown = hit
            view.reveal(hit.page, hit.rects, fit=False)
        elif hit is None:
            self._shown = None
        view.viewport().update()

    def _closed(self) -> None:
        self.stop()
        self.results.clear()
        self.view.setFocus()

    def _document_changed(self) -> None:
        """Hits belong to the document they were found in: search the new one afresh
        while the bar is open, else forget them."""
        if self.bar.isVisible() and self.bar.text().strip() and self.view.doc:
            self.search(self.bar.text())
        elif self.results.state != "idle":
            self._cancel()
            self.results.clear()
