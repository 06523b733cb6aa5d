"""A person's review of a check: decisions per evidence item and per claim, and what is left.

Two questions are kept apart. Per evidence item, *placement* — are the highlighted words
the quoted words? (``confirmed``; ``wrong_place``: the highlight is elsewhere or on the
wrong copy; ``relocated``: the reviewer selected the right words; ``absent``: the quote is
not in the document). Per claim, *support* — do its evidence items, together, make it true?
(``supported``, ``partly``, ``not_supported``, ``uncitable``: true but inferential, so no
span can support it).

A decision remembers the SHA-256 of the quote it was made about (and of the document,
and for support of the claim's text and quotes); once the file says something else it is
*stale*: shown as such, never applied, counted as undecided, and its item needs a
person again. A confirmation also records the page, rects and words it confirmed; once
the check draws other words it is stale too. :class:`~.decisions.Decisions` is what a
sidecar file holds (:mod:`.decisions`). :class:`Review` reads it against the citations
file, the check report and the documents' hashes: which claims need a person (the
queue), what is decided, and each item's record of what is drawn where — by the one rule
of :mod:`.outcome`. No Qt here: ``citeview check`` uses it too; the window works through
it with :class:`~.reviewing.ReviewModel`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from matcher.vocabulary import (
    PLACED,
    PLACEMENT_DECISIONS,
    SUPPORT_DECISIONS,
    EvidenceStatus,
    PlacementDecision,
    Rect,
    SupportDecision,
)

from .decisions import (
    Answer,
    AnswerKey,
    ClaimDecision,
    Decisions,
    Entry,
    EvidenceDecision,
    EvidenceKey,
    HistoryEntry,
    Refused,
    sha256_text,
    utc_now,
)
from .fail_on import FailState
from .outcome import ItemRecord, Outcome, first_drawn, page_marks, page_rects
from .outcome import record as outcome_record
from .presentation import BadgeStatus, status_word, undecidable_document
from .questions import Question, question
from .questions import extra as extra_questions
from .records import (
    Alternative,
    Citations,
    ClaimEntry,
    ClaimOutcome,
    EvidenceOutcome,
    Report,
    reading_key,
)
from .rows import badge

__all__ = ["Answer", "AnswerKey", "ClaimDecision", "Decisions", "Entry", "EvidenceDecision",
           "EvidenceKey", "HistoryEntry", "Refused", "sha256_text", "utc_now"]
Placement = PlacementDecision
Support = SupportDecision
PLACEMENTS = PLACEMENT_DECISIONS
SUPPORTS = SUPPORT_DECISIONS
# What an item's outcome counts as for ``--fail-on``: placed words a person agreed to are
# located; a wrong place or an absent quote is not located; the rest as the check said.
REMAINS_AS: dict[Outcome, FailState] = {
    "review": "review", "wrong_place": "not_located", "absent": "not_located",
    "not_located": "not_located"}
# How far two rectangles of one line may lie apart and still be the same words: PyMuPDF
# gives the same boxes for the same words; another line is a line height (~8 pt) away.
SAME_WORDS_PT = 1.0
# Why a confirmation no longer holds once the check draws other words.
OTHER_WORDS = "the check now draws other words than those confirmed"
# Why Confirm is refused on an item with nothing drawn.
NOTHING_TO_CONFIRM = ("Nothing is drawn to confirm: choose Absent (the quote is not in the "
                      "document) or Relocate (select the words meant).")
# Why an evidence item needs a person (the words the review panel uses).
NEEDS: dict[EvidenceStatus, str] = {"review": "needs review", "not_located": "not located",
                                    "rejected": "rejected"}
STALE_NEEDS = "decision stale"

@dataclass(frozen=True)
class ItemState:
    """One evidence item as the review sees it: what the check said, why it needs a
    person (if it does), and the decision about it (if any) and whether it still holds."""

    claim: str
    index: int
    outcome: EvidenceOutcome | None  # None before the check arrives
    needs: tuple[str, ...]  # reasons it needs a person; () when it does not
    decision: EvidenceDecision | None
    stale: str = ""  # why the decision no longer holds ("" when it does, or none)

    @property
    def decided(self) -> bool:
        return self.decision is not None and not self.stale


@dataclass(frozen=True)
class AnswerState:
    """A further question as the review sees it for one claim (or one of its items)."""

    question: Question
    index: int | None
    answer: Answer | None
    stale: str = ""

    @property
    def decided(self) -> bool:
        return self.answer is not None and not self.stale


@dataclass(frozen=True)
class ClaimState:
    """One claim as the review sees it (what is derived is worked out once: the window
    asks for every claim's state after each key press)."""

    claim: ClaimEntry
    items: tuple[ItemState, ...]
    support: ClaimDecision | None
    support_stale: str
    everything: bool  # a full audit: every claim and item counts
    # The claim's figures, dates or negations are not borne out by its evidence (the
    # check's ``consistency``): it needs a person, whose support decision answers it.
    differs: bool = False
    answers: tuple[AnswerState, ...] = ()  # the further questions (:mod:`.questions`)

    @property
    def id(self) -> str:
        return self.claim.id

    @cached_property
    def flagged(self) -> bool:
        """The claim needs a person: flagged upstream, its figures differ from its
        evidence, or an item needs one."""
        return bool(self.claim.flag) or self.differs or any(i.needs for i in self.items)

    @cached_property
    def in_queue(self) -> bool:
        return self.everything or self.flagged

    @cached_property
    def support_decided(self) -> bool:
        return self.support is not None and not self.support_stale

    def required(self) -> tuple[ItemState, ...]:
        """The items whose placement must be decided (all of them in a full audit)."""
        return self.items if self.everything else tuple(i for i in self.items if i.needs)

    @cached_property
    def decided(self) -> bool:
        """Support decided, every required placement decided, and every further
        required question answered (per item: for the required items), none stale."""
        required = self.required()
        wanted = {i.index for i in required}
        return self.support_decided and all(i.decided for i in required) and all(
            a.decided for a in self.answers if a.question.required
            and (a.index is None or a.index in wanted))

    def answer(self, question_id: str, index: int | None) -> AnswerState | None:
        """The state of question ``question_id`` for this claim (or its item ``index``)."""
        return next((a for a in self.answers if a.question.id == question_id
                     and a.index == index), None)


def item_needs(outcome: EvidenceOutcome | None,
               unusable: Mapping[str, BadgeStatus] | None = None) -> tuple[str, ...]:
    """Why the check's outcome for an item needs a person (empty: it does not); an item
    not located on a document that cannot be used (``unusable``: its id → its badge)
    says so, as its badge does ("document missing", not "not located")."""
    if outcome is None:
        return ()
    shown = badge(outcome, unusable)
    reasons = [status_word(shown)] if shown != outcome.status else \
        [NEEDS[outcome.status]] if outcome.status in NEEDS else []
    if outcome.differences:
        reasons.append("differences")
    return tuple(reasons)


def copies(outcome: EvidenceOutcome) -> tuple[Alternative, ...]:
    """Every copy of the quoted words a review placement stands for, in reading order
    (page, then top to bottom, as the keys 1–9 number them); empty when there is only
    one. ``rects`` draws them all, the matcher's own first and each other copy's lines
    after it."""
    if not outcome.alternatives or outcome.page is None:
        return ()
    others = {r for alt in outcome.alternatives for r in alt.rects}
    own = tuple(r for r in outcome.rects if r not in others) or outcome.rects
    found = (Alternative(outcome.page, own), *outcome.alternatives)
    return tuple(sorted(found, key=lambda c: reading_key(c.page, c.rects)))


class Review:
    """The decisions read against the citations file, the report and document hashes."""

    def __init__(self, decisions: Decisions | None = None) -> None:
        self.citations: Citations | None = None
        self.report: Report | None = None
        self.hashes: Mapping[str, str | None] = {}  # document id → SHA-256 of its bytes
        self.unusable: dict[str, BadgeStatus] = {}  # documents that cannot be used → badge
        self._everything = False
        # By claim id, so reading every claim's state stays linear in the file's size.
        self._claims: dict[str, ClaimEntry] = {}
        self._results: dict[str, ClaimOutcome] = {}
        # Claim states worked out so far: each is worked out again only once one of its
        # decisions changes, so the window can ask after every key press.
        self._states: dict[str, ClaimState | None] = {}
        self._decisions = Decisions()
        self.decisions = decisions if decisions is not None else Decisions()
        # Where each placed item's quote also stands on its other pages (0-based page →
        # rects), as the window finds out; drawn with the item while its words are.
        self.other_copies: Mapping[EvidenceKey, Mapping[int, tuple[Rect, ...]]] = {}

    @property
    def decisions(self) -> Decisions:
        """The decisions read against the file (what a sidecar holds)."""
        return self._decisions

    @decisions.setter
    def decisions(self, decisions: Decisions) -> None:
        self._decisions.changed = None
        self._decisions = decisions
        decisions.changed = self._forget
        self._states.clear()

    @property
    def everything(self) -> bool:
        """A full audit: every claim and item counts, not only those that need a person."""
        return self._everything

    @everything.setter
    def everything(self, on: bool) -> None:
        self._everything = on
        self._states.clear()

    def _forget(self, claim_id: str) -> None:
        self._states.pop(claim_id, None)

    def attach(self, citations: Citations | None, report: Report | None,
               hashes: Mapping[str, str | None],
               unusable: Mapping[str, BadgeStatus] | None = None) -> None:
        """Read the decisions against this file, report and documents from now on
        (``unusable``: the documents that cannot be used, with their items' badge)."""
        self.citations, self.report, self.hashes = citations, report, dict(hashes)
        self.unusable = dict(unusable or {})
        self._claims = {c.id: c for c in citations.claims} if citations is not None else {}
        self._results = {c.id: c for c in report.claims} if report is not None else {}
        self._states.clear()

    # -- reading ------------------------------------------------------------------------
    def outcome(self, claim_id: str, index: int) -> EvidenceOutcome | None:
        result = self._results.get(claim_id)
        if result is None or not 0 <= index < len(result.evidence):
            return None
        return result.evidence[index]

    def item(self, claim: ClaimEntry, index: int) -> ItemState:
        outcome = self.outcome(claim.id, index)
        decision = self.decisions.evidence.get((claim.id, index))
        stale = ""
        if decision is not None:
            stale = self._evidence_stale(decision, claim.evidence[index].quote, outcome)
        # A decision that no longer holds asks a person again.
        needs = item_needs(outcome, self.unusable) + ((STALE_NEEDS,) if stale else ())
        return ItemState(claim.id, index, outcome, needs, decision, stale)

    def _evidence_stale(self, decision: EvidenceDecision, quote: str,
                        outcome: EvidenceOutcome | None) -> str:
        if decision.quote_sha256 != sha256_text(quote):
            return "the quote has changed since it was decided"
        if decision.document_sha256 is None:
            return ""
        doc = decision.document or (outcome.document if outcome is not None else None)
        if doc is None:  # the item names no document (rejected): any of the file's will do
            if decision.document_sha256 in self.hashes.values():
                return ""
            return "none of the file's documents is the one it was decided on"
        current = self.hashes.get(doc)
        if current is None:
            return "the document cannot be read to confirm it is the one decided on"
        if current != decision.document_sha256:
            return "the document has changed since it was decided"
        if decision.placement == "confirmed" and decision.rects and outcome is not None \
                and not draws(outcome, decision):
            return OTHER_WORDS
        return ""

    def claim_state(self, claim_id: str) -> ClaimState | None:
        if claim_id in self._states:
            return self._states[claim_id]
        state = self._states[claim_id] = self._work_out(claim_id)
        return state

    def _work_out(self, claim_id: str) -> ClaimState | None:
        claim = self._claims.get(claim_id)
        if claim is None:
            return None
        items = tuple(self.item(claim, i) for i in range(len(claim.evidence)))
        support = self.decisions.claims.get(claim_id)
        stale = ""
        if support is not None:
            stale = support_stale(support, claim)
        result = self._results.get(claim_id)
        differs = result is not None and result.consistency.differs
        return ClaimState(claim, items, support, stale, self.everything, differs=differs,
                          answers=self._answers(claim))

    def _answers(self, claim: ClaimEntry) -> tuple[AnswerState, ...]:
        out: list[AnswerState] = []
        for q in extra_questions():
            for index in (None,) if q.scope == "claim" else range(len(claim.evidence)):
                a = self.decisions.answers.get((q.id, claim.id, index))
                subject = claim.text if index is None else claim.evidence[index].quote
                stale = "" if a is None or a.subject_sha256 == sha256_text(subject) else (
                    "the claim's text has changed since it was answered" if index is None
                    else "the quote has changed since it was answered")
                out.append(AnswerState(q, index, a, stale))
        return tuple(out)

    def states(self) -> list[ClaimState]:
        """Every claim of the file, in file order."""
        if self.citations is None:
            return []
        return [s for c in self.citations.claims if (s := self.claim_state(c.id)) is not None]

    def queue(self) -> list[str]:
        """The claims a person must look at, in file order (every claim in a full audit)."""
        return [s.id for s in self.states() if s.in_queue]

    def progress(self) -> tuple[int, int]:
        """(decided, total) over the queue."""
        queued = [s for s in self.states() if s.in_queue]
        return sum(s.decided for s in queued), len(queued)

    def next_in_queue(self, current: str | None, delta: int) -> str | None:
        """The next (``delta`` 1) or previous (-1) claim of the queue still undecided,
        wrapping around; None when every queued claim is decided."""
        states = self.states()
        ids = [s.id for s in states]
        start = ids.index(current) if current in ids else (-1 if delta > 0 else 0)
        n = len(states)
        for k in range(1, n + 1):
            state = states[(start + delta * k) % n]
            if state.in_queue and not state.decided:
                return state.id
        return None

    # -- what the page shows ------------------------------------------------------------
    def record(self, item: ItemState) -> ItemRecord:
        """What every view draws for an item, its decision applied (:mod:`.outcome`)."""
        got, d = item.outcome, item.decision
        return outcome_record(
            item.claim, item.index, status=got.status if got is not None else None,
            document=got.document if got is not None else None,
            page=got.page if got is not None else None,
            rects=got.rects if got is not None else (),
            placement=d.placement if d is not None else None, stale=bool(item.stale),
            decided_document=d.document if d is not None else None,
            decided_page=d.page if d is not None else None,
            decided_rects=d.rects if d is not None else (),
            copies=self.other_copies.get((item.claim, item.index)),
            differs=bool(got.differences) if got is not None else False)

    def records(self, claim_id: str | None) -> list[ItemRecord]:
        """Every item of a claim as drawn (none for an unknown claim)."""
        state = self.claim_state(claim_id) if claim_id is not None else None
        return [self.record(i) for i in state.items] if state is not None else []

    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        """A claim's rectangles on one document, decisions applied: 0-based page → rects."""
        return page_rects(self.records(claim_id), doc_id)

    def focus(self, claim_id: str | None, doc_id: str | None
              ) -> tuple[int, list[Rect]] | None:
        """The 0-based page and band to scroll to: the first drawn item's."""
        return first_drawn(self.records(claim_id), doc_id)

    def marks(self, doc_id: str | None, claim_id: str | None = None
              ) -> dict[int, EvidenceStatus]:
        """Every page of ``doc_id`` holding a drawn item of any claim (or of claim
        ``claim_id``), with the worst status drawn there (the thumbnails' marks)."""
        if claim_id is not None:
            return page_marks(self.records(claim_id), doc_id)
        return page_marks((self.record(i) for s in self.states() for i in s.items), doc_id)

    # -- deciding -----------------------------------------------------------------------
    def placement(self, claim_id: str, index: int, placement: Placement, *, reviewer: str,
                  at: str, page: int | None = None, rects: Sequence[Rect] = (),
                  document: str | None = None, text: str | None = None,
                  note: str | None = None) -> EvidenceDecision:
        """A new placement decision about an item (not yet put): hashes filled in, the
        note kept from the decision it replaces unless given. A confirmation records the
        page, rects and words it confirmed (the check's, unless a copy is given).
        :class:`Refused` (its message for the person) when it cannot be made: a
        confirmation of nothing drawn, or a decision about a document that cannot be
        read (no hash to pin it to)."""
        claim = self._claim(claim_id)
        outcome = self.outcome(claim_id, index)
        doc = document or (outcome.document if outcome is not None else None)
        old = self.decisions.evidence.get((claim_id, index))
        if placement == "relocated" and (page is None or not rects):
            raise Refused("a relocation needs a page and rectangles")
        why = self.refusal(claim_id, index, placement, document=document, words=page is not None)
        if why:
            raise Refused(why)
        if placement == "confirmed" and page is None:
            # A confirmation records what was seen and agreed to: the words drawn.
            assert outcome is not None and outcome.page is not None
            page, rects, text = outcome.page, outcome.rects, outcome.found_text
        if placement == "confirmed" and text is None and outcome is not None:
            text = outcome.found_text
        return EvidenceDecision(
            claim_id, index, placement, sha256_text(claim.evidence[index].quote),
            self.hashes.get(doc) if doc is not None else None, page, tuple(rects),
            note if note is not None else (old.note if old is not None else ""),
            reviewer, at, doc if page is not None else None, text,
            old.extra if old is not None else {})

    def refusal(self, claim_id: str, index: int, placement: Placement, *,
                document: str | None = None, words: bool = False) -> str:
        """Why ``placement`` cannot be decided about the item now, for the person ("" when
        it can): the one rule :meth:`placement` applies and the window's buttons show
        (greyed, the sentence their tooltip). A decision about a document that cannot be
        read has no hash to pin it to (whatever the decision: even Absent says something
        about the document's words); a confirmation with nothing drawn confirms nothing
        (``words``: the words confirmed are given, a copy of the quote)."""
        outcome = self.outcome(claim_id, index)
        doc = document or (outcome.document if outcome is not None else None)
        if doc is not None and self.hashes.get(doc) is None:
            return undecidable_document(doc)
        if placement == "confirmed" and not words and (
                outcome is None or outcome.status not in PLACED or outcome.page is None
                or not outcome.rects):
            return NOTHING_TO_CONFIRM
        return ""

    def support(self, claim_id: str, support: Support, *, reviewer: str, at: str,
                note: str | None = None) -> ClaimDecision:
        """A new support decision about a claim (not yet put), fingerprints filled in."""
        claim = self._claim(claim_id)
        old = self.decisions.claims.get(claim_id)
        return ClaimDecision(
            claim_id, support, sha256_text(claim.text),
            tuple(sha256_text(e.quote) for e in claim.evidence),
            note if note is not None else (old.note if old is not None else ""),
            reviewer, at, old.extra if old is not None else {})

    def answer(self, question_id: str, claim_id: str, index: int | None, value: str, *,
               reviewer: str, at: str, note: str | None = None) -> Answer:
        """A new answer to a further question (not yet put), its fingerprint filled in."""
        q = question(question_id)
        if value not in q.values:
            raise Refused(f"{q.title} takes one of {', '.join(q.values)}, not {value!r}")
        claim = self._claim(claim_id)
        subject = claim.text if index is None else claim.evidence[index].quote
        old = self.decisions.answers.get((question_id, claim_id, index))
        return Answer(question_id, claim_id, index, value, sha256_text(subject),
                      note if note is not None else (old.note if old is not None else ""),
                      reviewer, at, old.extra if old is not None else {})

    def _claim(self, claim_id: str) -> ClaimEntry:
        claim = self._claims.get(claim_id)
        if claim is None:
            raise KeyError(claim_id)
        return claim

    # -- what remains -------------------------------------------------------------------
    def remaining(self, states: Sequence[FailState]) -> list[str]:
        """One line per item or claim left in any of ``states`` (``check --fail-on``)."""
        wanted = set(states)
        out: list[str] = []
        for s in self.states():
            if "undecided" in wanted and s.in_queue and not s.decided:
                out.append(f"claim {s.id!r}: undecided")
            if "not_supported" in wanted and s.support_decided and s.support is not None \
                    and s.support.support == "not_supported":
                out.append(f"claim {s.id!r}: not supported")
            if "differs" in wanted and s.differs:
                out.append(f"claim {s.id!r}: its figures differ from its evidence")
            for item in s.items:
                said = self.record(item).outcome
                status = REMAINS_AS.get(said) if said is not None else None
                if status in wanted:
                    word = "needs review" if status == "review" else "not located"
                    out.append(f"claim {s.id!r} evidence {item.index}: {word}")
        return out


def draws(outcome: EvidenceOutcome, decision: EvidenceDecision) -> bool:
    """The check still draws the words ``decision`` confirmed: the same document and
    page, and each confirmed line one the check draws there (its own or a copy's)."""
    if decision.document is not None and outcome.document is not None \
            and decision.document != outcome.document:
        return False
    drawn = [(outcome.page, r) for r in outcome.rects] + [
        (alt.page, r) for alt in outcome.alternatives for r in alt.rects]
    return all(any(p == decision.page and same_rect(r, got) for p, got in drawn)
               for r in decision.rects)


def same_rect(a: Rect, b: Rect) -> bool:
    """Two line rectangles of the same words (within :data:`SAME_WORDS_PT`)."""
    return all(abs(x - y) <= SAME_WORDS_PT for x, y in zip(a, b, strict=True))


def support_stale(decision: ClaimDecision, claim: ClaimEntry) -> str:
    """Why a support decision no longer holds for ``claim`` ("" when it does)."""
    if decision.claim_sha256 is not None and decision.claim_sha256 != sha256_text(claim.text):
        return "the claim's text has changed since it was decided"
    if decision.quotes_sha256 is not None and decision.quotes_sha256 != tuple(
            sha256_text(e.quote) for e in claim.evidence):
        return "the claim's quotes have changed since it was decided"
    return ""


def with_note(entry: Entry, note: str, *, reviewer: str, at: str) -> Entry:
    """The same decision with another note, made by ``reviewer`` at ``at``."""
    return replace(entry, note=note, reviewer=reviewer, at=at)
