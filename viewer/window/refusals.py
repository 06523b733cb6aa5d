"""Decisions the review refuses, in the window: greyed out, saying why.

The review model says why a decision cannot be made now
(:meth:`viewer.state.review.Review.refusal`); :class:`Refusals` shows it on the command:
disabled, the reason its tooltip (and so its button's accessible description), its own
tooltip back once it can be made. A disabled command's key reaches the window as a plain
key press: pressed, it says the reason in the status bar, so a keyboard user hears why
nothing happened.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow


class Refusals(QObject):
    """The refused commands of one window, and why."""

    def __init__(self, window: QMainWindow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self._tips: dict[QAction, str] = {}  # a command's own tooltip, while not refused
        self._why: dict[QAction, str] = {}  # why it is greyed out ("" when it is not)
        window.installEventFilter(self)

    def show(self, action: QAction, why: str, *, enabled: bool) -> None:
        """``action`` enabled when ``enabled`` and not refused (``why`` "")."""
        own = self._tips.setdefault(action, action.toolTip())
        action.setEnabled(enabled and not why)
        action.setToolTip(why or own)
        self._why[action] = why

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            pressed = QKeySequence(event.keyCombination())
            for action, why in self._why.items():
                if why and not action.isEnabled() and action.shortcut() == pressed:
                    self.window.statusBar().showMessage(why, 0)
                    return True
        return False
