"""Pictures for the HTML report: the page region around a highlight, rendered with it.

The highlight is drawn by the same annotation the annotated PDF carries (added to the
document in memory, rendered, taken off again), so the picture shows exactly what a PDF
reader shows. The document is never saved.
"""

from __future__ import annotations

from typing import Any

import pymupdf

from .annotate import Placed, highlight
from .geometry import around, displayed, union

# Rendered at 144 dpi (2 pixels per point): sharp on a high-density screen and in print.
PICTURE_ZOOM = 2.0
# Never wider than this (pixels), so a wide table row stays a reasonable picture.
MAX_PICTURE_PX = 1600
# Room around the highlight (points): a line or two above and below, some words beside,
# and at least a column's width in all, so the reader sees the quote in its context.
MARGIN_X_PT, MARGIN_Y_PT, MIN_WIDTH_PT = 36.0, 30.0, 360.0


def picture(doc: Any, placed: Placed) -> bytes | None:
    """A PNG of the region around ``placed``'s highlight (None when it has none here)."""
    item = placed.item
    if not item.marked or not 1 <= (item.page or 0) <= doc.page_count:
        return None
    page = doc[(item.page or 1) - 1]
    matrix = tuple(page.rotation_matrix)
    bounds = tuple(page.rect)
    shown = union(displayed(r, matrix) for r in item.rects)
    clip = around(shown, margin_x=MARGIN_X_PT, margin_y=MARGIN_Y_PT,
                  min_width=MIN_WIDTH_PT, bounds=bounds)
    zoom = min(PICTURE_ZOOM, MAX_PICTURE_PX / max(1.0, clip[2] - clip[0]))
    annot = highlight(page, placed)
    try:
        pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=pymupdf.Rect(clip),
                              annots=True, alpha=False)
    finally:
        page.delete_annot(annot)
    return bytes(pix.tobytes("png"))
