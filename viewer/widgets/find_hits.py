"""The hit list of a search: one row per hit, its page number and the words around it.

Built from a :class:`~viewer.state.find.FindResults` and kept in step with it: rows are
added as hits stream in (in page order), the current hit is the selected row, and
choosing a row makes that hit current.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QItemSelectionModel,
    QModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyleOptionViewItem,
    QWidget,
)

from ..state.find import FindHit, FindResults
from .items import Index, RowDelegate, RowsModel

HIT_ROLE = Qt.ItemDataRole.UserRole + 1
PAD = 4


class FindHitModel(RowsModel[FindHit]):
    """The results' hits as a list model (reset when a search starts, grown as it runs)."""

    def __init__(self, results: FindResults) -> None:
        super().__init__()
        self.results = results
        self._version = -1
        results.connect(self._sync)

    def _sync(self) -> None:
        # Hits arrive in page order from where the search started, so new ones may go
        # before old ones: a reset is cheap at these sizes and keeps every row right.
        if self.results.version != self._version:
            self._version = self.results.version
            self.set_rows(self.results.hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        hit = self.row_at(index)
        if hit is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"p. {hit.page + 1}  {hit.before} {hit.text} {hit.after}".strip()
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Page {hit.page + 1}: …{hit.before} [{hit.text}] {hit.after}…"
        if role == HIT_ROLE:
            return hit
        return None


class _HitDelegate(RowDelegate):
    """Paints a hit on two lines: the page number and the words found, in bold; below,
    the words around them (the tooltip has all of it)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(160, 2 * QFontMetrics(option.font).lineSpacing() + 2 * PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        hit: FindHit | None = index.data(HIT_ROLE)
        if hit is None:
            return
        opt, role = self.paint_background(painter, option, index)
        painter.save()
        painter.setPen(opt.palette.color(role))
        bold = QFont(opt.font)
        bold.setBold(True)
        line = QFontMetrics(opt.font).lineSpacing()
        box = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        top = QRect(box.left(), box.top(), box.width(), line)
        painter.setFont(bold)
        painter.drawText(top, Qt.AlignmentFlag.AlignLeft, QFontMetrics(bold).elidedText(
            f"p. {hit.page + 1}   {hit.text}", Qt.TextElideMode.ElideRight, box.width()))
        painter.setFont(opt.font)
        context = f"{_tail(hit.before, 2)} ‹…› {hit.after}".strip()
        painter.drawText(top.translated(0, line), Qt.AlignmentFlag.AlignLeft,
                         QFontMetrics(opt.font).elidedText(context, Qt.TextElideMode.ElideRight,
                                                          box.width()))
        painter.restore()


def _tail(text: str, words: int = 3) -> str:
    """The last few words before a hit (the list is narrow; the tooltip has them all)."""
    parts = text.split()
    return ("…" if len(parts) > words else "") + " ".join(parts[-words:])


class FindHitList(QListView):
    """The hits of the search; ``hit_chosen(index)`` when the reader picks one."""

    hit_chosen = Signal(int)

    def __init__(self, results: FindResults, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.results = results
        self.model_ = FindHitModel(results)
        self.setModel(self.model_)
        self.setItemDelegate(_HitDelegate(self))
        self.setUniformItemSizes(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._syncing = False
        results.connect(self._show_current)
        self.clicked.connect(self._picked)
        self.activated.connect(self._picked)
        self.selectionModel().currentChanged.connect(
            lambda current, _previous: self._picked(current))

    def _picked(self, index: QModelIndex) -> None:
        if not self._syncing and index.isValid() and index.row() != self.results.current:
            self.hit_chosen.emit(index.row())

    def _show_current(self) -> None:
        row = self.results.current
        self._syncing = True
        try:
            if 0 <= row < self.model_.rowCount():
                index = self.model_.index(row)
                self.selectionModel().setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
                self.scrollTo(index)
            else:
                self.selectionModel().clearSelection()
        finally:
            self._syncing = False
