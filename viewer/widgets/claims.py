"""The claims list: each claim's text and a status badge per evidence item.

Three layers, as in a table anywhere: plain rows come from the :class:`Session`, a Qt list
model exposes them, and a delegate paints each one. Selecting a row selects the claim in
the session; selecting a claim in the session (keyboard commands, ``--claim``) selects the
row.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QContextMenuEvent, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QStyleOptionViewItem,
    QWidget,
)

from ..palette import badge_color, distinct, legible
from ..render.area import own_viewport
from ..state.presentation import explain, status_word
from ..state.rows import ClaimRow
from ..state.session import Change, Session
from .items import RowDelegate

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
PAD = 6
BADGE_GAP = 4
TEXT_LINES = 2
# Review tags: slate text and outline (made legible on the row's background, light or dark).
TAG_COLOR = "#37474F"

Index = QModelIndex | QPersistentModelIndex


def accessible_row_text(row: ClaimRow) -> str:
    """What a screen reader says for a claim row: id, text, then its badges in words."""
    badges = ", ".join(dict.fromkeys(status_word(b) for b in row.badges))
    return f"Claim {row.id}: {row.text}. {badges}."


class ClaimListModel(QAbstractListModel):
    """The session's claim rows as a Qt list model (refreshed when the session changes)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self._rows: list[ClaimRow] = session.rows()
        session.changed.connect(self._on_change)

    def _on_change(self, change: Change) -> None:
        if change in ("citations", "report", "documents"):  # a missing one is badged so
            self.beginResetModel()
            self._rows = self.session.rows()
            self.endResetModel()
        elif change == "consistency":  # a claim's badge: its row changes, the list stays
            old, self._rows = self._rows, self.session.rows()
            for k, (was, now) in enumerate(zip(old, self._rows, strict=True)):
                if was != now:
                    self.dataChanged.emit(self.index(k), self.index(k))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{row.id}  {row.text}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.id}: {row.text}\n" + "\n".join(
                explain(b) for b in dict.fromkeys(row.badges))
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.AccessibleTextRole:  # what a screen reader says
            return accessible_row_text(row)
        return None

    def row_of(self, claim_id: str | None) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == claim_id), -1)

    def row(self, i: int) -> ClaimRow:
        return self._rows[i]


class ClaimDelegate(RowDelegate):
    """Paints a claim: its id and text (two lines at most), then its badges."""

    def __init__(self, highlight: QColor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.highlight = QColor(highlight)
        # Short outlined tags after a claim's badges ("✓ decided"), given by the review.
        self.tags: Callable[[str], Sequence[str]] = lambda _claim: ()

    def _badge_font(self, base: QFont) -> QFont:
        font = QFont(base)
        font.setPointSizeF(max(7.0, base.pointSizeF() * 0.85))
        font.setBold(True)
        return font

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        fm = QFontMetrics(option.font)
        bfm = QFontMetrics(self._badge_font(option.font))
        height = PAD + fm.lineSpacing() * TEXT_LINES + BADGE_GAP + bfm.height() + 4 + PAD
        return QSize(200, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row: ClaimRow | None = index.data(ROW_ROLE)
        if row is None:
            return
        opt, role = self.paint_background(painter, option, index)
        painter.save()
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        fm = QFontMetrics(opt.font)
        text_rect = QRect(rect.left(), rect.top(), rect.width(), fm.lineSpacing() * TEXT_LINES)
        painter.setPen(opt.palette.color(role))
        bold = QFont(opt.font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                         row.id)
        id_w = QFontMetrics(bold).horizontalAdvance(row.id + "  ")
        painter.setFont(opt.font)
        first_w = max(10, text_rect.width() - id_w)
        # Fill the first line after the id, the second line whole, elide the rest.
        elided = fm.elidedText(row.text or "(no text)", Qt.TextElideMode.ElideRight,
                               first_w + text_rect.width() - fm.averageCharWidth() * 2)
        first = _fit(fm, elided, first_w)
        painter.drawText(QRect(text_rect.left() + id_w, text_rect.top(), first_w,
                               fm.lineSpacing()), Qt.AlignmentFlag.AlignLeft, first)
        rest = elided[len(first):].lstrip()
        if rest:
            painter.drawText(QRect(text_rect.left(), text_rect.top() + fm.lineSpacing(),
                                   text_rect.width(), fm.lineSpacing()),
                             Qt.AlignmentFlag.AlignLeft,
                             fm.elidedText(rest, Qt.TextElideMode.ElideRight, text_rect.width()))
        selected = role == QPalette.ColorRole.HighlightedText
        background = opt.palette.color(QPalette.ColorRole.Highlight if selected
                                       else QPalette.ColorRole.Base)
        self._paint_badges(painter, row, rect.left(), text_rect.bottom() + BADGE_GAP,
                           rect.right(), opt.font, background)
        painter.restore()

    def _paint_badges(self, painter: QPainter, row: ClaimRow, x: int, y: int, right: int,
                      base: QFont, background: QColor) -> None:
        font = self._badge_font(base)
        fm = QFontMetrics(font)
        painter.setFont(font)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for status in row.badges:
            text = status_word(status)
            w = fm.horizontalAdvance(text) + 10
            if x + w > right:
                painter.setPen(legible(QColor("#555555"), background))
                painter.drawText(QRect(x, y, 20, fm.height() + 4), Qt.AlignmentFlag.AlignLeft, "…")
                break
            box = QRect(x, y, w, fm.height() + 4)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(badge_color(status, self.highlight))
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(QColor("#FFFFFF"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
            x += w + BADGE_GAP
        for tag in self.tags(row.id):  # outlined, never filled: they are not statuses
            w = fm.horizontalAdvance(tag) + 10
            if x + w > right:
                break
            box = QRect(x, y, w, fm.height() + 4)
            painter.setPen(legible(distinct(QColor(TAG_COLOR), self.highlight), background))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(box.adjusted(0, 0, -1, -1), 3, 3)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, tag)
            x += w + BADGE_GAP


def _fit(fm: QFontMetrics, text: str, width: int) -> str:
    """The longest run of whole words from the start of ``text`` that fits ``width``.

    Found by halving: a run is no narrower than a shorter one, and measuring each longer
    run in turn took 135 measurements (7 ms) of the first paint of the demo's claims."""
    if fm.horizontalAdvance(text) <= width:
        return text
    runs = [""]
    for w in text.split(" "):
        runs.append(f"{runs[-1]} {w}" if runs[-1] else w)
    fits, too_wide = 0, len(runs)  # runs[fits] fits (the empty one does); runs[too_wide] not
    while too_wide - fits > 1:
        mid = (fits + too_wide) // 2
        if fm.horizontalAdvance(runs[mid]) <= width:
            fits = mid
        else:
            too_wide = mid
    return runs[fits]


class ClaimList(QListView):
    """The list of claims, built from a session and kept in step with its selection."""

    def __init__(self, session: Session, highlight: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        own_viewport(self)
        self.session = session
        self.model_ = ClaimListModel(session)
        self.delegate = ClaimDelegate(highlight, self)
        self.setModel(self.model_)
        self.setItemDelegate(self.delegate)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setMinimumWidth(200)
        self._syncing = False
        # Each adds its entries to the context menu of a claim, given the claim's id.
        self.menu_parts: list[Callable[[QMenu, str], None]] = []
        self.selectionModel().currentChanged.connect(self._on_current)
        self.model_.modelReset.connect(self._show_selection)
        session.changed.connect(self._on_change)

    def set_highlight(self, color: QColor) -> None:
        self.delegate.highlight = QColor(color)
        self.viewport().update()

    def show_only(self, ids: Collection[str] | None) -> None:
        """Hide every claim not in ``ids`` (None: show them all)."""
        for i in range(self.model_.rowCount()):
            self.setRowHidden(i, ids is not None and self.model_.row(i).id not in ids)

    def visible_ids(self) -> list[str]:
        """The ids of the claims shown, in list order."""
        return [self.model_.row(i).id for i in range(self.model_.rowCount())
                if not self.isRowHidden(i)]

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        claim = self.model_.row(current.row()).id
        if claim != self.session.selected:
            self.session.select(claim)

    def _on_change(self, change: Change) -> None:
        if change == "selection":
            self._show_selection()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        index = self.indexAt(event.pos())
        if not index.isValid():
            return
        menu = QMenu(self)
        for part in self.menu_parts:
            part(menu, self.model_.row(index.row()).id)
        if not menu.isEmpty():
            menu.exec(event.globalPos())

    def _show_selection(self) -> None:
        row = self.model_.row_of(self.session.selected)
        self._syncing = True
        try:
            if row < 0:
                self.selectionModel().clearSelection()
            else:
                index = self.model_.index(row)
                self.selectionModel().setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
                self.scrollTo(index)
        finally:
            self._syncing = False
