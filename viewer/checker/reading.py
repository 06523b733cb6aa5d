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


def read_outline(path: Path, password: str | None = None) -> tuple[OutlineEntry, ...]:
    """The PDF's bookmarks in order (level, title, 0-based page); () when it has none.

    Raises :class:`~matcher.document.DocumentError` when the PDF cannot be opened.
    """
    from matcher.document import open_pdf

    doc = open_pdf(path, password=password)
    try:
        try:
            toc = doc.get_toc(simple=True)
        except Exception:  # a damaged outline is no outline, not a failed document
            return ()
        out = []
        for level, title, page in toc[:MAX_OUTLINE]:
            number = int(page) - 1
            out.append(OutlineEntry(int(level), " ".join(str(title).split()) or "(untitled)",
                                    number if 0 <= number < doc.page_count else None))
        return tuple(out)
    finally:
        doc.close()


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
