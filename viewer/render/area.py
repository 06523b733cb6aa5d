"""The scrolled column of pages: layout, zoom, the view's turn, scrolling to a band.

:class:`PagesArea` knows where every page sits and which part of the document the
viewport shows; it paints nothing. :class:`viewer.render.view.PageView` builds on it and
paints the pages, highlights and marks. Zoom keeps the point under the cursor (or the
viewport's centre) where it is, and the band last revealed (a highlight, a find hit) in
view; revealing a band centres it, zoomed out first when it is bigger than the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from matcher.vocabulary import Rect

from ..state.documents import PageInfo
from . import framing
from .layout import MARGIN, Layout, ZoomMode, clamp_zoom
from .page import Page

# Zoom steps of the zoom-in/out commands (pixels per point).
ZOOM_STEPS = (0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0,
              4.0, 5.0, 6.0, 8.0)
# Ctrl+wheel: zoom factor per wheel notch (120 eighths of a degree); trackpads send less.
WHEEL_ZOOM_PER_NOTCH = 1.15
# Pixels scrolled per arrow key press / wheel step unit.
SCROLL_STEP = 40
# Where a band of rectangles is: a 0-based page and its rectangles in words space.
Band = tuple[int, tuple[Rect, ...]]


def own_viewport(area: QAbstractScrollArea) -> QWidget:
    """Give ``area`` a viewport made here, and return it. The one Qt makes for itself
    reaches Python as a bare ``QWidget`` pointer, and to learn which class such a pointer
    is PySide6 loads every ``QWidget`` subclass of QtWidgets it has not loaded yet, with
    their enums (the dialogs', the MDI area's, the graphics view's…): 8-13 ms of a
    start-up, spent on classes the window does not show. A widget made in Python is known
    by the wrapper it already has. It is set up as Qt sets up its own (name, background
    role, filled background), so it looks and behaves the same."""
    viewport = QWidget()
    viewport.setObjectName("qt_scrollarea_viewport")
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setAutoFillBackground(True)
    area.setViewport(viewport)
    return viewport


class PagesArea(QAbstractScrollArea):
    """One document's pages stacked vertically: where each sits, zoom, turn, scrolling."""

    zoom_changed = Signal(float)  # pixels per point
    current_page_changed = Signal(int)  # 0-based
    # A reader's jump is about to be made (Go to page, a thumbnail, an outline entry, a
    # link): emitted by whoever makes it; Back returns to where the view was.
    jumping = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pages_layout: Layout | None = None
        self._current = -1
        self._mode = ZoomMode.FIT_WIDTH  # kept here too, so a zoom chosen before a
        self._zoom = 1.0  # document is open applies to the next one
        self._reveal: tuple[Band, bool] | None = None  # again when the size settles
        self._band: Band | None = None  # the last band revealed: kept in view on zoom
        self._turn = 0  # the reader's view rotation (degrees clockwise)
        self._facing = False  # two pages a row
        self._centred: tuple[int, QPointF] | None = None  # a turn's centre: kept on resizes
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFrameShape(QAbstractScrollArea.Shape.NoFrame)
        self.setMinimumSize(QSize(200, 150))
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        # The person scrolled (scroll bar, wheel, keys): stop re-centring a highlight.
        self.verticalScrollBar().actionTriggered.connect(self._forget_reveal)
        self.horizontalScrollBar().actionTriggered.connect(self._forget_reveal)
        self.horizontalScrollBar().valueChanged.connect(lambda _v: self.viewport().update())

    def _set_pages(self, pages: Sequence[PageInfo] | None) -> None:
        """Lay out these pages (None: nothing) at the current zoom mode, from the top."""
        self.pages_layout = Layout(pages, turn=self._turn, facing=self._facing) if pages \
            else None
        if self.pages_layout is not None:
            self.pages_layout.mode, self.pages_layout.zoom = self._mode, self._zoom
        self._current = -1
        self._reveal = self._band = self._centred = None
        self._relayout()
        self.verticalScrollBar().setValue(0)
        self._on_scrolled()

    def page_count(self) -> int:
        return len(self.pages_layout) if self.pages_layout is not None else 0

    def page(self, index: int) -> Page:
        assert self.pages_layout is not None
        return self.pages_layout.pages[index]

    @property
    def turn(self) -> int:
        """The view's rotation, degrees clockwise (0, 90, 180 or 270)."""
        return self._turn

    @property
    def facing(self) -> bool:
        return self._facing

    def set_facing(self, facing: bool) -> None:
        """Two pages a row (or one), keeping the point at the centre where it is."""
        if facing == self._facing:
            return
        self._facing = facing
        lay = self.pages_layout
        if lay is None:
            return
        before = self._anchor(self._centre())
        self.pages_layout = Layout([p.info for p in lay.pages], turn=self._turn,
                                   facing=facing)
        self.pages_layout.mode, self.pages_layout.zoom = lay.mode, lay.zoom
        self.renderer.want([])  # what was wanted is for pages laid out otherwise
        self._relayout()
        if before is not None:
            self._keep_centre(before)
        self.viewport().update()

    def set_turn(self, turn: int) -> None:
        """Turn the view to ``turn`` degrees clockwise, keeping the point of the page at
        the viewport's centre there (the page the reader looks at, not the page of a band
        revealed earlier), and the band last revealed in view if it was in view."""
        turn %= 360
        if turn == self._turn:
            return
        self._turn = turn
        lay = self.pages_layout
        if lay is None:
            return
        at = self._centre()
        before = self._anchor(at)
        page, keep = self._current, self._band_in_view()
        self._reveal = None
        self.pages_layout = Layout([p.info for p in lay.pages], turn=turn,
                                   facing=self._facing)
        self.pages_layout.mode, self.pages_layout.zoom = lay.mode, lay.zoom
        self.renderer.want([])  # what was wanted is for pages laid out otherwise
        self._relayout()
        if before is not None:
            self._keep_centre(before)
        elif page >= 0:  # the centre was between two pages
            self.verticalScrollBar().setValue(self.pages_layout.top_of(page))
        self._show_band(keep)
        # The window may settle its layout after the turn (a scroll bar coming or going,
        # the toolbar's labels): the viewport's resizes keep this point at the centre
        # until the reader scrolls, zooms or goes elsewhere.
        self._centred = before

    def centre_anchor(self) -> tuple[int, QPointF] | None:
        """The page at the viewport's centre and its words-space point there."""
        return self._anchor(self._centre())

    def centre_on(self, index: int, point: QPointF) -> None:
        """Scroll so ``point`` (words space) of page ``index`` is at the centre (Back)."""
        self._reveal = self._centred = None
        self._keep_centre((index, point))

    def _keep_centre(self, anchor: tuple[int, QPointF]) -> None:
        """Scroll so the words point ``anchor`` (a page and a point) is at the centre."""
        lay = self.pages_layout
        index, point = anchor
        if lay is not None and 0 <= index < len(lay):
            target = lay.pages[index].transform().map(point) - self._centre()
            self._scroll_to(target.y(), target.x())

    # -- geometry -----------------------------------------------------------------------
    def scroll_offset(self) -> QPointF:
        """Layout → viewport pixels is a shift by this."""
        return QPointF(-self.horizontalScrollBar().value(), -self.verticalScrollBar().value())

    def visible_layout_rect(self) -> QRectF:
        vp = self.viewport()
        return QRectF(self.horizontalScrollBar().value(), self.verticalScrollBar().value(),
                      vp.width(), vp.height())

    def _relayout(self, before: QPointF | None = None, after: QPointF | None = None) -> None:
        """Lay the pages out for the viewport, keeping the document point that was under
        viewport point ``before`` under ``after`` (zooming around the cursor, resizing)."""
        lay = self.pages_layout
        if lay is None:
            self.horizontalScrollBar().setRange(0, 0)
            self.verticalScrollBar().setRange(0, 0)
            return
        anchor = self._anchor(before) if before is not None else None
        lay_out_in(self, lay)
        if anchor is not None:
            index, point = anchor
            target = lay.pages[index].transform().map(point) - (after or before or QPointF())
            self._scroll_to(target.y(), target.x())
        self._mode, self._zoom = lay.mode, lay.zoom
        self.zoom_changed.emit(lay.zoom)
        self.viewport().update()

    def _anchor(self, viewport_point: QPointF) -> tuple[int, QPointF] | None:
        lay = self.pages_layout
        if lay is None:
            return None
        layout_point = viewport_point - self.scroll_offset()
        page = lay.page_at(layout_point.y(), layout_point.x())
        if page is None:
            return None
        return page.index, page.point_to_words(layout_point)

    def resizeEvent(self, event: QResizeEvent) -> None:
        old = event.oldSize()
        if self._centred is not None:
            self._relayout()
            self._keep_centre(self._centred)
        elif old.isValid() and old.width() > 0:
            before = QPointF(old.width() / 2, 0)
            self._relayout(before, QPointF(event.size().width() / 2, 0))
        else:
            self._relayout()
        if self._reveal is not None:
            # Asked to show a highlight before the final size was known: show it again.
            (index, rects), fit = self._reveal
            self.reveal(index, rects, fit=fit)

    # -- zoom ---------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.pages_layout.zoom if self.pages_layout is not None else self._zoom

    @property
    def zoom_mode(self) -> ZoomMode:
        return self.pages_layout.mode if self.pages_layout is not None else self._mode

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom`` pixels per point keeping the point under ``anchor`` (viewport
        pixels; default the centre) where it is."""
        self._mode, self._zoom = ZoomMode.FIXED, clamp_zoom(zoom)
        if self.pages_layout is None:
            self.zoom_changed.emit(self._zoom)
            return
        self._reveal = self._centred = None
        at = anchor if anchor is not None else self._centre()
        before = self._anchor(at)
        keep = self._band_in_view()
        self.pages_layout.set_zoom(zoom)
        self._relayout_keeping(before, at)
        self._show_band(keep)

    def set_zoom_mode(self, mode: ZoomMode) -> None:
        self._mode = mode
        if self.pages_layout is None:
            return
        self._reveal = self._centred = None
        at = self._centre()
        before = self._anchor(at)
        keep = self._band_in_view()
        self.pages_layout.mode = mode
        self._relayout_keeping(before, at)
        self._show_band(keep)

    def _relayout_keeping(self, anchor: tuple[int, QPointF] | None, at: QPointF) -> None:
        self._relayout()
        if anchor is not None and self.pages_layout is not None:
            index, point = anchor
            target = self.pages_layout.pages[index].transform().map(point) - at
            self._scroll_to(target.y(), target.x())

    def _scroll_to(self, top: float | None, left: float | None) -> None:
        """Scroll to these layout coordinates (None: leave that scroll bar as it is)."""
        if left is not None:
            self.horizontalScrollBar().setValue(round(left))
        if top is not None:
            self.verticalScrollBar().setValue(round(top))

    def zoom_in(self) -> None:
        z = self.zoom
        self.set_zoom(next((s for s in ZOOM_STEPS if s > z + 1e-3), ZOOM_STEPS[-1]))

    def zoom_out(self) -> None:
        z = self.zoom
        self.set_zoom(next((s for s in reversed(ZOOM_STEPS) if s < z - 1e-3), ZOOM_STEPS[0]))

    def _forget_reveal(self, _action: int = 0) -> None:
        self._reveal = self._centred = None

    def _band_in_view(self) -> Band | None:
        """The band last revealed, if any of it is in view now (it is kept there)."""
        rect = framing.band_on(self.pages_layout, self._band)
        return self._band if rect.intersects(self.visible_layout_rect()) else None

    def _show_band(self, band: Band | None) -> None:
        """Scroll as little as brings ``band`` back into view (after a zoom)."""
        rect = framing.band_on(self.pages_layout, band)
        if not rect.isEmpty():
            self._scroll_to(*framing.showing_scroll(rect, self.visible_layout_rect()))

    def _centre(self) -> QPointF:
        return QPointF(self.viewport().width() / 2, self.viewport().height() / 2)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self._reveal = self._centred = None
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            notches = event.angleDelta().y() / 120
            if notches:
                self.set_zoom(clamp_zoom(self.zoom * WHEEL_ZOOM_PER_NOTCH ** notches),
                              anchor=event.position())
            event.accept()
            return
        super().wheelEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._reveal = self._centred = None
        vbar = self.verticalScrollBar()
        if event.key() == Qt.Key.Key_Home:
            vbar.setValue(vbar.minimum())
        elif event.key() == Qt.Key.Key_End:
            vbar.setValue(vbar.maximum())
        elif event.key() == Qt.Key.Key_Space:
            vbar.setValue(vbar.value() + (-1 if event.modifiers()
                                          & Qt.KeyboardModifier.ShiftModifier else 1)
                          * vbar.pageStep())
        else:
            super().keyPressEvent(event)

    # -- navigation ---------------------------------------------------------------------
    @property
    def current_page(self) -> int:
        """0-based index of the page at the middle of the viewport (-1 with no document)."""
        return self._current

    def _on_scrolled(self, _value: int = 0) -> None:
        lay = self.pages_layout
        current = -1
        if lay is not None:
            r = self.visible_layout_rect()
            page = lay.page_at(r.center().y())
            current = page.index if page is not None else -1
        if current != self._current:
            self._current = current
            self.current_page_changed.emit(current)
        self.viewport().update()

    def go_to_page(self, index: int) -> None:
        """Scroll so page ``index`` (0-based) starts at the top of the viewport, below the
        margin (the first page) or the gap above it: nothing of the page before is in
        view, so nothing of it is painted or rendered."""
        if self.pages_layout is None or not 0 <= index < len(self.pages_layout):
            return
        self._reveal = self._centred = None
        self.verticalScrollBar().setValue(self.pages_layout.top_of(index))

    def show_rect(self, index: int, rect: Rect) -> None:
        """Scroll as little as brings ``rect`` (words space) of page ``index`` into view."""
        lay = self.pages_layout
        if lay is None or not 0 <= index < len(lay):
            return
        band = framing.band_rect(lay.pages[index], [rect])
        self._scroll_to(*framing.showing_scroll(band, self.visible_layout_rect()))

    def go_to_point(self, index: int, point: tuple[float, float]) -> None:
        """Scroll so the words-space ``point`` of page ``index`` (0-based) is at the top
        of the viewport, a margin below its edge (a bookmark's heading), and in view
        across."""
        lay = self.pages_layout
        if lay is None or not 0 <= index < len(lay):
            return
        self._reveal = self._centred = None
        at = lay.pages[index].transform().map(QPointF(*point))
        visible = self.visible_layout_rect()
        left = None if visible.left() <= at.x() <= visible.right() \
            else at.x() - visible.width() / 2
        self._scroll_to(at.y() - MARGIN, left)

    def reveal(self, index: int, rects: Sequence[Rect], *, fit: bool = True) -> None:
        """Scroll so the band covering ``rects`` on page ``index`` is centred in view;
        with ``fit``, zoom out first when the band is taller or wider than the view."""
        lay = self.pages_layout
        if lay is None or not 0 <= index < len(lay):
            return
        self._band = (index, tuple(rects))
        self._reveal, self._centred = (self._band, fit), None
        band = framing.band_rect(lay.pages[index], rects)
        if band.isEmpty():  # (a claim's page is shown: not a jump Back returns from)
            self.verticalScrollBar().setValue(lay.top_of(index))
            return
        smaller = framing.fitting_zoom(band, lay.zoom, QSizeF(self.viewport().size())) \
            if fit else None
        if smaller is not None:
            lay.set_zoom(clamp_zoom(smaller, down=True))
            self._relayout()
            band = framing.band_rect(lay.pages[index], rects)
        self._scroll_to(*framing.centring_scroll(band, QSizeF(self.viewport().size()),
                                                 self.visible_layout_rect()))

    @property
    def revealed(self) -> Band | None:
        """The band last revealed (a highlight or a find hit), while its document shows."""
        return self._band


def lay_out_in(area: QAbstractScrollArea, lay: Layout) -> None:
    """Lay ``lay`` out for ``area``'s viewport and set the scroll bars' ranges and steps.

    Showing or hiding the horizontal scroll bar resizes the viewport, which changes the
    fit zoom: this repeats until the size is stable (twice at most in practice).
    """
    for _ in range(3):
        size = area.viewport().size()
        lay.update(size.width(), size.height())
        hbar, vbar = area.horizontalScrollBar(), area.verticalScrollBar()
        hbar.setRange(0, max(0, lay.width - size.width()))
        hbar.setPageStep(size.width())
        hbar.setSingleStep(SCROLL_STEP)
        vbar.setRange(0, max(0, lay.height - size.height()))
        vbar.setPageStep(size.height())
        vbar.setSingleStep(SCROLL_STEP)
        if area.viewport().size() == size:
            break
