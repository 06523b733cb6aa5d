"""The review an export hands over: each evidence item with its decision.

Read from the ``check --json`` document: the contract's fields through
:class:`~viewer.state.records.Report`, and the review's compatible additions from the
JSON itself — ``decision`` on each evidence item, ``support`` and ``answers`` on each
claim, and the matcher's ``differences`` — which are optional, so a report without a
review exports as one where nothing is decided yet. The decisions are read into the
review's own records (:mod:`viewer.state.decisions`, what the window holds), with
whether each still holds beside it as in the window's review: one shape of a decision.

An item's *outcome* is what the export shows, and whether it is drawn: the viewer's one
rule (:mod:`viewer.state.outcome`), so an export never draws what the window leaves out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matcher.vocabulary import PLACEMENT_DECISIONS, SUPPORT_DECISIONS, Rect

from ..state.decisions import Answer, ClaimDecision, EvidenceDecision
from ..state.outcome import ItemRecord, Outcome, Shade, record
from ..state.questions import extra as extra_questions
from ..state.records import (
    Citations,
    ClaimOutcome,
    Consistency,
    Difference,
    EvidenceOutcome,
    Report,
    Summary,
)
from ..state.review import AnswerState

PLACEMENTS = PLACEMENT_DECISIONS
SUPPORTS = SUPPORT_DECISIONS
# Why a decision the report marks ``stale`` no longer holds (the report says only that).
STALE = "changed since it was decided"


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """A document of the citations file as an export names it."""

    id: str
    path: Path
    sha256: str | None  # None: the file could not be read
    problem: str = ""  # why it could not be used, if it could not


@dataclass(frozen=True, slots=True)
class Item:
    """One evidence item of a claim, with what the review made of it."""

    claim_id: str
    claim_text: str
    evidence: EvidenceOutcome
    decision: EvidenceDecision | None  # the review's own record (what the window holds)
    differences: tuple[Difference, ...]
    hint_pages: tuple[int, ...]  # 1-based: the citation's page hint, then its chunk's pages
    stale: str = ""  # why the decision no longer holds ("" when it does, or there is none)

    @property
    def current(self) -> EvidenceDecision | None:
        """The decision, unless it is stale (then it counts as undecided)."""
        return self.decision if self.decision is not None and not self.stale else None

    @property
    def drawn(self) -> ItemRecord:
        """What the item is and where it is drawn: the viewer's own rule
        (:func:`viewer.state.outcome.record`), so an export draws what the window draws."""
        d, ev = self.decision, self.evidence
        return record(self.claim_id, ev.index, status=ev.status, document=ev.document,
                      page=ev.page, rects=ev.rects,
                      placement=d.placement if d is not None else None,
                      stale=d is not None and bool(self.stale),
                      decided_page=d.page if d is not None else None,
                      decided_rects=d.rects if d is not None else (),
                      differs=bool(self.differences))

    @property
    def outcome(self) -> Outcome:
        return self.drawn.outcome or self.evidence.status

    @property
    def place(self) -> tuple[int | None, tuple[Rect, ...]]:
        """The 1-based page and rectangles shown: the decision's when it names them (a
        relocation, or what was confirmed), else the matcher's."""
        drawn = self.drawn
        return drawn.page, drawn.rects

    @property
    def page(self) -> int | None:
        return self.place[0]

    @property
    def rects(self) -> tuple[Rect, ...]:
        return self.place[1]

    @property
    def shade(self) -> Shade:
        """The colour it is drawn in: never a fine one over a difference."""
        return self.drawn.shade or self.evidence.status

    @property
    def marked(self) -> bool:
        """Drawn as a highlight: placed, and not rejected by the reviewer (wrong place,
        absent)."""
        return self.drawn.drawn

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
    support: ClaimDecision | None
    items: tuple[Item, ...]
    uncited: bool
    consistency: Consistency = field(default_factory=Consistency)  # figures vs evidence
    # Answers to the further questions asked (:mod:`viewer.state.questions`), by question
    # id (per item: "question#index"), as the window's review holds them.
    answers: Mapping[str, AnswerState] = field(default_factory=dict)
    support_stale: str = ""  # why the support decision no longer holds

    def answer(self, question_id: str, index: int | None = None) -> AnswerState | None:
        return self.answers.get(question_id if index is None else f"{question_id}#{index}")

    @property
    def current_support(self) -> ClaimDecision | None:
        s = self.support
        return s if s is not None and not self.support_stale else None


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
        stale = sum(1 for i in self.items() if i.decision is not None and i.stale)
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
            _item(outcome.id, outcome.text or (entry.text if entry else ""), ev,
                  raw_ev.get("decision"), hints[i] if i < len(hints) else ())
            for i, (raw_ev, ev) in enumerate(zip(raw.get("evidence", ()), outcome.evidence,
                                                 strict=True)))
        support, support_stale = _support(raw.get("support"), outcome.id)
        claims.append(ClaimReview(outcome.id, outcome.text or (entry.text if entry else ""),
                                  support, items,
                                  _uncited(outcome, entry is not None and not entry.evidence),
                                  outcome.consistency, _answers(raw.get("answers"), outcome.id),
                                  support_stale))
    return ReviewedReport(tuple(claims), record.summary, record.problems)


def _uncited(outcome: ClaimOutcome, no_evidence: bool) -> bool:
    return outcome.uncited or (no_evidence and not outcome.evidence)


def _stale(raw: Mapping[str, Any]) -> str:
    return STALE if raw.get("stale", False) else ""


def _text(raw: Mapping[str, Any], key: str) -> str:
    """A note, reviewer or time: "" where the report has none."""
    return str(raw.get(key) or "")


def _item(claim: str, text: str, ev: EvidenceOutcome, raw: Any, hints: tuple[int, ...]
          ) -> Item:
    if not isinstance(raw, Mapping) or raw.get("placement") not in PLACEMENTS:
        return Item(claim, text, ev, None, ev.differences, hints)
    words = raw.get("text")
    decision = EvidenceDecision(
        claim, ev.index, raw["placement"], page=_int(raw.get("page")),
        rects=_rects(raw.get("rects")), note=_text(raw, "note"),
        reviewer=_text(raw, "reviewer"), at=_text(raw, "at"),
        text=words if isinstance(words, str) else None)
    return Item(claim, text, ev, decision, ev.differences, hints, _stale(raw))


def _support(raw: Any, claim: str) -> tuple[ClaimDecision | None, str]:
    if not isinstance(raw, Mapping) or raw.get("support") not in SUPPORTS:
        return None, ""
    return ClaimDecision(claim, raw["support"], note=_text(raw, "note"),
                         reviewer=_text(raw, "reviewer"), at=_text(raw, "at")), _stale(raw)


def _answers(raw: Any, claim: str) -> dict[str, AnswerState]:
    """The answers to the questions asked today ("question" or "question#index"); one to a
    question no longer asked is left out, as the window leaves it out."""
    asked = {q.id: q for q in extra_questions()}
    out: dict[str, AnswerState] = {}
    for name, v in (raw.items() if isinstance(raw, Mapping) else ()):
        qid, _, at = str(name).partition("#")
        index = int(at) if at.isdigit() else None
        q = asked.get(qid)
        if q is None or not isinstance(v, Mapping) or not isinstance(v.get("value"), str) \
                or (index is None) != (q.scope == "claim"):
            continue
        answer = Answer(qid, claim, index, v["value"], note=_text(v, "note"),
                        reviewer=_text(v, "reviewer"), at=_text(v, "at"))
        out[str(name)] = AnswerState(q, index, answer, _stale(v))
    return out


def _rects(raw: Any) -> tuple[Rect, ...]:
    try:
        return tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in raw or ())
    except (TypeError, ValueError, IndexError):
        return ()


def _int(raw: Any) -> int | None:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1 else None


