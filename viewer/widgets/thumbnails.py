"""Page thumbnails: a column of small page images, the evidence pages marked.

Thumbnails are rendered lazily by the render process, through a side queue of the page
view's renderer (:class:`~viewer.render.renderer.SideQueue`): only the rows painted ask
for their image, after the pages on screen are served, and a cache of their own keeps
them. A page with placed evidence carries a corner mark in its status's badge colour;
the pages of the selected claim are framed. Clicking a thumbnail shows its page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyleOptionViewItem,
    QWidget,
)

from matcher.vocabulary import EvidenceStatus

from ..palette import badge_color
from ..render.area import own_viewport
from ..render.page import Page
from ..render.renderer import Renderer
from ..render.tiles import DocRef, RenderKey, page_keys
from ..render.view import paint_page_image
from ..state.documents import PageInfo
from .items import Index, RowDelegate, RowsModel

# The box a thumbnail is fitted into (logical pixels): wide enough to tell a form from a
# letter, small enough that a 500-page document's images stay within the cache.
THUMB_W, THUMB_H = 112, 146
# Their cache: about 150 thumbnails at a device pixel ratio of 2.
THUMB_CACHE_BYTES = 16 << 20
LABEL_H, PAD = 18, 6
FRAME_PX, MARK_PX = 3, 12
# Behind the thumbnails, as behind the pages: white paper shows on it.
DESK = QColor("#C9CDD2")
EDGE = QColor("#7A8088")



class ThumbnailModel(RowsModel[Page]):
    """One row per page of the document shown, laid out at its thumbnail's zoom."""

    @property
    def pages(self) -> list[Page]:
        return self.rows

    def set_pages(self, infos: Sequence[PageInfo], turn: int) -> None:
        pages = []
        for info in infos:
            page = Page(info, turn=turn)
            page.zoom = min(THUMB_W / page.width, THUMB_H / page.height)
            pages.append(page)
        self.set_rows(pages)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        page = self.row_at(index)
        if page is not None and role in (Qt.ItemDataRole.DisplayRole,
                                         Qt.ItemDataRole.AccessibleTextRole):
            return f"Page {page.index + 1}"
        return None


class ThumbnailList(QListView):
    """The thumbnails of the document shown; ``page_chosen`` when one is clicked."""

    page_chosen = Signal(int)  # 0-based

    def __init__(self, renderer: Renderer, highlight: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        own_viewport(self)
        self.side = renderer.side_queue(THUMB_CACHE_BYTES)
        self.highlight = QColor(highlight)
        self.doc: DocRef | None = None
        self.marks: dict[int, EvidenceStatus] = {}  # page → worst placed status there
        self.selected_pages: dict[int, EvidenceStatus] = {}  # the selected claim's
        self.model_ = ThumbnailModel()
        self.setModel(self.model_)
        self.setItemDelegate(_Delegate(self))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(THUMB_W + 2 * PAD + 20)
        pal = self.viewport().palette()
        pal.setColor(QPalette.ColorRole.Base, DESK)
        self.viewport().setPalette(pal)
        self.side.rendered.connect(self._on_rendered)
        self.side.failed.connect(lambda key, _m: self._on_rendered(key))
        self.clicked.connect(lambda index: self.page_chosen.emit(index.row()))
        self.activated.connect(lambda index: self.page_chosen.emit(index.row()))

    def set_document(self, doc: DocRef | None, pages: Sequence[PageInfo], turn: int = 0
                     ) -> None:
        self.doc = doc
        self.model_.set_pages(pages if doc is not None else (), turn)

    def set_marks(self, marks: Mapping[int, EvidenceStatus],
                  selected: Mapping[int, EvidenceStatus]) -> None:
        """Mark the pages holding evidence, and frame those of the selected claim."""
        self.marks, self.selected_pages = dict(marks), dict(selected)
        self.viewport().update()

    def set_highlight(self, color: QColor) -> None:
        self.highlight = QColor(color)
        self.viewport().update()

    def set_current(self, page: int) -> None:
        """Follow the page view's current page, without showing it again."""
        if not 0 <= page < self.model_.rowCount():
            return
        index = self.model_.index(page)
        self.setCurrentIndex(index)  # pages are chosen by clicks, not by this
        self.scrollTo(index)

    def missing_in_view(self) -> list[RenderKey]:
        """The tiles of the thumbnails in view not rendered yet, top to bottom."""
        if self.doc is None:
            return []
        dpr = self.viewport().devicePixelRatioF()
        area = self.viewport().rect()
        return [k for row, page in enumerate(self.model_.pages)
                if self.visualRect(self.model_.index(row)).intersects(area)
                for k in page_keys(self.doc, page, dpr)
                if k not in self.side.cache and k not in self.side.errors]

    def is_settled(self) -> bool:
        """Every thumbnail in view is rendered (or failed for good)."""
        return not self.missing_in_view()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        # Whatever part was painted, the wish is every thumbnail in view (a paint of one
        # row must not drop the others' requests); rows scrolled away are dropped.
        self.side.want(self.missing_in_view())

    def _on_rendered(self, key: RenderKey) -> None:
        if key.doc == self.doc and 0 <= key.page < self.model_.rowCount():
            self.update(self.model_.index(key.page))


class _Delegate(RowDelegate):
    """Paints one thumbnail: paper and image, the page number, the evidence marks."""

    def __init__(self, owner: ThumbnailList) -> None:
        super().__init__(owner)
        self.owner = owner

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        pages = self.owner.model_.pages
        height = pages[index.row()].height if 0 <= index.row() < len(pages) else THUMB_H
        return QSize(THUMB_W + 2 * PAD, int(height) + LABEL_H + 2 * PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        owner, row = self.owner, index.row()
        if owner.doc is None or not 0 <= row < len(owner.model_.pages):
            return
        opt, _role = self.paint_background(painter, option, index)
        page = owner.model_.pages[row]
        page.x = opt.rect.left() + (opt.rect.width() - round(page.width)) // 2
        page.y = opt.rect.top() + PAD
        dpr = owner.viewport().devicePixelRatioF()
        target = page.transform().mapRect(page.words_box())
        view = QRectF(owner.viewport().rect())
        paint_page_image(painter, owner.side, owner.doc, page, QPointF(), dpr, view, target)
        painter.save()
        painter.setPen(QPen(EDGE, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(target.adjusted(-0.5, -0.5, 0.5, 0.5))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        status = owner.selected_pages.get(row)
        if status is not None:
            painter.setPen(QPen(badge_color(status, owner.highlight), FRAME_PX))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(target.adjusted(-1, -1, 1, 1))
        mark = owner.marks.get(row)
        if mark is not None:
            corner = target.topRight()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(badge_color(mark, owner.highlight))
            painter.drawPolygon(QPolygonF([corner, corner + QPointF(-MARK_PX, 0),
                                           corner + QPointF(0, MARK_PX)]))
        painter.setPen(opt.palette.color(opt.palette.ColorRole.Text))
        label = QRect(opt.rect.left(), round(target.bottom()) + 2, opt.rect.width(), LABEL_H)
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, str(row + 1))
        painter.restore()

