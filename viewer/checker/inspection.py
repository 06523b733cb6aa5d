"""Open a PDF once to learn what the viewer needs: usable or why not, each page's size,
and the SHA-256 of the file's bytes (what a review decision about the document is about).

Runs in the check process (:mod:`viewer.checker.server`): it imports no Qt, opens its own
document through the matcher's one opener and closes it before returning, so no PyMuPDF
object outlives the call; the window receives the plain :class:`Inspection` record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..state.documents import IDENTITY, Inspection, PageInfo

# Size given to a page whose page object cannot be read (US Letter, points); the renderer
# then shows that page's error in its place instead of the document failing to open.
FALLBACK_SIZE = (612.0, 792.0)


def inspect_pdf(path: Path, password: str | None = None) -> Inspection:
    """Open ``path`` and read every page's size and rotation, or say why it cannot be used."""
    from matcher.document import DocumentError, open_pdf

    try:
        doc = open_pdf(path, password=password)
    except DocumentError as exc:
        return Inspection(path, exc.kind, exc.detail, sha256=_hash(path))
    pages: list[PageInfo] = []
    try:
        try:
            labelled = bool(doc.get_page_labels())
        except Exception:  # a damaged /PageLabels tree: the pages go by their numbers
            labelled = False
        for i in range(doc.page_count):
            try:
                pages.append(page_info(doc.load_page(i), labelled=labelled))
            except Exception:
                w, h = FALLBACK_SIZE
                pages.append(PageInfo(i, w, h, 0, IDENTITY))
    finally:
        doc.close()
    return Inspection(path, "ok", "", tuple(pages), _hash(path))


def _hash(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, None when they cannot be read (a review decision
    about the document then cannot be confirmed to be about this file)."""
    from matcher.document import file_hash

    try:
        return file_hash(path) if path.is_file() else None
    except OSError:
        return None


def page_info(page: Any, *, labelled: bool = False) -> PageInfo:
    """A ``pymupdf.Page``'s size, rotation and rotation matrix as plain values, and its
    label when the document has labels (``labelled``)."""
    r, m = page.rect, page.rotation_matrix
    label = ""
    if labelled:
        try:
            label = " ".join(str(page.get_label()).split())
        except Exception:
            label = ""
    return PageInfo(page.number, float(r.width), float(r.height), int(page.rotation),
                    (float(m.a), float(m.b), float(m.c), float(m.d), float(m.e), float(m.f)),
                    label)
