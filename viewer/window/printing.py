"""Print pages with their evidence highlights: the whole document, or the claim's pages.

Each page is rendered by the render process (a side queue of the page view's renderer,
so the pages on screen come first) at :data:`PRINT_DPI`, and its highlights are painted
on that image with the page's own transform, in multiply mode as on screen — on the
image, because a printer's or a PDF file's paint engine has no multiply mode. The image
is then printed, fitted to the paper in the page's own orientation. Pages are done one
after another with the event loop running between them, so the window stays usable and
the job can be cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QPointF, QRectF, Signal
from PySide6.QtGui import QColor, QImage, QPageLayout, QPainter
from PySide6.QtPrintSupport import QPrinter

from matcher.vocabulary import Rect

from ..render.highlight import Highlighter
from ..render.page import Page
from ..render.renderer import SideQueue
from ..render.tiles import DocRef, RenderKey, page_keys, tile_rect
from ..state.documents import PageInfo

# Pages are printed from images of this resolution: sharp text on paper, ~9 MB a page.
PRINT_DPI = 200
POINTS_PER_INCH = 72.0
# The cache of a print job's tiles: one page at PRINT_DPI with room to spare.
PRINT_CACHE_BYTES = 48 << 20


@dataclass(frozen=True, slots=True)
class PrintPage:
    """One page to print: its document, its facts, and the rectangles to highlight."""

    doc: DocRef
    info: PageInfo
    rects: tuple[Rect, ...] = ()


class PrintJob(QObject):
    """Prints ``pages`` on ``printer``; ``progressed(done, total)``, then ``finished(ok)``
    (False: cancelled, or the printer refused)."""

    progressed = Signal(int, int)
    finished = Signal(bool)

    def __init__(self, side: SideQueue, printer: QPrinter, pages: Sequence[PrintPage],
                 color: QColor, *, dpi: int = PRINT_DPI, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.side, self.printer, self.pages = side, printer, list(pages)
        self.highlighter = Highlighter(color)
        self.scale = dpi / POINTS_PER_INCH
        self.failed_pages: list[int] = []  # 1-based numbers of pages that did not render
        self._painter: QPainter | None = None
        self._index = 0
        self._keys: list[RenderKey] = []
        self._done = False
        side.rendered.connect(self._arrived)
        side.failed.connect(lambda key, _message: self._arrived(key))

    def start(self) -> None:
        if not self.pages:
            self._finish(True)
            return
        self._request()

    def cancel(self) -> None:
        if not self._done:
            if self._painter is not None:
                self.printer.abort()
            self._finish(False)

    # -- one page after another -----------------------------------------------------------
    def _layout(self, item: PrintPage) -> Page:
        return Page(item.info, zoom=self.scale)

    def _request(self) -> None:
        item = self.pages[self._index]
        self._keys = page_keys(item.doc, self._layout(item), 1.0)
        if self._ready():
            self._print_page()
        else:
            self.side.want(self._keys)

    def _ready(self) -> bool:
        return all(k in self.side.cache or k in self.side.errors for k in self._keys)

    def _arrived(self, key: RenderKey) -> None:
        if not self._done and key in self._keys and self._ready():
            self._print_page()

    def _print_page(self) -> None:
        item = self.pages[self._index]
        image = self._compose(item)
        landscape = image.width() > image.height()
        self.printer.setPageOrientation(QPageLayout.Orientation.Landscape if landscape
                                        else QPageLayout.Orientation.Portrait)
        if self._painter is None:
            self._painter = QPainter()
            if not self._painter.begin(self.printer):
                self._painter = None
                self._finish(False)
                return
        elif not self.printer.newPage():
            self._finish(False)
            return
        area = QRectF(self._painter.viewport())
        k = min(area.width() / image.width(), area.height() / image.height())
        w, h = image.width() * k, image.height() * k
        self._painter.drawImage(QRectF(area.x() + (area.width() - w) / 2,
                                       area.y() + (area.height() - h) / 2, w, h), image)
        self._index += 1
        self.progressed.emit(self._index, len(self.pages))
        if self._index < len(self.pages):
            self._request()
        else:
            self._finish(True)

    def _compose(self, item: PrintPage) -> QImage:
        """The page image with its highlights painted on, as on screen."""
        page = self._layout(item)
        width, height = page.device_size(1.0)
        image = QImage(width, height, QImage.Format.Format_RGB32)
        image.fill(QColor("#FFFFFF"))
        painter = QPainter(image)
        for key in self._keys:
            tile = self.side.cache.get(key)
            if tile is None:
                continue
            at = (tile.x, tile.y, tile.image.width(), tile.image.height())
            painter.drawImage(tile_rect(QPointF(), at, 1.0), tile.image)
        if any(k in self.side.errors for k in self._keys):
            self.failed_pages.append(item.info.index + 1)
        self.highlighter.set_rects({item.info.index: list(item.rects)})
        self.highlighter.paint(painter, item.info.index, page.transform(),
                               QRectF(0, 0, width, height))
        painter.end()
        return image

    def _finish(self, ok: bool) -> None:
        if self._done:
            return
        self._done = True
        self.side.want([])
        self.side.cache.clear()  # printed pages are not looked at again
        if self._painter is not None and self._painter.isActive():
            self._painter.end()
        self._painter = None
        self.finished.emit(ok)
