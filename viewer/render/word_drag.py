"""Dragging across words on a page: the thin mouse layer over :mod:`viewer.state.selection`.

A press on a page fixes the *anchor* and every move the *focus*, both turned into
words-space points by the page's own transform (the one that placed the page image, so
zoom, rotation, CropBox and device pixel ratio are all accounted for in one place); a
move that leaves the page keeps mapping through that page's transform. What the points
select is the selection model's to say, from the page's word boxes, which arrive from the
check process and may come after the press: the selection is worked out again when they
do. A double click selects the word under the pointer and a triple click its line;
dragging on from either goes on by words or by lines.

Two ways of selecting share this layer. Plainly, a selection starts once the pointer
has moved as far as a drag must (a click only clears it), and the pointer is a text
cursor over words. While a purpose is :meth:`~WordDrag.start` ed (relocating a quote),
a press selects the word under it at once and the pointer is a text cursor everywhere.

While a purpose is started, the keyboard selects too (relocating without a mouse): the
arrow keys move a word cursor in reading order as shown — Left and Right a word, Up and
Down the nearest word of the row above or below, Home and End a row's ends — and with
Shift they extend the selection from where it started; the page scrolls to keep the
cursor in view. The first arrow key puts the cursor on the first word of the page in view.

It filters the view's viewport events (and, for the keys, the view's), so the page view
itself knows nothing about it.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication

from ..state.selection import (
    PageWordBoxes,
    Point,
    Unit,
    WordSelection,
    distance_to,
    line_span,
    select,
    select_all,
)
from .view import PageView

# Given a 0-based page, its words if they are known yet (else None: they are asked for).
WordsOf = Callable[[int], PageWordBoxes | None]
# The pointer is a text cursor this close to a word (points): the gaps between the words
# of a line are about this wide, so a line reads as one stretch of text.
HOVER_SLACK_PT = 2.0


def words_point(view: PageView, pos: QPointF, page: int | None = None
                ) -> tuple[int, Point] | None:
    """The page under viewport point ``pos`` (or page ``page``) and the words-space
    point there, through that page's transform."""
    lay = view.pages_layout
    if lay is None or not len(lay):
        return None
    layout_point = pos - view.scroll_offset()
    target = lay.pages[page] if page is not None \
        else lay.page_at(layout_point.y(), layout_point.x())
    if target is None:
        return None
    p = target.point_to_words(layout_point)
    return target.index, (p.x(), p.y())


class WordDrag(QObject):
    """Turns drags and double and triple clicks on the page view into word selections."""

    changed = Signal(object)  # the WordSelection, or None
    finished = Signal(object)  # the button was released: the WordSelection, or None

    def __init__(self, view: PageView, words_of: WordsOf) -> None:
        super().__init__(view)
        self.view = view
        self.words_of = words_of
        self.active = False  # a purpose (relocating) is started: see the module's words
        self.page: int | None = None
        self.anchor: Point | None = None
        self.focus: Point | None = None
        self.unit: Unit = "word"
        self.selection: WordSelection | None = None
        self._dragging = False
        self._live = False  # the press is selecting (a click that did not move is not)
        self._whole_page = False  # every word of :attr:`page` is selected
        self._pressed_at = QPointF()  # where the button went down (viewport pixels)
        self._double = QElapsedTimer()  # since the last double click: a triple click?
        self._double_at = QPointF()
        self._viewport = view.viewport()
        self._viewport.installEventFilter(self)
        view.installEventFilter(self)  # the word cursor's keys, while a purpose runs
        self._viewport.setMouseTracking(True)  # the cursor follows the words under it

    def start(self) -> None:
        """Select for a purpose from now on: a press selects at once, and the pointer is
        a text cursor over the whole view."""
        self.active = True
        self.clear()
        self.view.viewport().setCursor(Qt.CursorShape.IBeamCursor)

    def stop(self) -> None:
        """Back to plain selecting (the selection stays until :meth:`clear`)."""
        self.active = False
        self._dragging = False
        self.view.viewport().unsetCursor()

    def clear(self) -> None:
        self.page = self.anchor = self.focus = None
        self._live = self._whole_page = False
        self._set(None)

    def select_page(self, page: int) -> None:
        """Select every word of 0-based ``page`` (once they are known, when they are still
        to come from the check process)."""
        self.clear()
        self.page, self._whole_page = page, True
        words = self.words_of(page)
        if words is not None:
            self._set(select_all(words))

    def words_arrived(self, page: int) -> None:
        """The words of ``page`` are known now: work out the selection again."""
        if page != self.page:
            return
        if self._whole_page:
            words = self.words_of(page)
            self._set(select_all(words) if words is not None else None)
        elif self._live:
            self._reselect()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.KeyPress and watched is self.view and self.active:
            assert isinstance(event, QKeyEvent)
            return self._key(event)
        if kind not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick,
                        QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease) \
                or watched is not self._viewport or not shiboken6.isValid(self.view):
            return False  # (the view may be half destroyed while its viewport has events)
        assert isinstance(event, QMouseEvent)
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            if event.button() != Qt.MouseButton.LeftButton:
                return False
            self._press(event.position(), double=kind == QEvent.Type.MouseButtonDblClick)
            return True
        if not self._dragging or self.page is None:
            if kind == QEvent.Type.MouseMove and not self.active:
                self._hover(event.position())
            return False
        far = (event.position() - self._pressed_at).manhattanLength() \
            >= QApplication.startDragDistance()
        hit = words_point(self.view, event.position(), self.page)
        self._live = self._live or far
        if hit is not None and self._live:
            self.focus = hit[1]
            self._reselect()
        if kind == QEvent.Type.MouseButtonRelease:
            self._dragging = False
            self.finished.emit(self.selection)
        return True

    def _press(self, pos: QPointF, *, double: bool) -> None:
        """The left button went down at ``pos``: once, the second time of a double click,
        or a third time soon after one (a triple click, as Qt's text fields tell it)."""
        near = (pos - self._double_at).manhattanLength() < QApplication.startDragDistance()
        triple = not double and self._double.isValid() and near \
            and self._double.elapsed() < QApplication.doubleClickInterval()
        self._double.invalidate()
        if double:
            self._double.start()
            self._double_at = QPointF(pos)
        hit = words_point(self.view, pos)
        if hit is None:
            self.clear()
            return
        self.page, self.anchor = hit
        self.focus = self.anchor
        self._whole_page = False
        self.unit = "line" if triple else "word"
        self._dragging = True
        self._pressed_at = QPointF(pos)
        self.view.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        self._live = self.active or double or triple
        if self._live:
            self._reselect()
        else:
            self._set(None)  # a click clears; dragging on selects

    def _key(self, event: QKeyEvent) -> bool:
        """Move the word cursor (see the module's words); True when the key was one."""
        K = Qt.Key
        key = event.key()
        if key not in (K.Key_Left, K.Key_Right, K.Key_Up, K.Key_Down, K.Key_Home, K.Key_End):
            return False
        page = self.page if self.page is not None else self.view.current_page
        words = self.words_of(page) if page >= 0 else None
        if words is None or not words.words:
            return True  # asked for (or none to select): the key is still the cursor's
        sel = self.selection
        if sel is None or sel.page.page != page:
            focus = anchor = 0
        else:
            focus = cursor_step(words, sel.focus, key)
            extend = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            anchor = sel.anchor if extend else focus
        self.page, self.anchor, self.focus = page, None, None
        self._live = self._whole_page = False
        self._set(WordSelection(words, anchor, focus))
        self.view.show_rect(page, words.words[focus].rect)
        return True

    def _hover(self, pos: QPointF) -> None:
        """A text cursor over words (asking for the page's words the first time)."""
        hit = words_point(self.view, pos)
        words = self.words_of(hit[0]) if hit is not None else None
        if hit is not None and words is not None and any(
                distance_to(w.rect, hit[1]) <= HOVER_SLACK_PT for w in words.words):
            self.view.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        else:
            self.view.viewport().unsetCursor()

    def _reselect(self) -> None:
        words = self.words_of(self.page) if self.page is not None else None
        if words is None or self.anchor is None or self.focus is None:
            self._set(None)
            return
        self._set(select(words, self.anchor, self.focus, unit=self.unit))

    def _set(self, selection: WordSelection | None) -> None:
        if selection != self.selection:
            self.selection = selection
            self.changed.emit(selection)


def cursor_step(page: PageWordBoxes, index: int, key: Qt.Key) -> int:
    """Where the word cursor at ``index`` goes for an arrow, Home or End key, in the
    page's reading order: a word either way, the nearest word of the row above or below
    (nearest to the cursor's word on the page), or the row's first or last word."""
    last = len(page.words) - 1
    if key == Qt.Key.Key_Right:
        return min(last, index + 1)
    if key == Qt.Key.Key_Left:
        return max(0, index - 1)
    lo, hi = line_span(page, index)
    if key == Qt.Key.Key_Home:
        return lo
    if key == Qt.Key.Key_End:
        return hi
    if key == Qt.Key.Key_Down and hi < last:
        a, b = line_span(page, hi + 1)
    elif key == Qt.Key.Key_Up and lo > 0:
        a, b = line_span(page, lo - 1)
    else:
        return index
    x0, y0, x1, y1 = page.words[index].rect
    here = ((x0 + x1) / 2, (y0 + y1) / 2)
    return min(range(a, b + 1), key=lambda i: distance_to(page.words[i].rect, here))
