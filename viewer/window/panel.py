"""The side panel beside the pages, kept in step with the window.

:class:`PanelController` puts the :class:`~viewer.widgets.side_panel.SidePanel` left of
the page view (in a splitter of their own), shows the document the view shows (its
thumbnails, turned as the view is; its outline, read by the check process), marks the
pages that hold evidence and those of the selected claim, follows the current page, and
goes where the reader clicks. F4 shows or hides it; the choice is remembered.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QSplitter

from ..checker.protocol import OutlineEntry
from ..render.renderer import Renderer
from ..render.view import PageView
from ..state.session import Change, Session
from ..widgets.side_panel import RESULTS, SidePanel
from .controller import Controller
from .find import FindController
from .review import ReviewController
from .settings import Preferences

# Width of the side panel when shown (logical pixels), but at most this share of the
# pages' side: in a small window the pages keep the room (the thumbnails fit down to the
# panel's minimum width).
PANEL_WIDTH, PANEL_SHARE = 200, 0.3


class PanelController(QObject):
    """Places the side panel and keeps it showing what the view shows."""

    def __init__(self, session: Session, view: PageView, renderer: Renderer,
                 controller: Controller, review: ReviewController, find: FindController,
                 prefs: Preferences, *, interactive: bool,
                 shown_doc: Callable[[], str | None], parent: QObject | None = None) -> None:
        """``shown_doc`` says which document of the citations file the view shows;
        ``interactive=False`` shows no panel and remembers nothing."""
        super().__init__(parent)
        self.session, self.view, self.controller = session, view, controller
        self.review, self.prefs, self.interactive = review, prefs, interactive
        self._shown_doc = shown_doc
        self.find = find
        self.panel = SidePanel(renderer, find.results, view.highlighter.color)
        column = view.parentWidget().layout()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        column.replaceWidget(view, self.splitter)
        column.insertWidget(column.indexOf(self.splitter), find.bar)
        self.splitter.addWidget(self.panel)
        self.splitter.addWidget(view)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([PANEL_WIDTH, max(1, view.width() - PANEL_WIDTH)])
        self.panel.installEventFilter(self)  # shown: not wider than its share
        self.panel.setVisible(interactive and prefs.side_panel())
        self._outline_of: str | None = None
        self.panel.page_chosen.connect(self._go_to)
        self.panel.place_chosen.connect(self._go_to_point)
        self.panel.hit_chosen.connect(find.choose)
        view.document_changed.connect(self.show_document)
        view.current_page_changed.connect(self.panel.thumbnails.set_current)
        session.changed.connect(self._on_session)
        review.changed.connect(self._mark)  # a decision moves a mark
        find.results.connect(self._on_results)

    # -- showing --------------------------------------------------------------------------
    def is_shown(self) -> bool:
        return not self.panel.isHidden()

    def set_shown(self, shown: bool) -> None:
        self.panel.setVisible(shown)
        if self.interactive:
            self.prefs.set_side_panel(shown)

    def toggle(self) -> None:
        self.set_shown(not self.is_shown())

    def show_tab(self, tab: int) -> None:
        self.set_shown(True)
        self.panel.setCurrentIndex(tab)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.panel and event.type() == QEvent.Type.Show:
            QTimer.singleShot(0, self._fit_width)  # once the window has laid it out
        return False

    def _fit_width(self) -> None:
        total = self.splitter.width()
        want = max(self.panel.minimumWidth(), min(PANEL_WIDTH, int(total * PANEL_SHARE)))
        sizes = self.splitter.sizes()
        if len(sizes) == 2 and sizes[0] > want and total > 0:
            self.splitter.setSizes([want, sum(sizes) - want])

    # -- keeping in step ------------------------------------------------------------------
    def show_document(self) -> None:
        """The view shows another document (or another turn of it): show its pages."""
        view = self.view
        pages = [p.info for p in view.pages_layout.pages] if view.pages_layout else []
        self.panel.thumbnails.set_document(view.doc, pages, view.turn)
        self._mark()
        path = view.doc.path if view.doc is not None else None
        if path != self._outline_of:
            self._outline_of = path
            self.panel.outline.set_entries(())
            self.panel.set_outline_available(False)
            if view.doc is not None:
                self._read_outline(view.doc.path, view.doc.password)

    def _read_outline(self, path: str, password: str | None) -> None:
        def got(entries: tuple[OutlineEntry, ...]) -> None:
            if self._outline_of == path:
                self.panel.outline.set_entries(entries)
                self.panel.set_outline_available(bool(entries))

        self.controller.ask(
            lambda c, _p, cancel: c.outline(path, password=password, cancel=cancel), got,
            on_failure=lambda _exc: None, name="citeview-outline")

    def _on_session(self, change: Change) -> None:
        if change in ("report", "selection", "documents"):
            self._mark()

    def _mark(self) -> None:
        # What the review draws (decisions applied), as the view and printing draw it.
        review, doc = self.review.review, self._shown_doc()
        selected = review.marks(doc, self.session.selected)
        self.panel.thumbnails.set_marks(review.marks(doc), selected)

    def _on_results(self) -> None:
        results = self.find.results
        if results.state == "running" and not results.hits and results.searched == 0:
            self.show_tab(RESULTS)  # a search starts: its hits will be listed here

    def _go_to(self, page: int) -> None:
        self.view.jumping.emit()  # Back returns here
        self.view.go_to_page(page)

    def _go_to_point(self, page: int, point: tuple[float, float]) -> None:
        self.view.jumping.emit()  # Back returns here
        self.view.go_to_point(page, point)
