"""Where to scroll, and how far to zoom out, so that a band of rectangles is in view.

Pure geometry in layout pixels, no widgets: the page view asks these when it reveals a
highlight or a find hit (centred, zoomed out if it does not fit), and after every zoom
change (the band the reader was looking at is kept in view with the least scrolling).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, QSizeF

from matcher.vocabulary import Rect

from .layout import MARGIN, Layout
from .page import Page


def band_rect(page: Page, rects: Sequence[Rect]) -> QRectF:
    """The union of ``rects`` (words space) on ``page``, in layout pixels."""
    band = QRectF()
    for r in rects:
        band = band.united(page.map_rect(r))
    return band


def band_on(layout: Layout | None, band: tuple[int, Sequence[Rect]] | None) -> QRectF:
    """Where ``band`` (a 0-based page and its rectangles) is in ``layout``, in layout
    pixels; an empty rect when there is no band or no such page."""
    if band is None or layout is None or not 0 <= band[0] < len(layout):
        return QRectF()
    return band_rect(layout.pages[band[0]], band[1])


def room(viewport: QSizeF) -> QSizeF:
    """The part of the viewport a band should fit in: all of it but a margin each side."""
    return QSizeF(max(1.0, viewport.width() - 2 * MARGIN),
                  max(1.0, viewport.height() - 2 * MARGIN))


def fitting_zoom(band: QRectF, zoom: float, viewport: QSizeF) -> float | None:
    """A smaller zoom at which ``band`` (laid out at ``zoom``) fits the viewport with its
    margins, or None when it fits already. Never a larger zoom."""
    space = room(viewport)
    if band.isEmpty() or (band.width() <= space.width() and band.height() <= space.height()):
        return None
    return zoom * min(space.width() / band.width(), space.height() / band.height())


def centring_scroll(band: QRectF, viewport: QSizeF, visible: QRectF
                    ) -> tuple[float, float | None]:
    """Scroll values (vertical, horizontal or None to leave it) that centre ``band``: its
    middle at the viewport's middle; a band taller or wider than the room shows its start;
    the horizontal scroll moves only when the band is not in view across."""
    space = room(viewport)
    if band.height() > space.height():
        top = band.top() - MARGIN
    else:
        top = band.center().y() - viewport.height() / 2
    left: float | None = None
    if band.left() < visible.left() or band.right() > visible.right():
        left = (band.left() - MARGIN if band.width() > space.width()
                else band.center().x() - viewport.width() / 2)
    return top, left


def showing_scroll(band: QRectF, visible: QRectF) -> tuple[float | None, float | None]:
    """The least scrolling (vertical, horizontal; None: none needed) that brings ``band``
    into ``visible``: its near edge to the view's edge, or its start when it is bigger."""

    def axis(lo: float, hi: float, view_lo: float, view_hi: float) -> float | None:
        size = view_hi - view_lo
        if lo >= view_lo and hi <= view_hi:
            return None
        if hi - lo > size - 2 * MARGIN or lo < view_lo:
            return lo - MARGIN
        return hi + MARGIN - size

    return (axis(band.top(), band.bottom(), visible.top(), visible.bottom()),
            axis(band.left(), band.right(), visible.left(), visible.right()))
