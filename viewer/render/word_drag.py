"""Dragging across words on a page: the thin mouse layer over :mod:`viewer.state.selection`.

While it is on, a press on a page fixes the *anchor* and every move the *focus*, both
turned into words-space points by the page's own transform (the one that placed the
page image, so zoom, rotation, CropBox and device pixel ratio are all accounted for in
one place); a move that leaves the page keeps mapping through that page's transform.
What the points select is the selection model's to say, from the page's word boxes,
which arrive from the check process and may come after the press: the selection is
worked out again when they do.

It filters the view's viewport events, so the page view itself knows nothing about it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QMouseEvent

from ..state.selection import PageWordBoxes, Point, WordSelection, select
from .view import PageView

# Given a 0-based page, its words if they are known yet (else None: they are asked for).
WordsOf = Callable[[int], PageWordBoxes | None]


def words_point(view: PageView, pos: QPointF, page: int | None = None
                ) -> tuple[int, Point] | None:
    """The page under viewport point ``pos`` (or page ``page``) and the words-space
    point there, through that page's transform."""
    lay = view.pages_layout
    if lay is None or not len(lay):
        return None
    layout_point = pos - view.scroll_offset()
    target = lay.pages[page] if page is not None else lay.page_at(layout_point.y())
    if target is None:
        return None
    p = target.point_to_words(layout_point)
    return target.index, (p.x(), p.y())


class WordDrag(QObject):
    """Turns drags on the page view into word selections while :attr:`active`."""

    changed = Signal(object)  # the WordSelection, or None
    finished = Signal(object)  # the button was released: the WordSelection, or None

    def __init__(self, view: PageView, words_of: WordsOf) -> None:
        super().__init__(view)
        self.view = view
        self.words_of = words_of
        self.active = False
        self.page: int | None = None
        self.anchor: Point | None = None
        self.focus: Point | None = None
        self.selection: WordSelection | None = None
        self._dragging = False
        view.viewport().installEventFilter(self)

    def start(self) -> None:
        """Take drags from now on (the pointer becomes a text cursor)."""
        self.active = True
        self.clear()
        self.view.viewport().setCursor(Qt.CursorShape.IBeamCursor)

    def stop(self) -> None:
        self.active = False
        self._dragging = False
        self.view.viewport().unsetCursor()

    def clear(self) -> None:
        self.page = self.anchor = self.focus = None
        self._set(None)

    def words_arrived(self, page: int) -> None:
        """The words of ``page`` are known now: work out the selection again."""
        if page == self.page:
            self._reselect()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self.active or watched is not self.view.viewport():
            return False
        kind = event.type()
        if kind not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove,
                        QEvent.Type.MouseButtonRelease):
            return False
        assert isinstance(event, QMouseEvent)
        if kind == QEvent.Type.MouseButtonPress:
            if event.button() != Qt.MouseButton.LeftButton:
                return False
            hit = words_point(self.view, event.position())
            if hit is None:
                return True
            self.page, self.anchor = hit
            self.focus = self.anchor
            self._dragging = True
            self._reselect()
            return True
        if not self._dragging or self.page is None:
            return kind == QEvent.Type.MouseMove and self._dragging
        hit = words_point(self.view, event.position(), self.page)
        if hit is not None:
            self.focus = hit[1]
            self._reselect()
        if kind == QEvent.Type.MouseButtonRelease:
            self._dragging = False
            self.finished.emit(self.selection)
        return True

    def _reselect(self) -> None:
        words = self.words_of(self.page) if self.page is not None else None
        if words is None or self.anchor is None or self.focus is None:
            self._set(None)
            return
        self._set(select(words, self.anchor, self.focus))

    def _set(self, selection: WordSelection | None) -> None:
        if selection != self.selection:
            self.selection = selection
            self.changed.emit(selection)
