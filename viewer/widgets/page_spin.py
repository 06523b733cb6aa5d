"""The page number box that also speaks the document's page labels.

A PDF may label its pages ("i", "ii", … "xi" for the front matter, then "1", "2"): the
box shows the page in view by its label with its number beside it ("xi (11)"), and takes
either. What is typed is read as a label first (a page labelled exactly so, ignoring
case), then as a page number; "xi (11)" as shown is read as its number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QSpinBox, QWidget

_SHOWN = re.compile(r"^.*\((\d+)\)\s*$")  # "xi (11)": the number in brackets


class PageSpinBox(QSpinBox):
    """A QSpinBox of 1-based page numbers that shows and reads page labels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._labels: list[str] = []
        self._by_label: dict[str, int] = {}

    def set_labels(self, labels: Sequence[str]) -> None:
        """The pages' labels in order ("" for a page without one; all "" for none)."""
        labels = list(labels)
        if labels == self._labels:
            return
        self._labels = labels
        self._by_label = {}
        for n, label in enumerate(labels, 1):
            if label:
                self._by_label.setdefault(label.casefold(), n)
        self.setAccessibleDescription(
            "Type a page number or a page label, then Enter" if self._by_label
            else "Type a page number, then Enter")
        self.lineEdit().setText(self.textFromValue(self.value()))
        self.updateGeometry()

    def label_of(self, value: int) -> str:
        """The label of 1-based page ``value`` where it says more than its number."""
        if 1 <= value <= len(self._labels):
            label = self._labels[value - 1]
            if label and label != str(value):
                return label
        return ""

    def page_for(self, text: str) -> int | None:
        """The 1-based page ``text`` names: a label, a number, or "label (number)"."""
        text = text.strip()
        if not text:
            return None
        found = self._by_label.get(text.casefold())
        if found is not None:
            return found
        shown = _SHOWN.match(text)
        if shown is not None:
            text = shown.group(1)
        if text.isdigit():
            return int(text)
        return None

    def textFromValue(self, value: int) -> str:
        label = self.label_of(value)
        return f"{label} ({value})" if label else str(value)

    def valueFromText(self, text: str) -> int:
        page = self.page_for(text)
        return page if page is not None else self.value()

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        page = self.page_for(text)
        if page is not None and self.minimum() <= page <= self.maximum():
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Intermediate, text, pos
