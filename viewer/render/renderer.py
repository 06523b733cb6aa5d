"""The background renderer: tiles rendered in the render process, into the tile cache.

The renderer's only input is a :class:`~viewer.render.tiles.RenderKey`, an immutable
value; the render process (:mod:`viewer.render.worker`) opens its own copy of the
document, so no PyMuPDF object is ever shared between threads or processes. Work for
pages that scrolled away is dropped before it starts: each :meth:`Renderer.want` call
replaces the queue.

Other users of the same render process (page thumbnails, printing) get a
:class:`SideQueue` of their own: its own wishes, its own cache, its own signals, served
only when the page view wants nothing, so they never delay the pages on screen.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtGui import QImage

from .. import children
from ..state.documents import PageInfo
from . import process as render_process
from .tiles import INTERIM_BUDGET_BYTES, DocRef, RenderCache, RenderKey, Tile

log = logging.getLogger(__name__)
# Of a document's tiles, those last used (the pages in view) are kept as interim pictures
# when another is shown, at half their size (a quarter of the bytes, ~5 ms each to make),
# and small ones (interim renders) as they are: six documents fit INTERIM_BUDGET_BYTES.
KEPT_TILES = 3
KEPT_SMALL_PIXELS = 400 * 600

# Requests sent ahead to the worker: two keep it busy while a reply is in transit; more
# would be work that cannot be taken back when the user scrolls on.
MAX_IN_FLIGHT = 2


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
    pages_read = Signal(object)  # PagesRead: the answer to read_pages

    def __init__(self, cache: RenderCache | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cache = cache if cache is not None else RenderCache()
        self.errors: dict[RenderKey, str] = {}
        self.interim = RenderCache(INTERIM_BUDGET_BYTES)  # see forget_document
        self._pending: list[RenderKey] = []
        self._in_flight: dict[int, tuple[RenderKey, SideQueue | None]] = {}
        self._reading: dict[int, DocRef] = {}  # read_pages requests not yet answered
        self._sides: list[SideQueue] = []
        self._next_job = 0
        self._process: Any = None
        self._conn: Any = None
        self._reader: _Reader | None = None
        # Closed for good: what a view or a side queue asks for afterwards (the idle
        # prefetch of a window being closed) starts no worker and no reader thread again.
        self._closed = False
        _release_big_buffers_promptly()

    # -- the worker process -------------------------------------------------------------
    def _start(self) -> None:
        self._process, self._conn = render_process.take()
        self._reader = _Reader(self._conn)
        self._reader.replied.connect(self._on_reply)
        self._reader.start()

    def ask_to_leave(self) -> None:
        """Tell the worker to leave now, without waiting for it: it exits while the window
        stops its other work, and :meth:`close` then only waits for what is left. Nothing
        is rendered after this."""
        self._closed = True
        self._pending.clear()
        if self._conn is not None:
            try:
                self._conn.send(None)
            except (OSError, ValueError):  # gone already
                pass

    def close(self) -> None:
        """Stop the worker and its reader thread (waits at most a few seconds) for good."""
        self._closed = True
        self._pending.clear()
        for side in self._sides:
            side.pending.clear()
        if self._process is None:
            return
        children.stop(self._process, self._conn)
        assert self._reader is not None
        self._reader.wait(int(children.STOP_TIMEOUT_S * 1000))
        self._conn.close()
        self._process = self._conn = self._reader = None
        self._in_flight.clear()
        self._reading.clear()

    @property
    def worker_pid(self) -> int | None:
        return None if self._process is None else int(self._process.pid)

    def read_pages(self, doc: DocRef) -> None:
        """Have the render process read ``doc``'s pages (sizes, rotations, labels); the
        answer comes as :attr:`pages_read`. Sent ahead of any tile: it is what the page
        view needs to lay out the pages those tiles are for."""
        if self._closed:
            return
        if self._process is None:
            self._start()
        job = self._next_job
        self._next_job += 1
        self._reading[job] = doc
        self._conn.send(("pages", job, doc.path, doc.password))

    # -- scheduling ---------------------------------------------------------------------
    def want(self, keys: Iterable[RenderKey]) -> None:
        """Render these keys, in this order; anything wanted before and not now is dropped."""
        busy = {k for k, side in self._in_flight.values() if side is None}
        self._pending = [k for k in dict.fromkeys(keys)
                         if k not in self.cache and k not in busy and k not in self.errors]
        self._dispatch()

    def side_queue(self, budget_bytes: int) -> SideQueue:
        """A queue of this renderer's process for other work than the page view's, with a
        cache of ``budget_bytes``; served when the view wants nothing."""
        side = SideQueue(self, RenderCache(budget_bytes))
        self._sides.append(side)
        return side

    def is_idle(self) -> bool:
        return not self._pending and not self._in_flight

    def is_pending(self, key: RenderKey) -> bool:
        return key in self._pending or any(k == key and side is None
                                           for k, side in self._in_flight.values())

    def _next(self) -> tuple[RenderKey, SideQueue | None] | None:
        """The next key to render: the view's first, then each side queue's in turn."""
        if self._pending:
            return self._pending.pop(0), None
        for side in self._sides:
            if side.pending:
                return side.pending.pop(0), side
        return None

    def _dispatch(self) -> None:
        while not self._closed and len(self._in_flight) < MAX_IN_FLIGHT:
            wanted = self._next()
            if wanted is None:
                return
            if self._process is None:
                self._start()
            key = wanted[0]
            job = self._next_job
            self._next_job += 1
            self._in_flight[job] = wanted
            self._conn.send((job, key.doc.path, key.doc.password, key.page, key.scale, key.tile))

    def _on_reply(self, reply: tuple[Any, ...]) -> None:
        doc = self._reading.pop(reply[1], None)
        if doc is not None:
            self.pages_read.emit(PagesRead(doc, reply[2] if reply[0] == "pages" else None))
            return
        sent = self._in_flight.pop(reply[1], None)
        if sent is not None:
            key, side = sent
            target = side if side is not None else self
            if reply[0] == "ok":
                _, _, x, y, image = reply
                target.cache.put(Tile(key, image, x, y))
                target.rendered.emit(key)
            else:
                log.warning("page %d of %s could not be rendered: %s",
                            key.page + 1, key.doc.path, reply[2])
                target.errors[key] = reply[2]
                target.failed.emit(key, reply[2])
        self._dispatch()

    def forget_document(self) -> None:
        """Drop cached tiles and queued work (a new document was opened). The tiles are
        kept, within INTERIM_BUDGET_BYTES, as interim pictures only: should their
        document be shown again, they are painted scaled while its pages render anew."""
        self._pending.clear()
        tiles = self.cache.tiles()  # the least recently used first: those in view last
        recent = tiles[-KEPT_TILES:]
        for tile in tiles:
            small = tile.image.width() * tile.image.height() <= KEPT_SMALL_PIXELS
            if small or tile in recent:
                self.interim.put(tile if small else halved(tile))
        self.cache.clear()
        self.errors.clear()


@dataclass(frozen=True, slots=True)
class PagesRead:
    """What the render process read of a document's pages: None if it could not open it
    (the check process's inspection then says why, in the window's words)."""

    doc: DocRef
    pages: tuple[PageInfo, ...] | None


class SideQueue(QObject):
    """Work for the render process besides the page view's (thumbnails, printing): its
    own wishes, cache and signals. Made by :meth:`Renderer.side_queue`."""

    rendered = Signal(object)  # RenderKey
    failed = Signal(object, str)  # RenderKey, message

    def __init__(self, renderer: Renderer, cache: RenderCache) -> None:
        super().__init__(renderer)
        self.renderer = renderer
        self.cache = cache
        self.errors: dict[RenderKey, str] = {}
        self.pending: list[RenderKey] = []

    def want(self, keys: Iterable[RenderKey]) -> None:
        """Render these keys, in this order, after the view's; replaces earlier wishes."""
        busy = {k for k, side in self.renderer._in_flight.values() if side is self}
        self.pending = [k for k in dict.fromkeys(keys)
                        if k not in self.cache and k not in busy and k not in self.errors]
        self.renderer._dispatch()

    def is_idle(self) -> bool:
        return not self.pending and all(side is not self
                                        for _, side in self.renderer._in_flight.values())


def halved(tile: Tile) -> Tile:
    """``tile`` at half its scale: half the pixels each way, smoothly scaled."""
    from PySide6.QtCore import Qt

    w, h = max(1, tile.image.width() // 2), max(1, tile.image.height() // 2)
    image = tile.image.scaled(w, h, Qt.AspectRatioMode.IgnoreAspectRatio,
                              Qt.TransformationMode.SmoothTransformation)
    x, y, _, _ = tile.key.tile
    key = RenderKey(tile.key.doc, tile.key.page, tile.key.scale / 2, (x // 2, y // 2, w, h))
    return Tile(key, image, tile.x // 2, tile.y // 2)
