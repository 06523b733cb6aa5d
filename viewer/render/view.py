"""The page view: continuous vertical scrolling through the pages, zoom, highlights.

Painting never waits for rendering: it draws the tiles the cache has, a scaled image of the
same page at another zoom where it has none (from this showing of the document, or kept
from an earlier one), the highlights on top, and then tells the renderer which tiles it is
missing — which replaces, and so drops, whatever was wanted for pages that have scrolled
away. A page in view with no picture at all (a document just switched to) is asked for
first at a fraction of its scale (:func:`~.tiles.interim_key`), so a picture of it comes
well before its full image, never a white page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QContextMenuEvent, QPainter, QPaintEvent, QPalette, QTransform
from PySide6.QtWidgets import QMenu, QWidget

from matcher.vocabulary import Rect

from .. import qtcompat
from ..state.documents import PageInfo
from .area import ZOOM_STEPS, Band, PagesArea, own_viewport
from .highlight import Highlighter
from .page import Page
from .renderer import Renderer
from .tiles import (
    DocRef,
    RenderCache,
    RenderKey,
    Tile,
    interim_key,
    page_keys,
    tile_rect,
    wanted_keys,
)

__all__ = ["ZOOM_STEPS", "Band", "MenuPart", "Overlay", "PageView"]

PAPER = QColor("#FFFFFF")
DESK = QColor("#8A8F96")


class Overlay(Protocol):
    """Something painted over a page after its highlights (find marks)."""

    def paint(self, painter: QPainter, page: int, transform: QTransform,
              clip: QRectF) -> object: ...


# Adds its entries to the page's context menu, given where it was asked for (viewport px).
MenuPart = Callable[[QMenu, QPointF], None]


class PageView(PagesArea):
    """Shows one document's pages with the selected claim's highlights and any overlays."""

    settled = Signal()  # a paint found every visible tile rendered
    document_changed = Signal()  # another document (or none) is shown

    def __init__(self, renderer: Renderer, highlighter: Highlighter,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self.highlighter = highlighter
        self.doc: DocRef | None = None
        self.empty_text = ""
        self.overlays: list[Overlay] = []  # painted over the highlights, in order
        self.menu_parts: list[MenuPart] = []  # each adds its entries to the context menu
        # What the last paint put where, in viewport pixels (for tests and --geometry-json).
        self.painted_pages: dict[int, QRectF] = {}
        self.painted_highlights: list[tuple[int, QRectF]] = []
        self.dark = False  # pages inverted (light text on dark), highlights as they are
        self._settle = QTimer(self, singleShot=True, interval=0)
        self._settle.timeout.connect(self._emit_if_settled)
        renderer.rendered.connect(self._on_rendered)
        renderer.failed.connect(lambda key, _msg: self._on_rendered(key))
        viewport = own_viewport(self)
        pal = viewport.palette()
        pal.setColor(QPalette.ColorRole.Window, DESK)
        viewport.setPalette(pal)

    # -- document -----------------------------------------------------------------------
    def set_document(self, doc: DocRef | None, pages: Sequence[PageInfo]) -> None:
        """Show these pages (or nothing); keeps the zoom mode, starts at the top."""
        self.renderer.forget_document()
        self.doc = doc
        self._set_pages(pages if doc is not None else None)
        self.viewport().update()
        self.document_changed.emit()

    def set_highlights(self, rects: dict[int, list[Rect]]) -> None:
        self.highlighter.set_rects(rects)
        self.viewport().update()

    def set_dark(self, dark: bool) -> None:
        """Show the pages inverted (View ▸ Dark Pages); the highlights keep their colour."""
        self.dark = dark
        self.viewport().update()

    def set_highlight_color(self, color: QColor) -> None:
        self.highlighter.color = QColor(color)
        self.viewport().update()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = QMenu(self)
        for part in self.menu_parts:
            part(menu, QPointF(event.pos()))
        if not menu.isEmpty():
            menu.exec(event.globalPos())

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
            out += keys_in_view(self.doc, page, page.image_transform(offset), dpr, view)
        return out

    def is_settled(self) -> bool:
        """Every tile in view is rendered (or failed for good)."""
        cache, errors = self.renderer.cache, self.renderer.errors
        return all(k in cache or k in errors for k in self.visible_keys())

    def paintEvent(self, event: QPaintEvent) -> None:
        qtcompat.top_up()  # painting is where most Qt calls are made (see qtcompat)
        painter = QPainter(self.viewport())
        fill_rect(painter, event.rect(), DESK)
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
        first: list[RenderKey] = []  # interim pictures of pages that have none
        for page in visible:
            transform = page.transform(offset)
            # The painted rect is the page box mapped by the page's own transform: the page
            # image and the highlights below are placed by one and the same mapping.
            target = transform.mapRect(page.words_box())
            self.painted_pages[page.index] = target
            absent = paint_page_image(painter, self.renderer, doc, page, offset, dpr, view,
                                      target)
            if self.dark:
                invert_page(painter, target, self.highlighter.rects_on(page.index), transform)
            self.painted_highlights += [(page.index, r) for r in
                                        self.highlighter.paint(painter, page.index, transform,
                                                               target)]
            for overlay in self.overlays:
                overlay.paint(painter, page.index, transform, target)
            if absent:
                missing.append((page, absent))
                if not interim_tiles(self.renderer, doc, page.index, absent[0].scale):
                    first.append(interim_key(doc, page, dpr))
        painter.end()
        # Pictures for pages with none, then what is missing in view, nearest the centre
        # first, then the neighbouring pages.
        self.renderer.want(first + wanted_keys(doc, lay.pages, visible, missing, dpr,
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


def keys_in_view(doc: DocRef, page: Page, image_at: QTransform, dpr: float,
                 view: QRectF) -> list[RenderKey]:
    """The tiles of ``page`` that the ``view`` rectangle shows, the page image placed by
    ``image_at`` (its logical pixels → viewport pixels)."""
    return [k for k in page_keys(doc, page, dpr)
            if image_at.mapRect(tile_rect(QPointF(), k.tile, dpr)).intersects(view)]


class TileSource(Protocol):
    """Where rendered tiles are found: the renderer, or one of its side queues."""

    cache: RenderCache
    errors: dict[RenderKey, str]


def fill_rect(painter: QPainter, rect: QRect | QRectF, color: QColor) -> None:
    """Fill ``rect`` with ``color``, as ``painter.fillRect(rect, color)`` does, pixel for
    pixel (antialiased or not, in any composition mode; tests/viewer/test_fill.py).
    Choosing among fillRect's overloads, PySide6 asks whether the colour is one of
    QGradient's presets, which makes QGradient's enums the first time (its Preset has
    some 170 members): 6 ms of every window's first paint. A rectangle drawn with no pen
    fills the same pixels and asks nothing of the kind."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRect(rect)
    painter.restore()


def paint_page_image(painter: QPainter, renderer: TileSource, doc: DocRef, page: Page,
                     offset: QPointF, dpr: float, view: QRectF, target: QRectF
                     ) -> list[RenderKey]:
    """Paint the page's paper and the tiles the cache has (a scaled image from another
    zoom where it has none); returns the tiles in view still to be rendered."""
    fill_rect(painter, target, PAPER)
    image_at = on_device_pixels(page.image_transform(offset), dpr)
    keys = keys_in_view(doc, page, image_at, dpr, view)
    absent = [k for k in keys if k not in renderer.cache]
    if absent:
        painter.save()
        painter.setClipRect(target)
        painter.setTransform(image_at)
        paint_interim(painter, interim_tiles(renderer, doc, page.index, keys[0].scale), page)
        painter.restore()
    # The tiles are not clipped to the page's rect: MuPDF's image may end in a partly
    # covered row or column, and that pixel is the page's as MuPDF drew it.
    painter.save()
    painter.setTransform(image_at)
    for key in keys:
        tile = renderer.cache.get(key)
        if tile is not None:
            # Where MuPDF says the pixmap starts, which may differ from the request.
            at = (tile.x, tile.y, tile.image.width(), tile.image.height())
            painter.drawImage(tile_rect(QPointF(), at, dpr), tile.image)
    painter.restore()
    if any(k in renderer.errors for k in keys):
        paint_error(painter, target)
    return [k for k in absent if k not in renderer.errors]


def interim_tiles(renderer: TileSource, doc: DocRef, page: int, scale: float) -> list[Tile]:
    """Tiles of the page to paint scaled while its own render: kept from an earlier
    showing of the document, then this showing's at other scales (closest last)."""
    kept = getattr(renderer, "interim", None)
    earlier = kept.others(doc, page, scale, same=True) if isinstance(kept, RenderCache) \
        else []
    return earlier + renderer.cache.others(doc, page, scale)


def invert_page(painter: QPainter, target: QRectF, highlights: Sequence[Rect],
                transform: QTransform) -> None:
    """Invert the page's pixels in ``target`` (white paper dark, black text light), but
    not under its highlights: the highlighted words stay dark on the highlight colour,
    exactly as on a light page, so a highlight means the same in either mode."""
    from PySide6.QtGui import QPainterPath

    area = QPainterPath()
    area.addRect(target)
    if highlights:
        marked = QPainterPath()
        marked.setFillRule(Qt.FillRule.WindingFill)
        for x0, y0, x1, y1 in highlights:
            marked.addRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
        area = area.subtracted(transform.map(marked.simplified()))
    painter.save()
    painter.setClipPath(area)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Difference)
    fill_rect(painter, target, PAPER)
    painter.restore()


def on_device_pixels(image_at: QTransform, dpr: float) -> QTransform:
    """``image_at`` moved by less than half a device pixel so that the image lands on
    whole device pixels and is copied, never resampled. Unturned pages already do (they
    sit at whole logical pixels); a page turned about its box, whose size in pixels has a
    fraction, would otherwise be drawn between pixels."""
    dx = round(image_at.dx() * dpr) / dpr
    dy = round(image_at.dy() * dpr) / dpr
    return QTransform(image_at.m11(), image_at.m12(), image_at.m21(), image_at.m22(), dx, dy)


def paint_interim(painter: QPainter, tiles: Sequence[Tile], page: Page) -> None:
    """Draw this page's tiles from another zoom, scaled, while the right ones render (the
    painter is set to the unturned page image's logical pixels)."""
    if not tiles:
        return
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    for tile in tiles:
        # Device pixels at that tile's scale → points → logical pixels at this zoom.
        k = page.zoom / tile.key.scale
        painter.drawImage(QRectF(tile.x * k, tile.y * k, tile.image.width() * k,
                                 tile.image.height() * k), tile.image)
    painter.restore()


def paint_error(painter: QPainter, target: QRectF) -> None:
    """Say on the page that it could not be rendered."""
    painter.save()
    painter.setPen(QColor("#9E9E9E"))
    painter.drawText(target, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                     "This page could not be displayed.")
    painter.restore()
