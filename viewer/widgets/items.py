"""What the lists here share: a model of plain rows, and a delegate that paints the row
background before its own text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QStyleOptionViewItem

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


class RowsModel(QAbstractListModel, Generic[T]):
    """A flat list of plain rows as a Qt model; a subclass says what each role shows."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[T] = []

    def set_rows(self, rows: Iterable[T]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self.rows)

    def row_at(self, index: Index) -> T | None:
        """The row ``index`` points at, or None when it points at none."""
        return self.rows[index.row()] if index.isValid() and 0 <= index.row() < len(self.rows) \
            else None


class RowDelegate(QStyledItemDelegate):
    """A delegate that paints its rows' text itself, over the background Qt paints: the
    row's own style options carry no text (a subclass gives its own ``sizeHint``)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        option.text = ""

    def paint_background(self, painter: QPainter, option: QStyleOptionViewItem, index: Index
                         ) -> tuple[QStyleOptionViewItem, QPalette.ColorRole]:
        """Draw the row's background (selection, hover, focus) without its text; returns
        the row's style options and the colour role its text is painted in.

        Drawn by Qt's own delegate and told selected by the view's selection model (as the
        view itself tells it), never through ``QStyle`` from Python: the first use of that
        class there makes its 11 enums of some 400 members, 9-14 ms of a start-up."""
        super().paint(painter, option, index)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        view = opt.widget
        selection = view.selectionModel() if isinstance(view, QAbstractItemView) else None
        selected = selection is not None and selection.isSelected(index)
        return opt, (QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
