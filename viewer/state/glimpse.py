"""A first look at a citations file, before the check process has read it: which document
the window will show first, and the page it will show it at.

The window uses it to paint that page while the check process is still importing what it
needs and reading the file (:mod:`viewer.window.first_paint`). It is a guess, and treated
as one: plain :mod:`json`, no validation, and any surprise (a file too large, not JSON, a
field of the wrong type) gives None, so the window simply waits for the check process,
which reads the file for real and reports what is wrong with it.

>>> import json, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> cite = folder / "a.cite"
>>> _ = cite.write_text(json.dumps({"documents": [{"id": "d", "path": "d.pdf"}],
...     "claims": [{"id": "c1", "evidence": [{"document": "d", "quote": "q", "page": 3}]}]}))
>>> g = glimpse(cite)
>>> g.document == folder.resolve() / "d.pdf", g.page
(True, 2)
>>> glimpse(folder / "missing.cite") is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matcher.files import document_location, read_bounded

# Larger citations files are not glimpsed: parsing one in the GUI thread would delay the
# window by more than the check process's imports it is meant to hide (4 MB of JSON parse
# in ~40 ms), and the check process reads it anyway.
MAX_GLIMPSE_BYTES = 4 * 2**20


@dataclass(frozen=True, slots=True)
class Glimpse:
    """The document the window shows first (where it resolves to) and its 0-based page."""

    document: Path
    page: int


def glimpse(path: Path, claim_id: str | None = None) -> Glimpse | None:
    """The first document of the citations file at ``path`` and the page the claim
    ``claim_id`` (else the first claim) hints at, as the window shows them once the check
    process has read the file (page 0 without a hint); None on any doubt."""
    try:
        data = json.loads(read_bounded(path, limit=MAX_GLIMPSE_BYTES))
        return _read(path, data, claim_id)
    except Exception:  # a guess only: the check process reports what is wrong
        return None


def _read(path: Path, data: Any, claim_id: str | None) -> Glimpse | None:
    documents, claims = data["documents"], data["claims"]
    if not isinstance(documents, list) or not documents or not isinstance(claims, list):
        return None
    ref = documents[0]["path"]
    if not isinstance(ref, str) or not ref:
        return None
    claim = next((c for c in claims if c.get("id") == claim_id), None) if claim_id is not None \
        else (claims[0] if claims else None)
    if claim_id is not None and claim is None:
        return None  # the window will say there is no such claim
    page = _hinted_page(claim, data.get("chunks") or []) if claim is not None else None
    return Glimpse(document_location(path, ref), page - 1 if page is not None else 0)


def _hinted_page(claim: dict[str, Any], chunks: list[Any]) -> int | None:
    """The 1-based page a claim's evidence hints at, by the rule of
    :meth:`viewer.state.session.Session.hinted_page`: its first evidence item's
    ``page``, else the first page of its chunk."""
    chunk_pages = {ch["id"]: ch.get("pages") or [] for ch in chunks}
    for ev in claim["evidence"]:
        pages = [ev["page"]] if ev.get("page") is not None else []
        pages += chunk_pages.get(ev.get("chunk_id") or "", [])
        if pages:
            page = pages[0]
            ok = isinstance(page, int) and not isinstance(page, bool) and page >= 1
            return page if ok else None
    return None
