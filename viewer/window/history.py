"""View ▸ Back and Forward (Alt+Left, Alt+Right) over the places a reader jumped from.

The page view says when it is about to jump (``jumping``: Go to page, a thumbnail, an
outline entry, a link of the detail pane); the place shown then is remembered
(:mod:`viewer.state.history`). Back shows the place remembered — its document first, if
another is shown — with the same point at the centre of the view.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF

from ..render.view import PageView
from ..state.history import History, Place
from ..state.session import Session
from .actions import command
from .controller import Controller


class Navigation(QObject):
    """The window's Back and Forward commands and the history they walk."""

    def __init__(self, session: Session, view: PageView, controller: Controller, *,
                 show_document: Callable[[str], object], parent: QObject) -> None:
        """``show_document`` shows another document of the citations file (the window's);
        the commands belong to ``parent``."""
        super().__init__(parent)
        self.session, self.view = session, view
        self._show_document = show_document
        self.history = History()
        self._restoring = False
        self.back = command(parent, "&Back", self.go_back, "Alt+Left",
                            tip="Go back to where you were before the last jump")
        self.forward = command(parent, "&Forward", self.go_forward, "Alt+Right",
                               tip="Go forward again after going back")
        view.jumping.connect(self.remember)
        controller.opened.connect(lambda _path: self._reset())
        self._update()

    def here(self) -> Place | None:
        anchor = self.view.centre_anchor()
        if anchor is None:
            return None
        page, point = anchor
        return Place(self.session.shown_document, page, point.x(), point.y())

    def remember(self) -> None:
        if self._restoring:
            return
        here = self.here()
        if here is not None:
            self.history.remember(here)
            self._update()

    def go_back(self) -> None:
        self._go(self.history.go_back)

    def go_forward(self) -> None:
        self._go(self.history.go_forward)

    def _go(self, step: object) -> None:
        here = self.here()
        if here is None:
            return
        place = step(here)  # type: ignore[operator]
        if place is None:
            return
        self._restoring = True
        try:
            if place.document is not None and place.document != self.session.shown_document:
                self._show_document(place.document)
            self.view.centre_on(place.page, QPointF(place.x, place.y))
        finally:
            self._restoring = False
        self._update()

    def _reset(self) -> None:
        self.history.clear()
        self._update()

    def _update(self) -> None:
        self.back.setEnabled(bool(self.history.back))
        self.forward.setEnabled(bool(self.history.forward))
