"""A validated citations file (the matcher's ``CitationsFile``) as the records the window,
the review and the exports read: one conversion, in the check process and the commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..state.records import Citations, Report


def citations_record(cf: Any, path: str | Path) -> Citations:
    """The window's record of a validated citations file (a ``CitationsFile``), each
    document at the path it resolves to."""
    from matcher.citations import resolve_document_path

    paths = {ref.id: resolve_document_path(path, ref) for ref in cf.documents}
    # Each claim and chunk dumped as it is read, never the whole file's JSON at once
    # (with the models and the records, that was three copies of a file of 100,000 claims).
    data = {"documents": [d.model_dump(mode="json") for d in cf.documents],
            "claims": (c.model_dump(mode="json") for c in cf.claims),
            "chunks": (ch.model_dump(mode="json") for ch in cf.chunks)}
    return Citations.from_json(data, paths)


def report_record(check: Any) -> Report:
    """The window's record of a check (the matcher's ``CheckReport``), read a claim at a
    time as :func:`citations_record` reads the file."""
    return Report.from_json({"summary": check.summary.model_dump(mode="json"),
                             "claims": (c.model_dump(mode="json") for c in check.claims),
                             "problems": list(check.problems)})
