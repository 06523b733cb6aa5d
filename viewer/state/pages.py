"""Which pages of a document hold evidence, as plain data: what the thumbnails mark.

>>> from viewer.state.records import EvidenceOutcome, ClaimOutcome, Report, Summary
>>> ev = EvidenceOutcome(0, "review", "", document="a", page=3, rects=((0, 0, 1, 1),))
>>> report = Report((ClaimOutcome("c1", (ev,)),), Summary(0, 1, 0, 0, 0))
>>> evidence_pages(report, "a")
{2: 'review'}
"""

from __future__ import annotations

from matcher.vocabulary import PLACED, STATUS_ORDER, EvidenceStatus

from .records import Report


def evidence_pages(report: Report | None, doc_id: str | None) -> dict[int, EvidenceStatus]:
    """Every 0-based page of ``doc_id`` that holds placed evidence of any claim, with the
    worst status placed there (a page that holds a ``review`` item is marked so)."""
    out: dict[int, EvidenceStatus] = {}
    if report is None:
        return out
    for claim in report.claims:
        for ev in claim.evidence:
            if ev.status not in PLACED or ev.page is None or not ev.rects:
                continue
            if doc_id is not None and ev.document != doc_id:
                continue
            page = ev.page - 1
            known = out.get(page)
            if known is None or STATUS_ORDER.index(ev.status) < STATUS_ORDER.index(known):
                out[page] = ev.status
    return out
