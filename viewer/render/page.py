"""One page as the view shows it, and the one transform that places it on screen.

Highlight rectangles arrive in PDF points in PyMuPDF's ``get_text("words")`` space: the
*unrotated* page, origin at the top-left of the CropBox. The page image PyMuPDF renders
(``page.get_pixmap``) covers ``page.rect``: the CropBox *after* /Rotate. The page's
``rotation_matrix`` takes the first space to the second. So one affine map,

    words space ──rotation_matrix──▶ page.rect space ──× zoom──▶ ──+ page origin──▶ layout px

places the page image (``page.rect`` scaled by the same zoom) and every highlight, and
nothing else in the viewer converts coordinates. Device pixel ratio never appears here:
it belongs only where pixmaps are made (:mod:`viewer.render.tiles`).

The reader may turn the view in 90° steps (View ▸ Rotate). The page image is rendered
unturned, as always, and turned while it is painted; the turn is one more step of the
same map, after the zoom and before the page origin, so the image and the highlights
turn together:

    … ──× zoom──▶ ──turn (about the zoomed page box)──▶ ──+ page origin──▶ layout px
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform

from matcher.vocabulary import Rect

from ..state.documents import PageInfo


class Page:
    """A page placed in the layout: its zoom and the layout position of its top-left corner.

    Layout pixels are logical (device-independent) pixels of the whole scrolled document;
    the view subtracts its scroll offset when painting.
    """

    __slots__ = ("info", "turn", "x", "y", "zoom")

    def __init__(self, info: PageInfo, *, zoom: float = 1.0, x: int = 0, y: int = 0,
                 turn: int = 0) -> None:
        self.info = info
        self.zoom = zoom  # logical pixels per point
        self.x = x  # layout position; whole pixels so page images land on pixel boundaries
        self.y = y
        self.turn = turn % 360  # the reader's view rotation, clockwise: 0, 90, 180 or 270

    @property
    def index(self) -> int:
        return self.info.index

    def rotation_transform(self) -> QTransform:
        """Words space → page.rect space (the page's rotation matrix)."""
        a, b, c, d, e, f = self.info.rotation_matrix
        return QTransform(a, b, c, d, e, f)

    def words_box(self) -> QRectF:
        """The whole page in words space (its width and height swap at 90° and 270°)."""
        inverse, ok = self.rotation_transform().inverted()
        assert ok, "a rotation matrix is always invertible"
        return inverse.mapRect(QRectF(0.0, 0.0, self.info.width, self.info.height))

    @property
    def sideways(self) -> bool:
        """Turned a quarter: the painted width is the page's height."""
        return self.turn in (90, 270)

    @property
    def width(self) -> float:
        """Painted width in logical pixels (after the view's turn)."""
        return (self.info.height if self.sideways else self.info.width) * self.zoom

    @property
    def height(self) -> float:
        return (self.info.width if self.sideways else self.info.height) * self.zoom

    def turn_transform(self) -> QTransform:
        """The unturned page image (logical pixels at this zoom, origin at its top-left)
        → the turned one, turned clockwise about the page box."""
        w, h = self.info.width * self.zoom, self.info.height * self.zoom
        # QTransform(m11, m12, m21, m22, dx, dy): x' = m11·x + m21·y + dx, y' = m12·x + m22·y + dy.
        if self.turn == 90:
            return QTransform(0.0, 1.0, -1.0, 0.0, h, 0.0)  # (x, y) → (h − y, x)
        if self.turn == 180:
            return QTransform(-1.0, 0.0, 0.0, -1.0, w, h)  # (x, y) → (w − x, h − y)
        if self.turn == 270:
            return QTransform(0.0, -1.0, 1.0, 0.0, 0.0, w)  # (x, y) → (y, w − x)
        return QTransform()

    def image_transform(self, offset: QPointF | None = None) -> QTransform:
        """The unturned page image's logical pixels → layout pixels (shifted by ``offset``):
        where its tiles are painted."""
        dx = self.x + (offset.x() if offset is not None else 0.0)
        dy = self.y + (offset.y() if offset is not None else 0.0)
        return self.turn_transform() * QTransform.fromTranslate(dx, dy)

    def rect(self) -> QRectF:
        """Where the page is painted, in layout pixels."""
        return QRectF(self.x, self.y, self.width, self.height)

    def transform(self, offset: QPointF | None = None) -> QTransform:
        """Words-space points → layout pixels, shifted by ``offset`` (e.g. minus the scroll).

        ``a * b`` in Qt applies ``a`` first: rotate into page.rect space, scale by zoom,
        turn as the reader turned the view, then move to where the page sits.
        """
        return (self.rotation_transform()
                * QTransform.fromScale(self.zoom, self.zoom)
                * self.image_transform(offset))

    def map_rect(self, rect: Rect, offset: QPointF | None = None) -> QRectF:
        """A words-space rectangle in layout (or offset) pixels."""
        x0, y0, x1, y1 = rect
        return self.transform(offset).mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))

    def point_to_words(self, layout_point: QPointF) -> QPointF:
        """The words-space point under a layout pixel (for zooming around the cursor)."""
        inverse, _ = self.transform().inverted()
        return inverse.map(layout_point)

    def device_size(self, dpr: float) -> tuple[int, int]:
        """Pixel size of the full page image rendered for this zoom at ``dpr``.

        MuPDF rounds the scaled page rect outwards; a tiny tolerance keeps an exact
        product like 612 × 1.25 = 765.0000001 from growing a column.
        """
        s = self.zoom * dpr
        return (math.ceil(self.info.width * s - 1e-3), math.ceil(self.info.height * s - 1e-3))

    def __repr__(self) -> str:
        turned = f", turn={self.turn}" if self.turn else ""
        return f"Page({self.index}, zoom={self.zoom:.4f}, at=({self.x}, {self.y}){turned})"
