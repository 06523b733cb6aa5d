"""What the claims list and the detail pane show, as plain rows built from the records.

A :class:`ClaimRow` is a claim with one badge per evidence item; an :class:`EvidenceView`
is one evidence item with the sentence the detail pane says about it. Both are made from
the citations file and the report (the report may not have arrived yet: "checking…").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from matcher.vocabulary import FLAGGED, STATUS_ORDER, EvidenceStatus, Rect

from .presentation import BadgeStatus, evidence_sentence
from .records import Citations, Difference, EvidenceOutcome, Report, WordDiff, reading_key

# Worst first, as a badge summarises a claim: the evidence order, with "pending" before
# "located" (not known to be fine yet) and "uncited" last (nothing to look at).
# A missing document comes right after "rejected": the file must be found before anything
# else can be said.
# A claim that differs from its located evidence comes after the evidence that needs a
# person and before "pending": its own evidence is fine, the claim is not.
# A document that cannot be read, likewise (another copy must be found).
BADGE_ORDER: tuple[BadgeStatus, ...] = ("rejected", "missing", "unreadable",
                                        *STATUS_ORDER[1:-1], "differs", "pending", "located",
                                        "uncited")
PENDING: tuple[BadgeStatus, ...] = ("pending",)
# Badges "next flagged" stops at: a person must look (or find the document).
FLAGGED_BADGES: frozenset[BadgeStatus] = frozenset({*FLAGGED, "missing", "unreadable",
                                                    "differs"})


@dataclass(frozen=True)
class ClaimRow:
    """A claim as the list shows it: text and one badge per evidence item, then "differs"
    when its figures are not borne out by its evidence."""

    id: str
    text: str
    badges: tuple[BadgeStatus, ...]

    @property
    def status(self) -> BadgeStatus:
        """The worst badge (what "next flagged" looks at)."""
        return min(self.badges, key=BADGE_ORDER.index)


@dataclass(frozen=True)
class EvidenceView:
    """One evidence item as the detail pane shows it."""

    index: int
    status: EvidenceStatus | BadgeStatus
    quote: str
    found_text: str | None
    score: float | None
    reason: str
    page: int | None  # 1-based
    document_name: str | None
    notice: str  # a plain sentence about the highlight (or why there is none)
    document: str | None = None  # the document's id
    rects: tuple[Rect, ...] = ()
    other_pages: tuple[int, ...] = ()  # 1-based pages the quote fits equally well
    copies: tuple[int, ...] = ()  # the 1-based page of each other copy (alternatives)
    differences: tuple[Difference, ...] = ()  # quoted words the found text lacks
    word_diff: WordDiff | None = None  # the quote against the highlighted lines
    # Every copy in reading order (as the keys 1–9 number them): (copy, 1-based page),
    # copy 0 the placement itself, 1… its alternatives.
    copy_order: tuple[tuple[int, int], ...] = ()


# What a document that cannot be used makes of the items not located on it: the
# document's badge (its id → "missing" or "unreadable"; see :data:`DOCUMENT_BADGES`).
Unusable = Mapping[str, BadgeStatus]
# The badge an unusable document's state gives its items (a password is asked for).
DOCUMENT_BADGES: dict[str, BadgeStatus] = {
    "missing": "missing", "unreadable": "unreadable", "corrupt": "unreadable",
    "empty": "unreadable"}


def badge(ev: EvidenceOutcome, unusable: Unusable | None = None) -> BadgeStatus:
    """The badge of one evidence item: its status, or its document's badge ("missing",
    "unreadable") when it was not located because its document cannot be used."""
    if ev.status == "not_located" and ev.document is not None and unusable:
        return unusable.get(ev.document, ev.status)
    return ev.status


def claim_rows(citations: Citations | None, report: Report | None,
               unusable: Unusable | None = None) -> list[ClaimRow]:
    """Every claim in file order; before the report arrives, with "checking…" badges;
    ``unusable``: the documents that cannot be used, with their badge."""
    if citations is None:
        return []
    results = {c.id: c for c in report.claims} if report else {}
    rows = []
    for claim in citations.claims:
        result = results.get(claim.id)
        badges: tuple[BadgeStatus, ...]
        if not claim.evidence:
            badges = ("uncited",)
        elif result is None:
            badges = PENDING * len(claim.evidence)
        else:
            badges = tuple(badge(e, unusable) for e in result.evidence) or PENDING
            if result.consistency.differs:
                badges += ("differs",)
        rows.append(ClaimRow(claim.id, claim.text, badges))
    return rows


def evidence_views(citations: Citations | None, report: Report | None, claim_id: str | None,
                   document_name: Callable[[EvidenceOutcome], str | None],
                   unusable: Unusable | None = None) -> list[EvidenceView]:
    """The detail pane's content for a claim, sentences included; ``document_name``
    names the file an outcome is on."""
    if citations is None or claim_id is None:
        return []
    claim = citations.claim(claim_id)
    if claim is None:
        return []
    result = report.claim(claim_id) if report is not None else None
    views = []
    for i, ev in enumerate(claim.evidence):
        got = result.evidence[i] if result is not None and i < len(result.evidence) else None
        if got is None:
            views.append(EvidenceView(i, "pending", ev.quote, None, None, "", None, None,
                                      "Checking…"))
            continue
        name = document_name(got)
        shown = badge(got, unusable)
        notice = (f"{name or 'The document'} is missing — no highlight shown"
                  if shown == "missing" else
                  f"{name or 'The document'} cannot be read — no highlight shown"
                  if shown == "unreadable" else
                  evidence_sentence(got.status, page=got.page, lines=len(got.rects),
                                    document=name))
        views.append(EvidenceView(i, shown, got.quote or ev.quote,
                                  got.found_text, got.score, got.reason, got.page, name,
                                  notice, got.document, got.rects, got.other_pages,
                                  tuple(a.page for a in got.alternatives),
                                  got.differences, got.word_diff,
                                  copy_order=copy_order(got)))
    return views


def copy_order(got: EvidenceOutcome) -> tuple[tuple[int, int], ...]:
    """The item's copies in reading order: (copy number, page); () with only one."""
    if not got.alternatives or got.page is None:
        return ()
    others = {r for alt in got.alternatives for r in alt.rects}
    own = tuple(r for r in got.rects if r not in others) or got.rects
    found = [(0, got.page, own)] + [(k, a.page, a.rects)
                                    for k, a in enumerate(got.alternatives, start=1)]
    return tuple((k, page) for k, page, rects in
                 sorted(found, key=lambda c: reading_key(c[1], c[2])))


def outcome_document_name(ev: EvidenceOutcome, known: Callable[[str], Path | None]
                          ) -> str | None:
    """The file name an outcome is on: its document's (``known(id)``), else its path's."""
    path = known(ev.document) if ev.document is not None else None
    if path is not None:
        return path.name
    return Path(ev.document_path).name if ev.document_path else None
