"""Open a PDF once to learn what the viewer needs: usable or why not, and each page's size.

:func:`inspect_pdf` runs in the check process (:mod:`viewer.checker.server`): it imports no Qt,
opens its own document and closes it before returning plain tuples, so no PyMuPDF object
outlives the call. :meth:`Inspection.from_reply` makes the window's record of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ..render.page import PageInfo

DocState = Literal["unknown", "ok", "missing", "empty", "corrupt", "encrypted", "bad_password"]
# One page as inspect_pdf reports it: index, width, height, rotation, rotation matrix
# (PageInfo's fields, as plain values).
PageFacts = tuple[int, float, float, int, tuple[float, float, float, float, float, float]]

# Size given to a page whose page object cannot be read (US Letter, points); the renderer
# then shows that page's error in its place instead of the document failing to open.
FALLBACK_SIZE = (612.0, 792.0)


@dataclass(frozen=True)
class Inspection:
    """What opening a document found."""

    doc_id: str
    path: Path
    state: DocState
    message: str
    pages: tuple[PageInfo, ...] = ()

    @classmethod
    def from_reply(cls, doc_id: str, path: Path,
                   reply: tuple[DocState, str, Sequence[PageFacts]]) -> Inspection:
        from ..render.page import PageInfo

        state, message, pages = reply
        return cls(doc_id, path, state, message, tuple(PageInfo(*p) for p in pages))


def inspect_pdf(path: Path, password: str | None = None
                ) -> tuple[DocState, str, list[PageFacts]]:
    """Open ``path`` and read every page's size and rotation, or say why it cannot be used."""
    from matcher.document import DocumentError, open_pdf

    try:
        doc = open_pdf(path, password=password)
    except DocumentError as exc:
        return exc.kind, exc.detail, []
    pages: list[PageFacts] = []
    try:
        for i in range(doc.page_count):
            try:
                pages.append(page_facts(doc.load_page(i)))
            except Exception:
                w, h = FALLBACK_SIZE
                pages.append((i, w, h, 0, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)))
    finally:
        doc.close()
    return "ok", "", pages


def inspect_document(doc_id: str, path: Path, password: str | None = None) -> Inspection:
    """:func:`inspect_pdf` in this process, as the window's record (tests, scripts)."""
    return Inspection.from_reply(doc_id, path, inspect_pdf(path, password))


def page_facts(page: Any) -> PageFacts:
    """A ``pymupdf.Page``'s size, rotation and rotation matrix as plain values."""
    r, m = page.rect, page.rotation_matrix
    return (page.number, float(r.width), float(r.height), int(page.rotation),
            (float(m.a), float(m.b), float(m.c), float(m.d), float(m.e), float(m.f)))
