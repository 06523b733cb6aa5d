"""What the lists here share: a model of plain rows, and the row background a delegate
paints before its own text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

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


def paint_background(delegate: QStyledItemDelegate, painter: QPainter,
                     option: QStyleOptionViewItem, index: Index
                     ) -> tuple[QStyleOptionViewItem, QPalette.ColorRole]:
    """Draw the row's background (selection, hover) without its text, which the delegate
    paints itself; returns the option and the colour role its text is painted in."""
    opt = QStyleOptionViewItem(option)
    delegate.initStyleOption(opt, index)
    opt.text = ""
    style = opt.widget.style() if opt.widget is not None else None
    if style is not None:
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
    selected = bool(opt.state & QStyle.StateFlag.State_Selected)
    return opt, (QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
