"""Page images: render keys, the tile grid, a byte-budgeted cache and the background renderer.

The renderer's only input is a :class:`RenderKey`, an immutable value; the render process
(:mod:`viewer.render.worker`) opens its own copy of the document, so no PyMuPDF object is
ever shared between threads or processes. Work for pages that scrolled away is dropped
before it starts: each :meth:`Renderer.want` call replaces the queue.

This is the only module where the device pixel ratio meets the zoom: images are rendered
at ``scale = zoom × dpr`` pixels per point.
"""

from __future__ import annotations

import logging
import math
import sys
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, QThread, Signal
from PySide6.QtGui import QImage

from .. import children
from . import worker as render_worker
from .page import Page

log = logging.getLogger(__name__)

# Pages whose image is wider or taller than this many device pixels are cut into tiles, so a
# page at 400 % on a HiDPI screen is never one 100-megabyte image.
MAX_TILE = 2048
# Default cache budget: a dozen pages at fit width on a 1280-pixel-wide window, four on a
# HiDPI one. The GUI process starts at ~200 MB (PyMuPDF alone maps ~130 MB), and the
# whole process should stay under 400 MB while scrolling any document.
CACHE_BUDGET_BYTES = 128 << 20
# Requests sent ahead to the worker: two keep it busy while a reply is in transit; more
# would be work that cannot be taken back when the user scrolls on.
MAX_IN_FLIGHT = 2


@dataclass(frozen=True, slots=True)
class DocRef:
    """Which file to render (and how to unlock it); the password never appears in a repr."""

    path: str
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class RenderKey:
    """Everything a tile's pixels depend on: document, page, pixels per point, tile rect."""

    doc: DocRef
    page: int
    scale: float
    tile: tuple[int, int, int, int]  # x, y, w, h in device pixels of the whole page image


@dataclass(frozen=True, slots=True)
class Tile:
    """A rendered tile: the image and where it really starts in the whole page image."""

    key: RenderKey
    image: QImage
    x: int
    y: int

    @property
    def nbytes(self) -> int:
        return int(self.image.sizeInBytes())


def render_scale(page: Page, dpr: float) -> float:
    """Pixels per point of a page image for this page's zoom on a ``dpr`` screen."""
    return round(page.zoom * dpr, 6)


def tile_grid(width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Cut a ``width`` × ``height`` image into near-equal tiles no larger than MAX_TILE."""
    cols = max(1, math.ceil(width / MAX_TILE))
    rows = max(1, math.ceil(height / MAX_TILE))
    tw, th = math.ceil(width / cols), math.ceil(height / rows)
    return [(c * tw, r * th, min(tw, width - c * tw), min(th, height - r * th))
            for r in range(rows) for c in range(cols)]


def tile_rect(origin: QPointF, tile: tuple[int, int, int, int], dpr: float) -> QRectF:
    """Where a tile (device pixels of the page image) is painted, in logical pixels, for a
    page whose top-left is at ``origin``: at its natural size, one image pixel per device
    pixel, so nothing is resampled."""
    x, y, w, h = tile
    return QRectF(origin.x() + x / dpr, origin.y() + y / dpr, w / dpr, h / dpr)


def page_keys(doc: DocRef, page: Page, dpr: float) -> list[RenderKey]:
    """All tile keys of ``page`` at its current zoom on a ``dpr`` screen."""
    scale = render_scale(page, dpr)
    w, h = page.device_size(dpr)
    return [RenderKey(doc, page.index, scale, t) for t in tile_grid(w, h)]


class RenderCache:
    """Least-recently-used tiles within a byte budget, findable by page for interim images."""

    def __init__(self, budget_bytes: int = CACHE_BUDGET_BYTES) -> None:
        self.budget = budget_bytes
        self.nbytes = 0
        self._tiles: OrderedDict[RenderKey, Tile] = OrderedDict()
        self._by_page: dict[tuple[DocRef, int], set[RenderKey]] = {}

    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, key: RenderKey) -> bool:
        return key in self._tiles

    def get(self, key: RenderKey) -> Tile | None:
        """The tile for ``key``, marked as just used."""
        tile = self._tiles.get(key)
        if tile is not None:
            self._tiles.move_to_end(key)
        return tile

    def put(self, tile: Tile) -> None:
        """Store a tile, evicting the least recently used ones beyond the budget."""
        old = self._tiles.pop(tile.key, None)
        if old is not None:
            self.nbytes -= old.nbytes
        self._tiles[tile.key] = tile
        self._by_page.setdefault((tile.key.doc, tile.key.page), set()).add(tile.key)
        self.nbytes += tile.nbytes
        while self.nbytes > self.budget and len(self._tiles) > 1:
            key, gone = self._tiles.popitem(last=False)
            self.nbytes -= gone.nbytes
            self._forget(key)

    def others(self, doc: DocRef, page: int, scale: float) -> list[Tile]:
        """Cached tiles of this page at other scales, the closest scale last (drawn on top)."""
        keys = self._by_page.get((doc, page), ())
        tiles = [self._tiles[k] for k in keys if k.scale != scale]
        tiles.sort(key=lambda t: -abs(math.log(t.key.scale / scale)))
        return tiles

    def clear(self) -> None:
        self._tiles.clear()
        self._by_page.clear()
        self.nbytes = 0

    def _forget(self, key: RenderKey) -> None:
        keys = self._by_page.get((key.doc, key.page))
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_page[(key.doc, key.page)]


class _Reader(QThread):
    """Blocks on the worker's replies (the GIL is released while it waits) and turns each
    into a QImage here, off the GUI thread; the conversion to RGB32 is what makes the
    GUI's ``drawImage`` a plain copy."""

    replied = Signal(object)

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self.setObjectName("citeview-render-reader")
        self._conn = conn

    def run(self) -> None:
        while True:
            try:
                reply = self._conn.recv()
                if reply[0] == "ok":
                    _, job, x, y, w, h, stride = reply
                    data = self._conn.recv_bytes()
                    image = QImage(data, w, h, stride, QImage.Format.Format_RGB888)
                    image = image.convertToFormat(QImage.Format.Format_RGB32)
                    self.replied.emit(("ok", job, x, y, image))
                else:
                    self.replied.emit(reply)
            except (EOFError, OSError):
                return


def _release_big_buffers_promptly() -> None:
    """Have glibc hand freed page images back to the system at once.

    Page images are megabytes each and come and go while scrolling. glibc serves such
    sizes with mmap, but after the first one is freed it raises its mmap threshold to that
    size, and from then on images come from the heap, whose freed holes are rarely given
    back: scrolling a long document then grew the GUI process by ~60 MB beyond the cache
    budget. A fixed threshold keeps every image a separate mapping, returned when freed.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 20)
    except (OSError, AttributeError):  # not glibc (musl, …): nothing to tune
        pass


# mallopt's parameter number for the mmap threshold (malloc.h).
M_MMAP_THRESHOLD = -3


class Renderer(QObject):
    """Renders tiles in a worker process, newest wishes first, into a :class:`RenderCache`."""

    rendered = Signal(object)  # RenderKey
    failed = Signal(object, str)  # RenderKey, message

    def __init__(self, cache: RenderCache | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cache = cache if cache is not None else RenderCache()
        self.errors: dict[RenderKey, str] = {}
        self._pending: list[RenderKey] = []
        self._in_flight: dict[int, RenderKey] = {}
        self._next_job = 0
        self._process: Any = None
        self._conn: Any = None
        self._reader: _Reader | None = None
        _release_big_buffers_promptly()

    # -- the worker process -------------------------------------------------------------
    def _start(self) -> None:
        self._process, self._conn = render_worker.take()
        self._reader = _Reader(self._conn)
        self._reader.replied.connect(self._on_reply)
        self._reader.start()

    def close(self) -> None:
        """Stop the worker and its reader thread (waits at most a few seconds)."""
        self._pending.clear()
        if self._process is None:
            return
        children.stop(self._process, self._conn)
        assert self._reader is not None
        self._reader.wait(int(children.STOP_TIMEOUT_S * 1000))
        self._conn.close()
        self._process = self._conn = self._reader = None
        self._in_flight.clear()

    @property
    def worker_pid(self) -> int | None:
        return None if self._process is None else int(self._process.pid)

    # -- scheduling ---------------------------------------------------------------------
    def want(self, keys: Iterable[RenderKey]) -> None:
        """Render these keys, in this order; anything wanted before and not now is dropped."""
        busy = set(self._in_flight.values())
        self._pending = [k for k in dict.fromkeys(keys)
                         if k not in self.cache and k not in busy and k not in self.errors]
        self._dispatch()

    def is_idle(self) -> bool:
        return not self._pending and not self._in_flight

    def is_pending(self, key: RenderKey) -> bool:
        return key in self._pending or key in self._in_flight.values()

    def _dispatch(self) -> None:
        while self._pending and len(self._in_flight) < MAX_IN_FLIGHT:
            if self._process is None:
                self._start()
            key = self._pending.pop(0)
            job = self._next_job
            self._next_job += 1
            self._in_flight[job] = key
            self._conn.send((job, key.doc.path, key.doc.password, key.page, key.scale, key.tile))

    def _on_reply(self, reply: tuple[Any, ...]) -> None:
        key = self._in_flight.pop(reply[1], None)
        if key is not None:
            if reply[0] == "ok":
                _, _, x, y, image = reply
                self.cache.put(Tile(key, image, x, y))
                self.rendered.emit(key)
            else:
                log.warning("page %d of %s could not be rendered: %s",
                            key.page + 1, key.doc.path, reply[2])
                self.errors[key] = reply[2]
                self.failed.emit(key, reply[2])
        self._dispatch()

    def forget_document(self) -> None:
        """Drop cached tiles and queued work (a new document was opened)."""
        self._pending.clear()
        self.cache.clear()
        self.errors.clear()


def keys_by_distance(pages: Iterable[tuple[Page, list[RenderKey]]], centre_y: float
                     ) -> Iterator[RenderKey]:
    """Keys ordered so the tiles nearest the viewport centre render first."""
    scored: list[tuple[float, int, RenderKey]] = []
    for page, keys in pages:
        for n, key in enumerate(keys):
            scale = key.scale / page.zoom  # device pixels per logical pixel
            mid = page.y + (key.tile[1] + key.tile[3] / 2) / scale
            scored.append((abs(mid - centre_y), n, key))
    scored.sort(key=lambda s: (s[0], s[1]))
    return (k for _, _, k in scored)
