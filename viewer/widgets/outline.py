"""The document's outline (its bookmarks) as a tree; clicking an entry shows its page."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from ..checker.protocol import OutlineEntry

PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
POINT_ROLE = Qt.ItemDataRole.UserRole + 2


class OutlineTree(QTreeWidget):
    """The bookmarks of the document shown, nested by level; on a click (or Enter),
    ``place_chosen`` with the bookmark's page and point, else ``page_chosen``."""

    page_chosen = Signal(int)  # 0-based
    place_chosen = Signal(int, object)  # 0-based page, (x, y) in words space

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setUniformRowHeights(True)
        self.itemClicked.connect(self._chosen)
        self.itemActivated.connect(self._chosen)

    def set_entries(self, entries: Sequence[OutlineEntry]) -> None:
        """Show these bookmarks; a level deeper than the one before nests under it."""
        self.clear()
        parents: list[QTreeWidgetItem] = []
        for entry in entries:
            del parents[max(0, entry.level - 1):]
            item = QTreeWidgetItem([entry.title])
            item.setData(0, PAGE_ROLE, entry.page)
            item.setData(0, POINT_ROLE, entry.point)
            if entry.page is not None:
                item.setToolTip(0, f"{entry.title} — page {entry.page + 1}")
            else:
                item.setToolTip(0, f"{entry.title} (points nowhere in this document)")
            if parents:
                parents[-1].addChild(item)
            else:
                self.addTopLevelItem(item)
            parents.append(item)
        self.expandToDepth(0)

    def entry_count(self) -> int:
        count, stack = 0, [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while stack:
            item = stack.pop()
            count += 1
            stack += [item.child(i) for i in range(item.childCount())]
        return count

    def _chosen(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        page, point = item.data(0, PAGE_ROLE), item.data(0, POINT_ROLE)
        if page is not None and point is not None:
            self.place_chosen.emit(int(page), (float(point[0]), float(point[1])))
        elif page is not None:
            self.page_chosen.emit(int(page))
