"""A validated citations file (the matcher's ``CitationsFile``) as the records the window,
the review and the exports read: one conversion, in the check process and the commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..state.records import Citations


def citations_record(cf: Any, path: str | Path) -> Citations:
    """The window's record of a validated citations file (a ``CitationsFile``), each
    document at the path it resolves to."""
    from matcher.citations import resolve_document_path

    paths = {ref.id: resolve_document_path(path, ref) for ref in cf.documents}
    return Citations.from_json(cf.model_dump(mode="json"), paths)
