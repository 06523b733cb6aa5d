"""The review an export hands over: each evidence item with its decision, as plain records.

Read from the ``check --json`` document: the contract's fields through
:class:`~viewer.state.records.Report`, and the review's compatible additions from the
JSON itself — ``decision`` on each evidence item, ``support`` on each claim, and the
matcher's ``differences`` — which are optional, so a report without a review exports as
one where nothing is decided yet.

An item's *outcome* is what the export shows: the matcher's status while no current
decision stands, else the decision (a stale decision is shown but not applied).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from matcher.vocabulary import (
    PLACEMENT_DECISIONS,
    SUPPORT_DECISIONS,
    PlacementDecision,
    Rect,
    SupportDecision,
)

from ..state.records import (
    Citations,
    ClaimOutcome,
    Consistency,
    Difference,
    EvidenceOutcome,
    Report,
    Summary,
)

Placement = PlacementDecision
SupportValue = SupportDecision
Outcome = Literal["located", "confirmed", "review", "wrong_place", "relocated", "absent",
                  "not_located", "rejected"]
PLACEMENTS = PLACEMENT_DECISIONS
SUPPORTS = SUPPORT_DECISIONS
# Outcomes drawn as a highlight on the page (wrong_place where the matcher put it, in its
# own colour, so the reader sees what was rejected).
MARKED: frozenset[Outcome] = frozenset({"located", "confirmed", "review", "wrong_place",
                                        "relocated"})


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """A document of the citations file as an export names it."""

    id: str
    path: Path
    sha256: str | None  # None: the file could not be read
    problem: str = ""  # why it could not be used, if it could not


@dataclass(frozen=True, slots=True)
class Decision:
    """A reviewer's placement decision on one evidence item (``decision`` of the report)."""

    placement: Placement
    page: int | None = None  # 1-based; what was confirmed, or where it was relocated
    rects: tuple[Rect, ...] = ()
    note: str = ""
    reviewer: str | None = None
    at: str | None = None  # ISO 8601, UTC
    stale: bool = False  # the quote or the document changed since: not applied


@dataclass(frozen=True, slots=True)
class Support:
    """A reviewer's support decision on a claim (``support`` of the report)."""

    support: SupportValue
    note: str = ""
    reviewer: str | None = None
    at: str | None = None
    stale: bool = False


@dataclass(frozen=True, slots=True)
class Item:
    """One evidence item of a claim, with what the review made of it."""

    claim_id: str
    claim_text: str
    evidence: EvidenceOutcome
    decision: Decision | None
    differences: tuple[Difference, ...]
    hint_pages: tuple[int, ...]  # 1-based: the citation's page hint, then its chunk's pages

    @property
    def current(self) -> Decision | None:
        """The decision, unless it is stale (then it counts as undecided)."""
        return self.decision if self.decision is not None and not self.decision.stale else None

    @property
    def outcome(self) -> Outcome:
        d, ev = self.current, self.evidence
        placed = ev.page is not None and bool(ev.rects)
        if d is None:
            return ev.status
        if d.placement == "relocated" and d.page is not None and d.rects:
            return "relocated"
        if d.placement == "absent":
            return "absent"
        if d.placement in ("confirmed", "wrong_place") and (placed or d.rects):
            return d.placement
        return ev.status

    @property
    def place(self) -> tuple[int | None, tuple[Rect, ...]]:
        """The 1-based page and rectangles shown: the decision's when it names them (a
        relocation, or what was confirmed), else the matcher's."""
        d = self.current
        if d is not None and d.page is not None and d.rects and self.outcome in (
                "relocated", "confirmed"):
            return d.page, d.rects
        return self.evidence.page, self.evidence.rects

    @property
    def page(self) -> int | None:
        return self.place[0]

    @property
    def rects(self) -> tuple[Rect, ...]:
        return self.place[1]

    @property
    def marked(self) -> bool:
        """Drawn as a highlight: placed, and not rejected by the reviewer as absent."""
        return self.outcome in MARKED and self.page is not None and bool(self.rects)

    @property
    def document(self) -> str | None:
        return self.evidence.document

    @property
    def key(self) -> str:
        """``claim#index``: names the item in every output."""
        return f"{self.claim_id}#{self.evidence.index}"


@dataclass(frozen=True, slots=True)
class ClaimReview:
    id: str
    text: str
    support: Support | None
    items: tuple[Item, ...]
    uncited: bool
    consistency: Consistency = field(default_factory=Consistency)  # figures vs evidence

    @property
    def current_support(self) -> Support | None:
        s = self.support
        return s if s is not None and not s.stale else None


@dataclass(frozen=True, slots=True)
class ReviewedReport:
    """A checked citations file and its review, as every exporter reads it."""

    claims: tuple[ClaimReview, ...]
    summary: Summary
    problems: tuple[str, ...]

    def items(self) -> list[Item]:
        return [item for claim in self.claims for item in claim.items]

    def reviewers(self) -> list[str]:
        """Everyone who decided something, in order of first appearance."""
        names = [d.reviewer for d in (i.decision for i in self.items()) if d and d.reviewer]
        names += [c.support.reviewer for c in self.claims if c.support and c.support.reviewer]
        return list(dict.fromkeys(names))

    def placement_counts(self) -> dict[str, int]:
        """How many items have each current placement decision, and how many none."""
        counts = Counter(i.current.placement if i.current else "undecided"
                         for i in self.items())
        stale = sum(1 for i in self.items() if i.decision is not None and i.decision.stale)
        return {**{p: counts[p] for p in PLACEMENTS}, "undecided": counts["undecided"],
                "stale": stale}

    def support_counts(self) -> dict[str, int]:
        counts = Counter(c.current_support.support if c.current_support else "undecided"
                         for c in self.claims)
        return {**{s: counts[s] for s in SUPPORTS}, "undecided": counts["undecided"]}


def read_review(report: Mapping[str, Any], citations: Citations) -> ReviewedReport:
    """The review in ``report`` (a ``check --json`` document, decisions optional) of the
    file ``citations`` describes. Decision objects that do not follow the contract are
    left out (ValueError is kept for a report that is not one)."""
    record = Report.from_json(report)
    claims = []
    for raw, outcome in zip(report.get("claims", ()), record.claims, strict=True):
        entry = citations.claim(outcome.id)
        hints = [tuple(citations.evidence_pages(e)) for e in entry.evidence] if entry else []
        items = tuple(
            Item(outcome.id, outcome.text or (entry.text if entry else ""), ev,
                 _decision(raw_ev.get("decision")), ev.differences,
                 hints[i] if i < len(hints) else ())
            for i, (raw_ev, ev) in enumerate(zip(raw.get("evidence", ()), outcome.evidence,
                                                 strict=True)))
        claims.append(ClaimReview(outcome.id, outcome.text or (entry.text if entry else ""),
                                  _support(raw.get("support")), items,
                                  _uncited(outcome, entry is not None and not entry.evidence),
                                  outcome.consistency))
    return ReviewedReport(tuple(claims), record.summary, record.problems)


def _uncited(outcome: ClaimOutcome, no_evidence: bool) -> bool:
    return outcome.uncited or (no_evidence and not outcome.evidence)


def _decision(raw: Any) -> Decision | None:
    if not isinstance(raw, Mapping) or raw.get("placement") not in PLACEMENTS:
        return None
    return Decision(raw["placement"], _int(raw.get("page")), _rects(raw.get("rects")),
                    str(raw.get("note") or ""), _str(raw.get("reviewer")), _str(raw.get("at")),
                    bool(raw.get("stale", False)))


def _support(raw: Any) -> Support | None:
    if not isinstance(raw, Mapping) or raw.get("support") not in SUPPORTS:
        return None
    return Support(raw["support"], str(raw.get("note") or ""), _str(raw.get("reviewer")),
                   _str(raw.get("at")), bool(raw.get("stale", False)))


def _rects(raw: Any) -> tuple[Rect, ...]:
    try:
        return tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in raw or ())
    except (TypeError, ValueError, IndexError):
        return ()


def _int(raw: Any) -> int | None:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1 else None


def _str(raw: Any) -> str | None:
    return raw if isinstance(raw, str) and raw else None
