"""The find bar above the pages: the text to find, previous/next, how far the search is.

Typing starts a search once the typing pauses (:data:`TYPING_PAUSE_MS`), Enter goes to the
next hit and Shift+Enter to the previous one, Escape closes the bar and gives the keys
back to the pages. The bar shows, in words, what the :class:`FindResults` say ("3 of 17
matches", "Searching… page 120 of 500"), with a Stop button while a search runs.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from ..palette import INK, NOTICE_ERROR
from ..state.find import FindResults

# A search starts this long after the last key typed, so a word typed quickly is one
# search, not one per letter.
TYPING_PAUSE_MS = 300


class _Field(QLineEdit):
    """The text field: Enter / Shift+Enter step through the hits, Escape closes."""

    def __init__(self, bar: FindBar) -> None:
        super().__init__(bar)
        self.bar = bar

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.bar.submit(-1 if shift else 1)
        elif event.key() == Qt.Key.Key_Escape:
            self.bar.close_bar()
        else:
            super().keyPressEvent(event)


class FindBar(QFrame):
    """The find bar. ``search(text)`` asks for a search, ``step(±1)`` for the next or
    previous hit, ``stop()`` to end the search under way, ``closed()`` when it hides."""

    search = Signal(str)
    step = Signal(int)
    stop = Signal()
    closed = Signal()

    def __init__(self, results: FindResults, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.results = results
        self.setObjectName("find-bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.field = _Field(self)
        self.field.setPlaceholderText("Find in document (Ctrl+F)")
        self.field.setClearButtonEnabled(True)
        self.field.setAccessibleName("Find text")
        self.field.setMinimumWidth(140)
        self.previous = self._button("▲", "Previous match (Shift+F3)", lambda: self.submit(-1))
        self.next = self._button("▼", "Next match (F3)", lambda: self.submit(1))
        self.status = QLabel()
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status.setMinimumWidth(80)
        self.busy = QProgressBar()
        self.busy.setMaximumWidth(90)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.stop_button = self._button("Stop", "Stop searching", self.stop.emit)
        self.stop_button.hide()
        self.close_button = self._button("✕", "Close the find bar (Esc)", self.close_bar)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        row.setSpacing(4)
        row.addWidget(self.field, 2)
        for w in (self.previous, self.next):
            row.addWidget(w)
        row.addWidget(self.status, 3)
        for w in (self.busy, self.stop_button, self.close_button):
            row.addWidget(w)
        self._typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing.timeout.connect(lambda: self.search.emit(self.field.text()))
        self.field.textEdited.connect(lambda _text: self._typing.start())
        results.connect(self.refresh)
        self.hide()

    def _button(self, text: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(lambda _checked=False: slot())  # type: ignore[operator]
        return button

    def open_bar(self) -> None:
        """Show the bar with its text selected, ready to type over."""
        self.show()
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def close_bar(self) -> None:
        self._typing.stop()
        self.hide()
        self.closed.emit()

    def text(self) -> str:
        return self.field.text()

    def submit(self, delta: int) -> None:
        """Enter or a step button: search for new text, else step through the hits."""
        self._typing.stop()
        text = self.field.text()
        if text.strip() and (text != self.results.query or self.results.state == "idle"):
            self.search.emit(text)
        else:
            self.step.emit(delta)

    def refresh(self) -> None:
        r = self.results
        self.status.setText(r.status_text())
        running = r.state == "running"
        self.busy.setVisible(running)
        self.stop_button.setVisible(running)
        if running:
            self.busy.setRange(0, max(r.pages, 1))
            self.busy.setValue(r.searched)
        has_hits = bool(r.hits)
        self.previous.setEnabled(has_hits)
        self.next.setEnabled(has_hits)
        none = r.state == "done" and not r.hits and bool(r.query.strip())
        self.field.setProperty("nothing", none)
        # Nothing found: the field turns pink, its text dark on it in any palette.
        self.field.setStyleSheet(f"QLineEdit {{ background: {NOTICE_ERROR}; color: {INK}; }}"
                                 if none else "")
