"""What is read of a citations file before it is validated: the size limit it is read
under, and the documents it names. Standard library only (and :mod:`.files`), so the
window's check process can tell a file reopened unchanged without importing pydantic."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .files import MB, document_location

# The largest citations file read, unless raised with ``--max-size`` or the environment
# variable below. A real answer's file (hundreds of chunks of ~1,500 characters) is a few
# MB; loading costs up to ~30 times the file's size in memory when it is mostly tiny
# claims, so 64 MB keeps a hostile or runaway file to ~2 GB rather than exhausting the
# machine, while leaving room for files ten times larger than any seen.
DEFAULT_SIZE_LIMIT = 64 * MB
SIZE_LIMIT_ENV = "CITEVIEW_MAX_CITATIONS_MB"


def size_limit() -> int:
    """The largest citations file read: ``$CITEVIEW_MAX_CITATIONS_MB`` MB, else 64 MB."""
    raw = os.environ.get(SIZE_LIMIT_ENV, "").strip()
    try:
        mb = float(raw) if raw else 0.0
    except ValueError:
        mb = 0.0
    return int(mb * MB) if mb > 0 else DEFAULT_SIZE_LIMIT


def document_refs(path: Path | str, data: bytes) -> list[tuple[str, str]]:
    """Each ``(id, path)`` of the documents the citations file ``path`` (holding ``data``)
    lists, read without validating the file: the path as :func:`document_location` finds
    it, with its links resolved (so one PDF reached by two paths is one document); none
    if the bytes are not a JSON object with a list of documents."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return []
    refs = doc.get("documents") if isinstance(doc, dict) else None
    if not isinstance(refs, list):
        return []
    return [(str(r.get("id")), os.path.realpath(document_location(path, r["path"])))
            for r in refs if isinstance(r, dict) and isinstance(r.get("path"), str)]
