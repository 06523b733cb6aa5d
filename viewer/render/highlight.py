"""Paint evidence rectangles: stored in words-space points, mapped only while painting.

Rectangles of several evidence items are painted as one union, so an overlap is not
painted twice (in multiply mode it would turn darker and stop being the highlight colour).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QTransform

from matcher.vocabulary import Rect


class Highlighter:
    """The selected claim's rectangles per 0-based page, and the colour to paint them in."""

    def __init__(self, color: QColor) -> None:
        self.color = QColor(color)
        self._rects: dict[int, list[Rect]] = {}

    def set_rects(self, rects: dict[int, list[Rect]]) -> None:
        self._rects = {page: list(rs) for page, rs in rects.items() if rs}

    def rects_on(self, page: int) -> list[Rect]:
        return self._rects.get(page, [])

    def pages(self) -> list[int]:
        return sorted(self._rects)

    def paint(self, painter: QPainter, page: int, transform: QTransform,
              clip: QRectF) -> list[QRectF]:
        """Paint page ``page``'s rectangles through ``transform`` (words space → widget
        pixels), clipped to the page; return them as painted, in widget pixels."""
        rects = self._rects.get(page)
        if not rects:
            return []
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)
        for x0, y0, x1, y1 in rects:
            path.addRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
        painter.save()
        painter.setClipRect(clip)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
        painter.setTransform(transform)
        painter.fillPath(path.simplified(), self.color)
        painter.restore()
        return [transform.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
                for x0, y0, x1, y1 in rects]
