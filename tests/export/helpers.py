"""Reports to export, made as a user's would be: real PDFs, a real check, then the review
workflow's decisions added as its sidecar contract says (``decide``: a test fixture that
stands in for ``check --review``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pymupdf

from matcher.check import check_citations
from matcher.citations import load_citations
from viewer.checker.citations import citations_record
from viewer.state.records import Citations

REVIEWER = "jdoe"
AT = "2026-12-01T13:00:00Z"


def page_lines(pdf: Path, page: int, *, min_words: int = 5) -> list[str]:
    """The text lines of a page (PyMuPDF's words grouped by block and line) that have at
    least ``min_words`` words, in reading order."""
    with pymupdf.open(pdf) as doc:
        words = doc[page].get_text("words", sort=False)
    lines: dict[tuple[int, int], list[str]] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w[4])
    return [" ".join(ws) for ws in lines.values() if len(ws) >= min_words]


def write_cite(path: Path, documents: Mapping[str, Path],
               evidence: Sequence[tuple[str, str, int | None, str]]) -> Path:
    """A citations file: ``evidence`` is (claim id, document id, 1-based page hint or
    None, quote), one claim each; an extra claim with no evidence at the end."""
    data = {
        "version": 1,
        "documents": [{"id": k, "path": str(v)} for k, v in documents.items()],
        "claims": [{"id": cid, "text": f"Claim {cid} says what its quote says.",
                    "evidence": [{"document": doc, "quote": quote,
                                  **({"page": page} if page is not None else {})}]}
                   for cid, doc, page, quote in evidence]
        + [{"id": "reasoned", "text": "An inference; nothing to quote.", "evidence": []}],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def checked(cite: Path) -> tuple[dict[str, Any], Citations]:
    """The ``check --json`` document of ``cite`` (the real check) and its records."""
    cf = load_citations(cite)
    return check_citations(cf, cite).model_dump(mode="json"), citations_record(cf, cite)


def decide(report: Mapping[str, Any], placements: Mapping[str, Mapping[str, Any]] = {},
           supports: Mapping[str, Mapping[str, Any]] = {}) -> dict[str, Any]:
    """The report with the review's objects as ``check --review`` adds them: a
    ``decision`` (or null) on every evidence item, keyed here ``claim#index``, and a
    ``support`` (or null) on every claim."""
    out = copy.deepcopy(dict(report))
    for claim in out["claims"]:
        s = supports.get(claim["id"])
        claim["support"] = None if s is None else {
            "note": "", "reviewer": REVIEWER, "at": AT, "stale": False, **s}
        for ev in claim["evidence"]:
            d = placements.get(f"{claim['id']}#{ev['index']}")
            ev["decision"] = None if d is None else {
                "page": None, "rects": [], "note": "", "reviewer": REVIEWER, "at": AT,
                "stale": False, **d}
    return out


def evidence(report: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The evidence item ``claim#index`` of a report."""
    claim_id, index = key.rsplit("#", 1)
    claim = next(c for c in report["claims"] if c["id"] == claim_id)
    return dict(claim["evidence"][int(index)])


def drawn(ev: Mapping[str, Any]) -> bool:
    """A report's evidence item is highlighted: placed, and not set aside by a current
    decision (a wrong place or an absent quote is drawn nowhere, as in the window)."""
    d = ev.get("decision") or {}
    rejected = d.get("placement") in ("wrong_place", "absent") and not d.get("stale")
    return ev["status"] in ("located", "review") and not rejected
