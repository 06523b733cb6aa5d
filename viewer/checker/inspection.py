"""Open a PDF once to learn what the viewer needs: usable or why not, each page's size,
and the SHA-256 of the file's bytes (what a review decision about the document is about).

Runs in the check process (:mod:`viewer.checker.server`): it imports no Qt, opens its own
document through the matcher's one opener and closes it before returning, so no PyMuPDF
object outlives the call; the window receives the plain :class:`Inspection` record.
"""

from __future__ import annotations

from pathlib import Path

from ..render.page_facts import page_info, page_infos
from ..state.documents import Inspection

__all__ = ["inspect_pdf", "page_info", "page_infos"]


def inspect_pdf(path: Path, password: str | None = None) -> Inspection:
    """Open ``path`` and read every page's size and rotation, or say why it cannot be used."""
    from matcher.document import DocumentError, open_pdf

    try:
        doc = open_pdf(path, password=password)
    except DocumentError as exc:
        return Inspection(path, exc.kind, exc.detail, sha256=_hash(path))
    try:
        pages = page_infos(doc)
    finally:
        doc.close()
    return Inspection(path, "ok", "", pages, _hash(path))


def _hash(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, None when they cannot be read (a review decision
    about the document then cannot be confirmed to be about this file)."""
    from matcher.document import file_hash

    try:
        return file_hash(path) if path.is_file() else None
    except OSError:
        return None
