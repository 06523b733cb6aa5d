"""Small reads of a PDF the window asks for: its outline, and a quote placed on given pages.

Runs in the check process, no Qt. Each call opens the document through the matcher's one
opener and closes it before returning, so no PyMuPDF object outlives it; what goes back
is plain data.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from matcher.vocabulary import PLACED, Rect

from .protocol import OutlineEntry

# Bookmarks read at most: an outline longer than this is a generated index, not a guide.
MAX_OUTLINE = 5000


GOTO = 1  # PyMuPDF's LINK_GOTO: a destination in this document


def read_outline(path: Path, password: str | None = None) -> tuple[OutlineEntry, ...]:
    """The PDF's bookmarks in order (level, title, 0-based page); () when it has none.

    Raises :class:`~matcher.document.DocumentError` when the PDF cannot be opened.
    """
    from matcher.document import open_pdf

    doc = open_pdf(path, password=password)
    try:
        try:
            toc = doc.get_toc(simple=False)
        except Exception:  # a damaged outline is no outline, not a failed document
            return ()
        out = []
        for level, title, page, *dest in toc[:MAX_OUTLINE]:
            number = int(page) - 1
            inside = 0 <= number < doc.page_count
            out.append(OutlineEntry(int(level), " ".join(str(title).split()) or "(untitled)",
                                    number if inside else None,
                                    destination_point(dest[0] if dest else None)
                                    if inside else None))
        return tuple(out)
    finally:
        doc.close()


def destination_point(dest: object) -> tuple[float, float] | None:
    """The point a bookmark's destination goes to on its page, in words space (MuPDF
    gives it from the unrotated page's top-left); None when it names none (the top)."""
    if not isinstance(dest, dict) or dest.get("kind") != GOTO:
        return None
    to = dest.get("to")
    try:
        x, y = float(to.x), float(to.y)  # type: ignore[union-attr]
    except (AttributeError, TypeError, ValueError):
        return None
    if not (x == x and y == y) or (x, y) == (0.0, 0.0):  # NaN, or nothing said
        return None
    return x, y


def place_on_pages(path: Path, quote: str, pages: Iterable[int], *,
                   password: str | None = None) -> dict[int, tuple[Rect, ...]]:
    """Place ``quote`` on each 0-based page of ``pages``; the rectangles of those it is
    placed on (located or review), exactly as a check would place it there."""
    from matcher.document import PdfSource
    from matcher.ocr.store import OcrStore
    from matcher.placement import place_on_page

    out: dict[int, tuple[Rect, ...]] = {}
    with PdfSource(path, password=password, ocr=OcrStore.default()) as source:
        for n in dict.fromkeys(pages):
            if not 0 <= n < source.page_count:
                continue
            placement = place_on_page(source.page_words(n), quote)
            if placement.status in PLACED and placement.rects:
                out[n] = tuple(placement.rects)
    return out
