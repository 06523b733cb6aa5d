"""The page view: continuous vertical scrolling through the pages, zoom, highlights.

Painting never waits for rendering: it draws the tiles the cache has, a scaled image of the
same page at another zoom where it has none (or white paper), the highlights on top, and
then tells the renderer which tiles it is missing — which replaces, and so drops, whatever
was wanted for pages that have scrolled away.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from matcher.vocabulary import Rect

from .. import qtcompat
from ..state.documents import PageInfo
from .highlight import Highlighter
from .layout import MARGIN, Layout, ZoomMode, clamp_zoom
from .page import Page
from .renderer import Renderer
from .tiles import DocRef, RenderKey, Tile, page_keys, tile_rect, wanted_keys

# Zoom steps of the zoom-in/out commands (pixels per point).
ZOOM_STEPS = (0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0,
              4.0, 5.0, 6.0, 8.0)
# Ctrl+wheel: zoom factor per wheel notch (120 eighths of a degree); trackpads send less.
WHEEL_ZOOM_PER_NOTCH = 1.15
# Pixels scrolled per arrow key press / wheel step unit.
SCROLL_STEP = 40
PAPER = QColor("#FFFFFF")
DESK = QColor("#8A8F96")


class PageView(QAbstractScrollArea):
    """Shows one document's pages stacked vertically, with the selected claim's highlights."""

    zoom_changed = Signal(float)  # pixels per point
    current_page_changed = Signal(int)  # 0-based
    settled = Signal()  # a paint found every visible tile rendered

    def __init__(self, renderer: Renderer, highlighter: Highlighter,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.highlighter = highlighter
        self.doc: DocRef | None = None
        self.pages_layout: Layout | None = None
        self.empty_text = ""
        # What the last paint put where, in viewport pixels (for tests and --geometry-json).
        self.painted_pages: dict[int, QRectF] = {}
        self.painted_highlights: list[tuple[int, QRectF]] = []
        self._current = -1
        self._mode = ZoomMode.FIT_WIDTH  # kept here too, so a zoom chosen before a
        self._zoom = 1.0  # document is open applies to the next one
        self._reveal: tuple[int, tuple[Rect, ...]] | None = None
        self._settle = QTimer(self, singleShot=True, interval=0)
        self._settle.timeout.connect(self._emit_if_settled)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFrameShape(QAbstractScrollArea.Shape.NoFrame)
        self.setMinimumSize(QSize(200, 150))
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        # The person scrolled (scroll bar, wheel, keys): stop re-centring a highlight.
        self.verticalScrollBar().actionTriggered.connect(self._forget_reveal)
        self.horizontalScrollBar().actionTriggered.connect(self._forget_reveal)
        self.horizontalScrollBar().valueChanged.connect(lambda _v: self.viewport().update())
        renderer.rendered.connect(self._on_rendered)
        renderer.failed.connect(lambda key, _msg: self._on_rendered(key))
        pal = self.viewport().palette()
        pal.setColor(QPalette.ColorRole.Window, DESK)
        self.viewport().setPalette(pal)

    # -- document -----------------------------------------------------------------------
    def set_document(self, doc: DocRef | None, pages: Sequence[PageInfo]) -> None:
        """Show these pages (or nothing); keeps the zoom mode, starts at the top."""
        self.renderer.forget_document()
        self.doc = doc
        self.pages_layout = Layout(pages) if doc is not None and pages else None
        if self.pages_layout is not None:
            self.pages_layout.mode, self.pages_layout.zoom = self._mode, self._zoom
        self._current = -1
        self._reveal = None
        self._relayout()
        self.verticalScrollBar().setValue(0)
        self._on_scrolled()
        self.viewport().update()

    def page_count(self) -> int:
        return len(self.pages_layout) if self.pages_layout is not None else 0

    def page(self, index: int) -> Page:
        assert self.pages_layout is not None
        return self.pages_layout.pages[index]

    def set_highlights(self, rects: dict[int, list[Rect]]) -> None:
        self.highlighter.set_rects(rects)
        self.viewport().update()

    def set_highlight_color(self, color: QColor) -> None:
        self.highlighter.color = QColor(color)
        self.viewport().update()

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
        # Showing or hiding the horizontal scroll bar resizes the viewport, which changes
        # the fit zoom: repeat until the size is stable (twice at most in practice).
        for _ in range(3):
            size = self.viewport().size()
            lay.update(size.width(), size.height())
            hbar, vbar = self.horizontalScrollBar(), self.verticalScrollBar()
            hbar.setRange(0, max(0, lay.width - size.width()))
            hbar.setPageStep(size.width())
            hbar.setSingleStep(SCROLL_STEP)
            vbar.setRange(0, max(0, lay.height - size.height()))
            vbar.setPageStep(size.height())
            vbar.setSingleStep(SCROLL_STEP)
            if self.viewport().size() == size:
                break
        if anchor is not None:
            index, point = anchor
            target = lay.pages[index].transform().map(point) - (after or before or QPointF())
            self.horizontalScrollBar().setValue(round(target.x()))
            self.verticalScrollBar().setValue(round(target.y()))
        self._mode, self._zoom = lay.mode, lay.zoom
        self.zoom_changed.emit(lay.zoom)
        self.viewport().update()

    def _anchor(self, viewport_point: QPointF) -> tuple[int, QPointF] | None:
        lay = self.pages_layout
        if lay is None:
            return None
        layout_point = viewport_point - self.scroll_offset()
        page = lay.page_at(layout_point.y())
        if page is None:
            return None
        return page.index, page.point_to_words(layout_point)

    def resizeEvent(self, event: QResizeEvent) -> None:
        old = event.oldSize()
        if old.isValid() and old.width() > 0:
            before = QPointF(old.width() / 2, 0)
            self._relayout(before, QPointF(event.size().width() / 2, 0))
        else:
            self._relayout()
        if self._reveal is not None:
            # Asked to show a highlight before the final size was known: show it again.
            self.reveal(*self._reveal)

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
        self._reveal = None
        at = anchor if anchor is not None else self._centre()
        before = self._anchor(at)
        self.pages_layout.set_zoom(zoom)
        self._relayout_keeping(before, at)

    def set_zoom_mode(self, mode: ZoomMode) -> None:
        self._mode = mode
        if self.pages_layout is None:
            return
        self._reveal = None
        at = self._centre()
        before = self._anchor(at)
        self.pages_layout.mode = mode
        self._relayout_keeping(before, at)

    def _relayout_keeping(self, anchor: tuple[int, QPointF] | None, at: QPointF) -> None:
        self._relayout()
        if anchor is not None and self.pages_layout is not None:
            index, point = anchor
            target = self.pages_layout.pages[index].transform().map(point) - at
            self.horizontalScrollBar().setValue(round(target.x()))
            self.verticalScrollBar().setValue(round(target.y()))

    def zoom_in(self) -> None:
        z = self.zoom
        self.set_zoom(next((s for s in ZOOM_STEPS if s > z + 1e-3), ZOOM_STEPS[-1]))

    def zoom_out(self) -> None:
        z = self.zoom
        self.set_zoom(next((s for s in reversed(ZOOM_STEPS) if s < z - 1e-3), ZOOM_STEPS[0]))

    def _forget_reveal(self, _action: int = 0) -> None:
        self._reveal = None

    def _centre(self) -> QPointF:
        return QPointF(self.viewport().width() / 2, self.viewport().height() / 2)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self._reveal = None
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            notches = event.angleDelta().y() / 120
            if notches:
                self.set_zoom(clamp_zoom(self.zoom * WHEEL_ZOOM_PER_NOTCH ** notches),
                              anchor=event.position())
            event.accept()
            return
        super().wheelEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._reveal = None
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
        """Scroll so page ``index`` (0-based) starts at the top of the viewport."""
        if self.pages_layout is None or not 0 <= index < len(self.pages_layout):
            return
        self._reveal = None
        self.verticalScrollBar().setValue(self.pages_layout.pages[index].y - MARGIN)

    def reveal(self, index: int, rects: Sequence[Rect]) -> None:
        """Scroll so the band covering ``rects`` on page ``index`` is centred in view."""
        lay = self.pages_layout
        if lay is None or not 0 <= index < len(lay):
            return
        self._reveal = (index, tuple(rects))
        page = lay.pages[index]
        band = QRectF()
        for r in rects:
            band = band.united(page.map_rect(r))
        if band.isEmpty():
            self.go_to_page(index)
            return
        vp = self.viewport().size()
        if band.height() > vp.height() - 2 * MARGIN:
            top = band.top() - MARGIN  # taller than the view: show its start
        else:
            top = band.center().y() - vp.height() / 2
        self.verticalScrollBar().setValue(round(top))
        hbar = self.horizontalScrollBar()
        visible = self.visible_layout_rect()
        if band.left() < visible.left() or band.right() > visible.right():
            if band.width() > vp.width() - 2 * MARGIN:
                hbar.setValue(round(band.left() - MARGIN))
            else:
                hbar.setValue(round(band.center().x() - vp.width() / 2))

    # -- painting -----------------------------------------------------------------------
    def visible_keys(self) -> list[RenderKey]:
        """Tiles the viewport shows now, at the current zoom."""
        if self.pages_layout is None or self.doc is None:
            return []
        dpr = self.viewport().devicePixelRatioF()
        offset = self.scroll_offset()
        view = QRectF(self.viewport().rect())
        out = []
        for page in self.pages_layout.pages_in(self.visible_layout_rect()):
            origin = page.rect().topLeft() + offset
            out += [k for k in page_keys(self.doc, page, dpr)
                    if tile_rect(origin, k.tile, dpr).intersects(view)]
        return out

    def is_settled(self) -> bool:
        """Every tile in view is rendered (or failed for good)."""
        cache, errors = self.renderer.cache, self.renderer.errors
        return all(k in cache or k in errors for k in self.visible_keys())

    def paintEvent(self, event: QPaintEvent) -> None:
        qtcompat.top_up()  # painting is where most Qt calls are made (see qtcompat)
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), DESK)
        self.painted_pages = {}
        self.painted_highlights = []
        lay, doc = self.pages_layout, self.doc
        if lay is None or doc is None:
            if self.empty_text:
                painter.setPen(QColor("#FFFFFF"))
                painter.drawText(self.viewport().rect().adjusted(24, 24, -24, -24),
                                 Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                                 self.empty_text)
            painter.end()
            return
        dpr = self.viewport().devicePixelRatioF()
        offset = self.scroll_offset()
        view = QRectF(self.viewport().rect())
        visible = lay.pages_in(self.visible_layout_rect())
        missing: list[tuple[Page, list[RenderKey]]] = []
        for page in visible:
            transform = page.transform(offset)
            # The painted rect is the page box mapped by the page's own transform: the page
            # image and the highlights below are placed by one and the same mapping.
            target = transform.mapRect(page.words_box())
            self.painted_pages[page.index] = target
            painter.fillRect(target, PAPER)
            keys = [k for k in page_keys(doc, page, dpr)
                    if tile_rect(target.topLeft(), k.tile, dpr).intersects(view)]
            absent = [k for k in keys if k not in self.renderer.cache]
            if absent:
                paint_interim(painter, self.renderer.cache.others(doc, page.index, keys[0].scale),
                              page, target)
            for key in keys:
                tile = self.renderer.cache.get(key)
                if tile is not None:
                    # Where MuPDF says the pixmap starts, which may differ from the request.
                    at = (tile.x, tile.y, tile.image.width(), tile.image.height())
                    painter.drawImage(tile_rect(target.topLeft(), at, dpr), tile.image)
                elif key in self.renderer.errors:
                    paint_error(painter, target)
            self.painted_highlights += [(page.index, r) for r in
                                        self.highlighter.paint(painter, page.index, transform,
                                                               target)]
            absent = [k for k in absent if k not in self.renderer.errors]
            if absent:
                missing.append((page, absent))
        painter.end()
        # What is missing in view, nearest the centre first, then the neighbouring pages.
        self.renderer.want(wanted_keys(doc, lay.pages, visible, missing, dpr,
                                       self.visible_layout_rect().center().y()))
        if not missing:
            self._settle.start()

    def _on_rendered(self, key: RenderKey) -> None:
        if key.doc != self.doc or self.pages_layout is None:
            return
        if not 0 <= key.page < len(self.pages_layout):
            return
        rect = self.pages_layout.pages[key.page].rect().translated(self.scroll_offset())
        if rect.intersects(QRectF(self.viewport().rect())):
            self.viewport().update(rect.toAlignedRect())

    def _emit_if_settled(self) -> None:
        if self.is_settled():
            self.settled.emit()


def paint_interim(painter: QPainter, tiles: Sequence[Tile], page: Page, target: QRectF) -> None:
    """Draw this page's tiles from another zoom, scaled, while the right ones render."""
    if not tiles:
        return
    painter.save()
    painter.setClipRect(target)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    for tile in tiles:
        # Device pixels at that tile's scale → points → logical pixels at this zoom.
        k = page.zoom / tile.key.scale
        painter.drawImage(QRectF(target.x() + tile.x * k, target.y() + tile.y * k,
                                 tile.image.width() * k, tile.image.height() * k),
                          tile.image)
    painter.restore()


def paint_error(painter: QPainter, target: QRectF) -> None:
    """Say on the page that it could not be rendered."""
    painter.save()
    painter.setPen(QColor("#9E9E9E"))
    painter.drawText(target, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                     "This page could not be displayed.")
    painter.restore()
