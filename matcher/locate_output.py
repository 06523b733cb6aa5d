"""The ``citeview locate --json`` result: ``{"status", "page", "score", "reason", "rects",
"found_text", "other_pages", "differences", "word_diff"}`` (pages 1-based), and
``problems`` when the PDF is unusable."""

from __future__ import annotations

from typing import Any

from .document import DocumentError
from .placement import Placement
from .report import word_diff_json


def placement_result(p: Placement) -> dict[str, Any]:
    """What ``locate`` prints for a placement (a page only when the quote was placed)."""
    return {"status": p.status,
            "page": None if p.page is None or not p.placed else p.page + 1,
            "score": p.score, "reason": p.reason, "rects": [list(r) for r in p.rects],
            "found_text": p.found_text, "other_pages": [n + 1 for n in p.other_pages],
            "differences": [d.as_json() for d in p.differences],
            "word_diff": word_diff_json(p.diff)}


def unusable_result(err: DocumentError) -> dict[str, Any]:
    """What ``locate`` prints when the PDF cannot be used: nothing placed, and why."""
    return {"status": "not_located", "page": None, "score": 0.0,
            "reason": f"the document cannot be used: {err.detail}", "rects": [],
            "found_text": None, "other_pages": [], "differences": [], "word_diff": None,
            "problems": [str(err)]}


def result_lines(out: dict[str, Any]) -> list[str]:
    """The readable form of a ``locate`` result: the verdict, its rectangles, the text."""
    where = f"page {out['page']}" if out["page"] else "no page"
    lines = [f"{out['status']} ({where}, score {out['score']:.0f}): {out['reason']}"]
    lines += ["  rect " + ", ".join(f"{v:.1f}" for v in r) for r in out["rects"]]
    if out["found_text"]:
        lines.append(f"  text: {out['found_text']}")
    return lines
