"""Citeview's annotations on an open PDF: a highlight per placed evidence item, a note
for each item that could not be placed, coloured by what the review made of it.

The highlight colours are light, so that the text under them, which MuPDF paints in
multiply mode, stays black. Colour is never the only sign: each annotation's subject and
note name its outcome in words, for readers who cannot tell the hues apart. The README's
legend shows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pymupdf

from ..state.outcome import Shade
from .geometry import Direction, direction_at, line_quad, transform, upright_direction
from .items import ClaimReview, Item
from .pagetext import line_directions
from .wording import author, note_text

# The highlight colour per drawn outcome (:data:`viewer.state.outcome.DRAWN`, a test holds
# them together) as "#RRGGBB"; "located" is the viewer's own highlight. A wrong place is
# drawn nowhere, as in the window: its note says where the matcher had put it.
HIGHLIGHT_COLORS: dict[Shade, str] = {
    "located": "#FFE066",
    "confirmed": "#8EE3A1",
    "review": "#FFB04D",
    "relocated": "#8FCBFF",
    "differs": "#FFB04D",  # as "review": the quote differs, whatever was decided
}
# The sticky note of an item with no highlight, at the top of the page it was cited on.
NOTE_COLOR = "#C62828"
# Where notes go: this far in from the displayed page's top-left corner (points), one
# below the other so that several on one page never cover each other.
NOTE_INSET_PT, NOTE_STEP_PT = 18.0, 24.0
# Written into every annotation's /NM, so a reader (or the next export) can tell them.
NAME_PREFIX = "citeview:"


@dataclass(frozen=True, slots=True)
class Placed:
    """An item and its claim, as one annotation shows them."""

    item: Item
    claim: ClaimReview


def rgb(color: str) -> tuple[float, float, float]:
    """``#RRGGBB`` as PyMuPDF's (r, g, b) floats in 0..1."""
    return (int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255)


def highlight(page: Any, placed: Placed, lines: list[tuple[tuple[float, float, float,
              float], Direction]] | None = None) -> Any:
    """Add one highlight annotation for a placed item: one quad per line rectangle, each
    ordered along the text line it covers."""
    item = placed.item
    if lines is None:
        lines = line_directions(page)
    fallback = upright_direction(page.rotation)
    quads = [pymupdf.Quad(*line_quad(r, direction_at(r, lines, fallback))) for r in item.rects]
    annot = page.add_highlight_annot(quads=quads)
    annot.set_colors(stroke=rgb(HIGHLIGHT_COLORS[item.shade]))
    _describe(page, annot, placed)
    return annot


def note(page: Any, placed: Placed, slot: int) -> Any:
    """Add a sticky note for an item with no highlight, the ``slot``-th on this page."""
    x, y = NOTE_INSET_PT, NOTE_INSET_PT + slot * NOTE_STEP_PT
    # The point is meant on the page as displayed; annotations take unrotated points.
    ux, uy, _, _ = transform((x, y, x, y), tuple(page.derotation_matrix))
    annot = page.add_text_annot(pymupdf.Point(ux, uy), "", icon="Note")
    annot.set_colors(stroke=rgb(NOTE_COLOR))
    _describe(page, annot, placed)
    return annot


def _describe(page: Any, annot: Any, placed: Placed) -> None:
    item = placed.item
    annot.set_info(title=author(item), content=note_text(item, placed.claim),
                   subject=f"citeview: {item.outcome.replace('_', ' ')}")
    annot.update()
    page.parent.xref_set_key(annot.xref, "NM", pymupdf.get_pdf_str(NAME_PREFIX + item.key))


def note_page(item: Item) -> int | None:
    """The 1-based page a not-placed item's note goes on: the page it was cited on (its
    hint), else the page the matcher had placed it on; None when there is neither."""
    if item.hint_pages:
        return item.hint_pages[0]
    return item.evidence.page


def annotate(doc: Any, placed: Iterable[Placed]) -> int:
    """Add every item's annotation to ``doc`` (all items are on it); returns how many."""
    count = 0
    slots: dict[int, int] = {}
    lines: dict[int, list[tuple[tuple[float, float, float, float], Direction]]] = {}
    for p in placed:
        if p.item.marked:
            number = (p.item.page or 0) - 1
            if not 0 <= number < doc.page_count:
                continue
            page = doc[number]
            if number not in lines:
                lines[number] = line_directions(page)
            highlight(page, p, lines[number])
            count += 1
            continue
        hinted = note_page(p.item)
        if hinted is None or not 1 <= hinted <= doc.page_count:
            continue
        slot = slots.get(hinted - 1, 0)
        slots[hinted - 1] = slot + 1
        note(doc[hinted - 1], p, slot)
        count += 1
    return count
