"""Open a PDF once to learn what the viewer needs: usable or why not, and each page's size.

Runs on a worker thread (:mod:`viewer.tasks`); it opens its own document and closes it
before returning plain data, so no PyMuPDF object outlives the call or crosses threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matcher.document import DocumentError, open_pdf

from .page import PageInfo
from .session import DocState

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


def inspect_document(doc_id: str, path: Path, password: str | None = None) -> Inspection:
    """Open ``path`` and read every page's size and rotation, or say why it cannot be used."""
    try:
        doc = open_pdf(path, password=password)
    except DocumentError as exc:
        return Inspection(doc_id, path, exc.kind, exc.detail)
    try:
        pages = []
        for i in range(doc.page_count):
            try:
                pages.append(PageInfo.from_pymupdf(doc.load_page(i)))
            except Exception:
                w, h = FALLBACK_SIZE
                pages.append(PageInfo(i, w, h, 0, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)))
    finally:
        doc.close()
    return Inspection(doc_id, path, "ok", "", tuple(pages))
