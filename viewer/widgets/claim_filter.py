"""The bar above the claims list: a search box over claims and quotes, and a filter.

The filter keeps the claims still to decide, those flagged for a person, those decided,
or one status; the search keeps those whose id, text or quotes hold every word typed.
Which claims that leaves is :mod:`viewer.state.claim_filter`'s to say; the bar only
holds the person's choice and says when it changed.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from ..state.claim_filter import FILTER_KINDS, FILTER_WORDS, FilterKind


class ClaimFilterBar(QWidget):
    """A search box and a filter choice for the claims list."""

    changed = Signal()
    done_editing = Signal()  # Enter in the search box: the keys are the page's again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search claims and quotes (/)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search claims and quotes")
        self.search.setToolTip("Search claims and quotes (/): every word typed, in any order")
        self.search.textChanged.connect(lambda _t: self.changed.emit())
        self.search.returnPressed.connect(self.done_editing)
        self.choice = QComboBox()
        self.choice.setAccessibleName("Show claims")
        for kind in FILTER_KINDS:
            self.choice.addItem(FILTER_WORDS[kind], kind)
        self.choice.currentIndexChanged.connect(lambda _i: self.changed.emit())
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 2)
        row.setSpacing(4)
        row.addWidget(self.search, 3)
        row.addWidget(self.choice, 2)

    @property
    def kind(self) -> FilterKind:
        value = self.choice.currentData()
        return next((k for k in FILTER_KINDS if k == value), "all")

    def set_kind(self, kind: FilterKind) -> None:
        self.choice.setCurrentIndex(FILTER_KINDS.index(kind))

    @property
    def query(self) -> str:
        return self.search.text()
