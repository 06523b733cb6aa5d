"""Stack the pages vertically, centred, and choose the zoom (fixed, fit width, fit page).

Positions are whole logical pixels; sizes keep their fraction, so a page's painted rect is
exactly its points × zoom (see :class:`viewer.render.page.Page`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from enum import Enum

from PySide6.QtCore import QRectF

from ..state.documents import PageInfo
from .page import Page

# Space around the document and between pages, in logical pixels.
MARGIN = 12
GAP = 10
# Zoom limits: below 10 % a page is a smudge; above 800 % one word fills the screen.
MIN_ZOOM = 0.1
MAX_ZOOM = 8.0
# Zooms are rounded to this step, so the zoom a page is laid out at and the zoom its image
# is rendered at (part of the render key) are the same number, not two nearby floats.
ZOOM_STEP = 1e-4


class ZoomMode(Enum):
    FIXED = "fixed"
    FIT_WIDTH = "width"
    FIT_PAGE = "page"


def clamp_zoom(zoom: float, *, down: bool = False) -> float:
    """Clamp to the zoom limits and round to :data:`ZOOM_STEP` (``down``: never up, so a
    page fitted to a width is never a pixel wider than it)."""
    z = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
    steps = math.floor(z / ZOOM_STEP + 1e-9) if down else round(z / ZOOM_STEP)
    return round(steps * ZOOM_STEP, 6)


class Layout:
    """The pages of one document and where they sit for a given viewport size and zoom."""

    def __init__(self, infos: Sequence[PageInfo], *, turn: int = 0,
                 facing: bool = False) -> None:
        """``turn``: the reader's view rotation (clockwise degrees, a multiple of 90);
        ``facing``: two pages side by side (1–2, 3–4, …), as a book lies open."""
        self.turn = turn % 360
        self.facing = facing and len(infos) > 1
        self.pages: list[Page] = [Page(info, turn=self.turn) for info in infos]
        self.mode = ZoomMode.FIT_WIDTH
        self.zoom = 1.0
        self.width = 0
        self.height = 0
        self._tops: list[int] = []
        # Pages are at zoom 1 here: their painted size is their size in points, turned.
        self._max_w = max((p.width for p in self.pages), default=1.0)
        self._max_h = max((p.height for p in self.pages), default=1.0)

    def __len__(self) -> int:
        return len(self.pages)

    def zoom_for(self, mode: ZoomMode, viewport_w: int, viewport_h: int) -> float:
        """The zoom ``mode`` asks for in a viewport of this size (FIXED keeps the zoom)."""
        # Two pages a row: twice the width, less the gap between them (whole pixels, and
        # a pixel each for rounding each page up).
        room = viewport_w - 2 * MARGIN - ((GAP + 2) if self.facing else 0)
        across = 2 * self._max_w if self.facing else self._max_w
        if mode is ZoomMode.FIT_WIDTH:
            return clamp_zoom(room / across, down=True)
        if mode is ZoomMode.FIT_PAGE:
            return clamp_zoom(min(room / across,
                                  (viewport_h - 2 * MARGIN) / self._max_h), down=True)
        return self.zoom

    def set_zoom(self, zoom: float) -> None:
        """Switch to a fixed zoom (call :meth:`update` afterwards)."""
        self.mode = ZoomMode.FIXED
        self.zoom = clamp_zoom(zoom)

    def update(self, viewport_w: int, viewport_h: int) -> None:
        """Recompute the zoom (for fit modes) and every page position."""
        self.zoom = self.zoom_for(self.mode, viewport_w, viewport_h)
        widest = _whole(self._max_w * self.zoom)
        across = 2 * widest + GAP if self.facing else widest
        self.width = max(viewport_w, across + 2 * MARGIN)
        y = MARGIN
        self._tops = []
        step = 2 if self.facing else 1
        for start in range(0, len(self.pages), step):
            row = self.pages[start:start + step]
            for page in row:
                page.zoom = self.zoom
            if len(row) == 2:  # the left page's right edge and the right page's left
                middle = self.width // 2  # edge meet at the middle, a gap between
                row[0].x = middle - GAP // 2 - _whole(row[0].width)
                row[1].x = middle + GAP - GAP // 2
            else:
                row[0].x = (self.width - _whole(row[0].width)) // 2
            for page in row:
                page.y = y
                self._tops.append(y)
            y += max(_whole(p.height) for p in row) + GAP
        self.height = y - GAP + MARGIN if self.pages else 2 * MARGIN

    def _row_start(self, i: int) -> int:
        """The first page of the row page ``i`` is in."""
        return i - (i % 2) if self.facing else i

    def pages_in(self, rect: QRectF) -> list[Page]:
        """Pages that intersect ``rect`` (layout pixels), top to bottom: that share some
        of its area, as ``QRectF.intersects`` counts it (a page that only touches an edge
        is not in it)."""
        if not self.pages:
            return []
        i = self._row_start(max(0, bisect.bisect_right(self._tops, rect.top()) - 1))
        out: list[Page] = []
        for page in self.pages[i:]:
            if page.y >= rect.bottom():
                break
            if page.y + page.height > rect.top() and (
                    not self.facing or (page.x < rect.right()
                                        and page.x + page.width > rect.left())):
                out.append(page)
        return out

    def top_of(self, index: int) -> int:
        """Where a view showing page ``index`` from its top starts (layout pixels): the
        margin above the first row, the gap above any other, and nothing of the row
        before (which ends that gap above)."""
        page = self.pages[index]
        return int(page.y - (MARGIN if page.y == self.pages[0].y else GAP))

    def page_at(self, y: float, x: float | None = None) -> Page | None:
        """The page under layout height ``y`` (and, two pages a row, across at ``x``;
        without it the row's first), or the nearest one when ``y`` is in a gap."""
        if not self.pages:
            return None
        i = self._row_start(max(0, bisect.bisect_right(self._tops, y) - 1))
        page = self.pages[i]
        step = 2 if self.facing else 1
        bottom = max(p.y + p.height for p in self.pages[i:i + step])
        if y > bottom and i + step < len(self.pages):
            nxt = self.pages[i + step]
            if nxt.y - y < y - bottom:
                i, page = i + step, nxt
        if self.facing and x is not None and i + 1 < len(self.pages) \
                and self.pages[i + 1].y == page.y and x > (page.x + page.width
                                                            + self.pages[i + 1].x) / 2:
            return self.pages[i + 1]
        return page


def _whole(pixels: float) -> int:
    """Whole pixels needed for a length (ignoring float noise such as 762.0000000001)."""
    return math.ceil(pixels - 1e-6)
