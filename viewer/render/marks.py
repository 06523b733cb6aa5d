"""Paint find hits: outlines in a colour of their own, never the evidence highlight's.

Like the highlighter, marks are stored in words-space points and mapped by the page's own
transform while painting. Every hit gets a light wash of the find colour and a thin
outline on its word boxes (drawn on the boxes, not around them: lines of text sit close,
and an outline further out would cross the line above); the current one a stronger wash
and a thicker outline, so it can be told from the rest at a glance. Neither is painted in
multiply mode and neither uses the highlight colour, so evidence stays findable by its
colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen, QTransform

from matcher.vocabulary import Rect

# Outline widths in logical pixels.
OUTLINE_PX, CURRENT_OUTLINE_PX = 1.0, 2.0
# Opacity of the washes (0–255): enough to find a hit at a glance, little enough that the
# words under it read as they do on paper.
WASH_ALPHA, CURRENT_WASH_ALPHA = 40, 90


class FindMarks:
    """The hits of the current search per 0-based page, and which one is current."""

    def __init__(self, color: QColor) -> None:
        self.color = QColor(color)
        self._rects: dict[int, list[Rect]] = {}
        self._current: tuple[int, tuple[Rect, ...]] | None = None

    def set_hits(self, rects: dict[int, list[Rect]],
                 current: tuple[int, Sequence[Rect]] | None = None) -> None:
        self._rects = {page: list(rs) for page, rs in rects.items() if rs}
        self._current = None if current is None else (current[0], tuple(current[1]))

    def pages(self) -> list[int]:
        return sorted(self._rects)

    def current(self) -> tuple[int, tuple[Rect, ...]] | None:
        return self._current

    def paint(self, painter: QPainter, page: int, transform: QTransform,
              clip: QRectF) -> None:
        """Outline page ``page``'s hits through ``transform`` (words space → pixels)."""
        rects = self._rects.get(page)
        if not rects:
            return
        painter.save()
        painter.setClipRect(clip)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        current = self._current[1] if self._current is not None \
            and self._current[0] == page else ()
        for r in rects:
            if r not in current:
                self._mark(painter, transform, r, WASH_ALPHA, OUTLINE_PX)
        for r in current:
            self._mark(painter, transform, r, CURRENT_WASH_ALPHA, CURRENT_OUTLINE_PX)
        painter.restore()

    def _mark(self, painter: QPainter, transform: QTransform, rect: Rect, alpha: int,
              width: float) -> None:
        x0, y0, x1, y1 = rect
        box = transform.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
        wash = QColor(self.color)
        wash.setAlpha(alpha)
        painter.setBrush(wash)
        # The pen is centred on the path: inset by half its width, it stays on the box.
        painter.setPen(QPen(self.color, width))
        painter.drawRect(box.adjusted(width / 2, width / 2, -width / 2, -width / 2))
