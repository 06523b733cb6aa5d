"""Labels that keep a panel's layout steady whatever they say.

:class:`LineLabel` is one line, cut with "…" when it is wider than the room it is given
(the whole text is its tooltip); :class:`WrapLabel` wraps and is always as tall as its
lines at the width it has.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


def _bold(widget: QWidget) -> None:
    font = widget.font()
    font.setBold(True)
    widget.setFont(font)


class LineLabel(QLabel):
    """One line of text, cut with "…" when it is wider than the label (the whole text is
    its tooltip and :meth:`text`), so the panel keeps one height whatever it says."""

    def __init__(self, *, bold: bool = False, squeeze: bool = True,
                 elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> None:
        super().__init__()
        self._full = ""
        self._squeeze = squeeze
        self._elide = elide  # where the "…" goes: a path's middle keeps its file name
        self.setTextFormat(Qt.TextFormat.PlainText)
        if squeeze:
            self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        if bold:
            _bold(self)

    def setText(self, text: str, *, tip: str | None = None) -> None:
        """Show ``text``; its tooltip is ``tip``, else the whole text."""
        self._full = text
        self.setToolTip(tip if tip is not None else text)
        self._fit()

    def text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if not self._squeeze:
            super().setText(self._full)
            return
        super().setText(self.fontMetrics().elidedText(self._full, self._elide,
                                                      max(0, self.width())))


class WrapLabel(QLabel):
    """Plain text that wraps to the width it is given, is as tall as its lines at that
    width (whenever the width changes, not only when the panel does), and can be copied."""

    def __init__(self) -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # heightForWidth says -1 for a label without text.
        self.setMinimumHeight(max(0, self.heightForWidth(max(1, self.width()))))
