"""Tiny PDF builders for tests: text pieces placed at known points (Helvetica)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf

# (text, x, y) in points, placed on the page's top-left origin; baseline at y.
Placed = tuple[str, float, float]


def write_pdf(path: Path, pages: Sequence[Sequence[Placed]], *, fontsize: float = 10,
              rotation: int = 0, size: tuple[float, float] = (612, 792)) -> Path:
    """Write a PDF with the given text pieces per page (Helvetica, one insert per piece)."""
    doc = pymupdf.open()
    for pieces in pages:
        page = doc.new_page(width=size[0], height=size[1])
        for text, x, y in pieces:
            page.insert_text((x, y), text, fontsize=fontsize, fontname="helv")
        if rotation:
            page.set_rotation(rotation)
    doc.save(path)
    doc.close()
    return path


def paragraph(lines: Sequence[str], *, x: float = 72, y: float = 100, leading: float = 13
              ) -> list[Placed]:
    """Lines of a paragraph, one below the other."""
    return [(ln, x, y + i * leading) for i, ln in enumerate(lines)]
