"""Paint find hits: outlines in a colour of their own, never the evidence highlight's.

Like the highlighter, marks are stored in words-space points and mapped by the page's own
transform while painting. Every hit is outlined; the current one gets a thicker outline
and a light wash of the same colour, so it can be told from the rest at a glance. Neither
is painted in multiply mode and neither uses the highlight colour, so evidence stays
findable by its colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QTransform

from matcher.vocabulary import Rect

# Outline widths in logical pixels (cosmetic pens: the same at every zoom), and how far
# the outline stands off the words so that it never covers a letter.
OUTLINE_PX, CURRENT_OUTLINE_PX, OFFSET_PX = 1.5, 3.0, 2.0
# Opacity of the wash over the current hit: enough to find it, little enough to read it.
CURRENT_WASH_ALPHA = 60


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
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(self.color, OUTLINE_PX))
        for r in rects:
            painter.drawRect(_grown(transform, r))
        if self._current is not None and self._current[0] == page:
            wash = QColor(self.color)
            wash.setAlpha(CURRENT_WASH_ALPHA)
            painter.setPen(QPen(self.color, CURRENT_OUTLINE_PX))
            painter.setBrush(wash)
            for r in self._current[1]:
                painter.drawRect(_grown(transform, r))
        painter.restore()


def _grown(transform: QTransform, rect: Rect) -> QRectF:
    x0, y0, x1, y1 = rect
    box = transform.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
    return box.adjusted(-OFFSET_PX, -OFFSET_PX, OFFSET_PX, OFFSET_PX)
