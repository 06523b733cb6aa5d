"""The CSV table: one row per evidence item, for a spreadsheet or a script.

RFC 4180: a header row, comma-separated, CRLF line ends, fields quoted when they hold a
comma, quote or line break. UTF-8 with a byte-order mark, which is how Excel knows the
file is UTF-8 (Python reads it back with ``encoding="utf-8-sig"``). A claim that gives no
evidence has one row with an empty ``evidence_index`` and status ``uncited``, so its
support decision is not lost.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and some also
one beginning with a tab or carriage return) as a formula; a quote from an AI answer
must never do that, so such a cell is written with a leading apostrophe, which the
spreadsheet shows as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

from ..state.questions import extra as extra_questions
from .items import ClaimReview, Item, ReviewedReport
from .wording import consistency_line, differences_line
from .writing import utf8

COLUMNS = ("claim_id", "claim_text", "evidence_index", "document", "page", "status", "score",
           "quote", "found_text", "differences", "placement", "support", "note", "reviewer",
           "decided_at", "support_note", "claim_consistency")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
STALE_SUFFIX = " (stale)"  # a placement or support decision no longer applied


def safe_cell(value: object) -> str:
    """``value`` as a cell a spreadsheet shows as text, never runs as a formula.

    >>> safe_cell("=HYPERLINK(\\"http://x\\")"), safe_cell(3), safe_cell(None)
    ('\\'=HYPERLINK("http://x")', '3', '')
    """
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def columns() -> tuple[str, ...]:
    """The header: :data:`COLUMNS`, then one column per further review question."""
    return COLUMNS + tuple(q.id for q in extra_questions())


def csv_table(review: ReviewedReport, *, found: Mapping[str, str]) -> bytes:
    """The table as bytes (UTF-8 with BOM); ``found`` as for the HTML report."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns())
    for claim in review.claims:
        if not claim.items:
            writer.writerow([safe_cell(v) for v in _uncited_row(claim) + _answers(claim, None)])
        for item in claim.items:
            writer.writerow([safe_cell(v) for v in _row(claim, item, found)
                             + _answers(claim, item.evidence.index)])
    return utf8(buffer.getvalue(), encoding="utf-8-sig")


def _consistency(claim: ClaimReview) -> str:
    """``consistent``, ``unchecked``, or ``differs: The claim says …; its evidence says …``."""
    said = consistency_line(claim)
    return f"{claim.consistency.status}: {said}" if said else claim.consistency.status


def _answers(claim: ClaimReview, index: int | None) -> list[object]:
    """Each further question's answer for this row (per claim, or per this item)."""
    out: list[object] = []
    for q in extra_questions():
        a = claim.answer(q.id, None if q.scope == "claim" else index)
        said = a.answer if a is not None else None
        out.append("" if a is None or said is None
                   else said.value + (STALE_SUFFIX if a.stale else ""))
    return out


def _support(claim: ClaimReview) -> tuple[str, str]:
    s = claim.support
    if s is None:
        return "", ""
    return s.support + (STALE_SUFFIX if claim.support_stale else ""), s.note


def _uncited_row(claim: ClaimReview) -> list[object]:
    support, support_note = _support(claim)
    s = claim.support
    return [claim.id, claim.text, "", "", "", "uncited", "", "", "", "", "", support, "",
            s.reviewer if s else "", s.at if s else "", support_note, _consistency(claim)]


def _row(claim: ClaimReview, item: Item, found: Mapping[str, str]) -> list[object]:
    ev, d = item.evidence, item.decision
    support, support_note = _support(claim)
    score = f"{ev.score:.1f}" if ev.score is not None else ""
    placement = d.placement + (STALE_SUFFIX if item.stale else "") if d else ""
    return [claim.id, claim.text, ev.index, ev.document or "",
            item.page if item.page is not None else "", ev.status, score, ev.quote,
            found.get(item.key, ev.found_text or ""), differences_line(item), placement, support,
            d.note if d else "", d.reviewer if d and d.reviewer else "",
            d.at if d and d.at else "", support_note, _consistency(claim)]
