"""Each page's size, rotation and label, read from an open ``pymupdf.Document``.

The one reading of them, for the check process's inspection of a document
(:mod:`viewer.checker.inspection`) and for the render process, which lays out the page the
window shows before that inspection is in (:mod:`.worker`). No Qt, and no import of
PyMuPDF: it is handed PyMuPDF's objects.
"""

from __future__ import annotations

from typing import Any

from ..state.documents import IDENTITY, PageInfo

# Size given to a page whose page object cannot be read (US Letter, points); the renderer
# then shows that page's error in its place instead of the document failing to open.
FALLBACK_SIZE = (612.0, 792.0)


def page_infos(doc: Any) -> tuple[PageInfo, ...]:
    """Every page's size, rotation and label of an open ``pymupdf.Document``."""
    try:
        labelled = bool(doc.get_page_labels())
    except Exception:  # a damaged /PageLabels tree: the pages go by their numbers
        labelled = False
    pages: list[PageInfo] = []
    for i in range(doc.page_count):
        try:
            pages.append(page_info(doc.load_page(i), labelled=labelled))
        except Exception:
            w, h = FALLBACK_SIZE
            pages.append(PageInfo(i, w, h, 0, IDENTITY))
    return tuple(pages)


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
