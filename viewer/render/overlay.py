"""Marks drawn over the pages in styles that are never the highlight's: outlines, numbers,
a second colour.

The highlight colour belongs to evidence rectangles alone (:mod:`.highlight`); what a
reviewer needs besides — the words being selected, the copies of a quote to choose from,
the evidence item being decided, the items already decided — is drawn here, above the
page view's own painting, as outlines (and a pale fill for a selection) in colours kept
apart from the highlight. Marks are stored in words-space points and mapped, while
painting, by the very transform that placed each page image
(:meth:`viewer.render.page.Page.transform`), so they cannot drift from the words.

The overlay is a transparent child of the view's viewport that lets every mouse event
through, so the view itself stays as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from matcher.vocabulary import Rect

from ..palette import distinct
from .view import PageView, fill_rect


class Style(Enum):
    """What a mark is, which decides how it is drawn."""

    SELECTION = "selection"  # words selected on the page (to copy, or to relocate a quote)
    COPY = "copy"  # one copy of the quoted words, numbered, to choose from
    CURRENT = "current"  # the evidence item being decided, when a claim has several
    DECIDED = "decided"  # words a person confirmed or selected


# Colours of the marks; each is moved away from the highlight colour if it comes close.
COLORS: dict[Style, str] = {
    Style.SELECTION: "#1565C0",  # blue
    Style.COPY: "#6A1B9A",  # purple
    Style.CURRENT: "#37474F",  # slate
    Style.DECIDED: "#2E7D32",  # green
}
# A selection is filled with its colour at this opacity (0-255), so the words it covers
# are seen to be taken; the other marks are outlines only.
SELECTION_FILL_ALPHA = 56
# Outline width in logical pixels, and how far outlines stand off the words they mark.
OUTLINE_PX = 1.5
OUTLINE_GAP_PX = 1.0
# How far a numbered tag sits in from the page's left edge (logical pixels).
LABEL_INSET_PX = 4.0
# Layers of marks, each set by its owner, painted in this order: the review's marks, then
# the words selected on the page on top.
REVIEW_LAYER, SELECTION_LAYER = 0, 1


@dataclass(frozen=True)
class Mark:
    """Rectangles (words space) of one 0-based page, drawn in one style, maybe numbered."""

    page: int
    rects: tuple[Rect, ...]
    style: Style
    label: str = ""


class PageOverlay(QWidget):
    """Draws :class:`Mark` s over a :class:`PageView`'s pages."""

    def __init__(self, view: PageView) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.layers: dict[int, list[Mark]] = {}
        # What the last paint drew where, in viewport pixels (for tests).
        self.painted: list[tuple[int, Style, QRectF]] = []
        self._text_left = 0.0  # while painting a page: the leftmost mark's left edge
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setGeometry(view.viewport().rect())
        view.viewport().installEventFilter(self)
        # No update of its own on scrolling: the view repaints its whole viewport when it
        # scrolls, and this child with it. An update here too made every scrolled frame
        # paint the pages twice (this widget is see-through, so Qt repaints what is under it).
        view.zoom_changed.connect(self.update)
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.view.viewport().rect())
        return False

    def set_marks(self, marks: Sequence[Mark], *, layer: int = REVIEW_LAYER) -> None:
        """Draw ``marks`` as the whole of layer ``layer`` (the other layers stay)."""
        self.layers[layer] = list(marks)
        self.update()

    @property
    def marks(self) -> list[Mark]:
        """Every mark, in the order painted."""
        return [m for layer in sorted(self.layers) for m in self.layers[layer]]

    def color(self, style: Style) -> QColor:
        """A style's colour, kept apart from the view's highlight colour (whatever it is
        now: the reader may have changed it)."""
        return distinct(QColor(COLORS[style]), self.view.highlighter.color)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.painted = []
        lay = self.view.pages_layout
        every = self.marks
        if lay is None or not every:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        offset = self.view.scroll_offset()
        on: dict[int, list[Mark]] = {}
        for mark in every:
            on.setdefault(mark.page, []).append(mark)
        for page in lay.pages_in(self.view.visible_layout_rect()):
            transform = page.transform(offset)
            marks = on.get(page.index, ())
            mapped = [[transform.mapRect(QRectF(QPointF(r[0], r[1]), QPointF(r[2], r[3])))
                       for r in mark.rects] for mark in marks]
            # Numbered tags go in the margin left of every mark on the page.
            self._text_left = min((b.left() for boxes in mapped for b in boxes), default=0.0)
            page_left = page.rect().translated(offset).left()
            for mark, boxes in zip(marks, mapped, strict=True):
                self._draw(painter, mark, boxes, page_left)
                self.painted += [(page.index, mark.style, b) for b in boxes]
        painter.end()

    def _draw(self, painter: QPainter, mark: Mark, boxes: list[QRectF],
              page_left: float) -> None:
        color = self.color(mark.style)
        pen = QPen(color, OUTLINE_PX)
        if mark.style is Style.COPY:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        fill = QColor(color)
        fill.setAlpha(SELECTION_FILL_ALPHA)
        g = OUTLINE_GAP_PX
        for box in boxes:
            outer = box.adjusted(-g, -g, g, g)
            if mark.style is Style.SELECTION:
                fill_rect(painter, box, fill)
            painter.drawRect(outer)
        if mark.label and boxes:
            self._label(painter, mark.label, boxes[0], color, page_left)

    def _label(self, painter: QPainter, text: str, first: QRectF, color: QColor,
               page_left: float) -> None:
        """A numbered tag for a mark, white on the mark's colour: in the page's left
        margin beside the mark's first line, so it hides none of the words around it
        (above the line when the margin is too narrow)."""
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        h = painter.fontMetrics().height() + 2
        w = painter.fontMetrics().horizontalAdvance(text) + 8
        tag = QRectF(page_left + LABEL_INSET_PX, first.center().y() - h / 2, w, h)
        if tag.right() > self._text_left - OUTLINE_GAP_PX:
            tag.moveLeft(first.left())
            tag.moveBottom(first.top() - OUTLINE_GAP_PX - 1)
        fill_rect(painter, tag, color)
        painter.setPen(QColor("#FFFFFF"))
        painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, text)
