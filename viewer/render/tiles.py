"""Page images cut into tiles: render keys, the tile grid, and a byte-budgeted cache.

A :class:`RenderKey` is an immutable value and the renderer's only input; everything a
tile's pixels depend on is in it. This is the only module where the device pixel ratio
meets the zoom: images are rendered at ``scale = zoom × dpr`` pixels per point.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage

from .page import Page

# Pages whose image is wider or taller than this many device pixels are cut into tiles, so a
# page at 400 % on a HiDPI screen is never one 100-megabyte image.
MAX_TILE = 2048
# Default cache budget: a dozen pages at fit width on a 1280-pixel-wide window, four on a
# HiDPI one. The GUI process starts at ~200 MB (PyMuPDF alone maps ~130 MB), and the
# whole process should stay under 400 MB while scrolling any document.
CACHE_BUDGET_BYTES = 128 << 20
# A page with no picture at all yet (a document just switched to) is first rendered at
# this fraction of its scale, whole: a sixteenth of the pixels, ready well before the
# full image and plain enough to read the page's layout by, shown scaled until then.
INTERIM_DIVISOR = 4
# Tiles of the documents shown before are kept this long (bytes) as interim pictures
# for when one is shown again; they are never taken for the rendered page.
INTERIM_BUDGET_BYTES = 24 << 20


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


def interim_key(doc: DocRef, page: Page, dpr: float) -> RenderKey:
    """The whole page at a fraction of its scale (see INTERIM_DIVISOR): one tile."""
    scale = round(render_scale(page, dpr) / INTERIM_DIVISOR, 6)
    w = max(1, math.ceil(page.info.width * scale - 1e-3))
    h = max(1, math.ceil(page.info.height * scale - 1e-3))
    return RenderKey(doc, page.index, scale, tile_grid(w, h)[0])


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

    def others(self, doc: DocRef, page: int, scale: float, *, same: bool = False
               ) -> list[Tile]:
        """Cached tiles of this page at other scales (with ``same``, at this one too), the
        closest scale last (drawn on top)."""
        keys = self._by_page.get((doc, page), ())
        tiles = [self._tiles[k] for k in keys if same or k.scale != scale]
        tiles.sort(key=lambda t: -abs(math.log(t.key.scale / scale)))
        return tiles

    def tiles(self) -> list[Tile]:
        """Every cached tile, the least recently used first."""
        return list(self._tiles.values())

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


def wanted_keys(doc: DocRef, pages: Sequence[Page], visible: Sequence[Page],
                missing: Iterable[tuple[Page, list[RenderKey]]], dpr: float,
                centre_y: float) -> list[RenderKey]:
    """What to render next: the ``missing`` tiles in view, nearest the centre first, then
    the whole pages just above and below the ``visible`` ones."""
    wanted = list(keys_by_distance(missing, centre_y))
    if visible:
        around = [pages[i] for i in (visible[-1].index + 1, visible[0].index - 1)
                  if 0 <= i < len(pages)]
        wanted += [k for p in around for k in page_keys(doc, p, dpr)]
    return wanted
