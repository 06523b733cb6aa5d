"""A bar above the pages for what the reader must know or do next.

Used for a document that is missing (with a button to locate it), locked (a button to
enter the password) or unreadable, for the offer to recognise a scanned page ("this page
has no text yet", with a button), and for what went wrong: one sentence, a few buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from ..palette import INK, notice_color

Action = tuple[str, Callable[[], None]]


class NoticeBar(QFrame):
    """One sentence and up to a few buttons; hidden when there is nothing to say."""

    def __init__(self, highlight: QColor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._highlight = QColor(highlight)
        self.setObjectName("notice")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAutoFillBackground(True)
        self._label = QLabel()
        self._label.setWordWrap(True)
        self._label.setTextFormat(self._label.textFormat().PlainText)
        self._label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(10, 6, 10, 6)
        self._row.addWidget(self._label, 1)
        self._buttons: list[QPushButton] = []
        self.kind = "info"
        self.hide()

    def text(self) -> str:
        return self._label.text()

    def buttons(self) -> list[QPushButton]:
        return list(self._buttons)

    def show_notice(self, text: str, *, kind: str = "info",
                    actions: Sequence[Action] = ()) -> None:
        """Show ``text`` ("info" or "error") with a button per ``(label, callback)``."""
        self.kind = kind
        self._label.setText(text)
        for b in self._buttons:
            self._row.removeWidget(b)
            b.deleteLater()
        self._buttons = []
        for label, callback in actions:
            button = QPushButton(label)
            button.clicked.connect(lambda _checked=False, cb=callback: cb())
            self._row.addWidget(button)
            self._buttons.append(button)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Window, notice_color(kind, self._highlight))
        pal.setColor(QPalette.ColorRole.WindowText, QColor(INK))
        self.setPalette(pal)
        self.show()

    def set_highlight(self, highlight: QColor) -> None:
        self._highlight = QColor(highlight)
        if self.isVisible():
            self.show_notice(self.text(), kind=self.kind)

    def clear(self) -> None:
        self._label.setText("")
        self.hide()
