"""A person's review of a check: decisions per evidence item and per claim, and what is left.

Two questions are kept apart. Per evidence item, *placement* — are the highlighted words
the quoted words? (``confirmed``; ``wrong_place``: the highlight is elsewhere or on the
wrong copy; ``relocated``: the reviewer selected the right words; ``absent``: the quote is
not in the document). Per claim, *support* — do its evidence items, together, make it true?
(``supported``, ``partly``, ``not_supported``, ``uncitable``: true but inferential, so no
span can support it).

A decision remembers the SHA-256 of the quote it was made about (and of the document,
and for support of the claim's text and quotes); once the file says something else it is
*stale*: shown as such, never applied, and counted as undecided. :class:`Decisions` is
what a sidecar file holds (:mod:`.sidecar` reads and writes it) and keeps every replaced
or withdrawn entry in its history. :class:`Review` reads it against the citations file,
the check report and the documents' hashes: which claims need a person (the queue),
what is decided, what the page should show. No Qt here: ``citeview check`` uses it too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Literal, TypeVar, get_args

from matcher.vocabulary import (
    PLACED,
    PLACEMENT_DECISIONS,
    SUPPORT_DECISIONS,
    EvidenceStatus,
    PlacementDecision,
    Rect,
    SupportDecision,
)

from .records import Alternative, Citations, ClaimEntry, ClaimOutcome, EvidenceOutcome, Report

Placement = PlacementDecision
Support = SupportDecision
PLACEMENTS = PLACEMENT_DECISIONS
SUPPORTS = SUPPORT_DECISIONS
# Placements after which the page shows the decided words, and those that show none.
SHOWS_WORDS: frozenset[Placement] = frozenset({"confirmed", "relocated"})
# Why an evidence item needs a person (the words the review panel uses).
NEEDS: dict[EvidenceStatus, str] = {"review": "needs review", "not_located": "not located",
                                    "rejected": "rejected"}
# The states ``check --fail-on`` can fail on.
FailState = Literal["undecided", "not_supported", "review", "not_located", "differs"]
FAIL_STATES: tuple[FailState, ...] = get_args(FailState)

EvidenceKey = tuple[str, int]  # (claim id, index in the claim's evidence list)


def sha256_text(text: str) -> str:
    """The SHA-256 (hex) of ``text``'s UTF-8 bytes.

    >>> sha256_text("")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def utc_now() -> str:
    """The time now in UTC as ISO 8601 with a "Z", to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class EvidenceDecision:
    """A placement decision about one evidence item (``index`` in claim ``claim``)."""

    claim: str
    index: int
    placement: Placement
    quote_sha256: str
    document_sha256: str | None = None
    page: int | None = None  # 1-based; with ``rects`` for relocated, and for a confirmed copy
    rects: tuple[Rect, ...] = ()  # words space of that page, one per line
    note: str = ""
    reviewer: str = ""
    at: str = ""
    document: str | None = None  # the id of the document ``page`` is in
    text: str | None = None  # the words a relocation selected
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys a newer writer added

    @property
    def key(self) -> EvidenceKey:
        return (self.claim, self.index)


@dataclass(frozen=True)
class ClaimDecision:
    """A support decision about one claim: its evidence items together, as a union."""

    claim: str
    support: Support
    claim_sha256: str | None = None  # of the claim's text
    quotes_sha256: tuple[str, ...] | None = None  # of each of its quotes, in order
    note: str = ""
    reviewer: str = ""
    at: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


Entry = EvidenceDecision | ClaimDecision
K = TypeVar("K")
V = TypeVar("V", EvidenceDecision, ClaimDecision)


@dataclass(frozen=True)
class HistoryEntry:
    """An earlier value of an entry that was changed or withdrawn, with who and when."""

    action: Literal["changed", "removed", "merged"]
    previous: Entry
    by: str
    at: str


@dataclass
class Decisions:
    """What a sidecar holds: the current decisions, their history, and unknown keys."""

    citations: str = ""  # the citations file's name
    evidence: dict[EvidenceKey, EvidenceDecision] = field(default_factory=dict)
    claims: dict[str, ClaimDecision] = field(default_factory=dict)
    # New entries are HistoryEntry; entries read from a file stay as the JSON they were.
    history: list[HistoryEntry | dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # Told the claim id whenever one of its decisions is put (a Review forgets what it
    # worked out about that claim).
    changed: Callable[[str], None] | None = field(default=None, compare=False, repr=False)

    def put_evidence(self, key: EvidenceKey, new: EvidenceDecision | None, *, by: str,
                     at: str) -> EvidenceDecision | None:
        """Set (or, with None, withdraw) an evidence decision; the value it replaces goes
        to the history. Returns that value."""
        return self._put(self.evidence, key, new, by, at)

    def put_claim(self, claim: str, new: ClaimDecision | None, *, by: str,
                  at: str) -> ClaimDecision | None:
        """Set (or withdraw) a support decision; the value it replaces goes to history."""
        return self._put(self.claims, claim, new, by, at)

    def _put(self, table: dict[K, V], key: K, new: V | None, by: str, at: str) -> V | None:
        old = table.get(key)
        if old == new:
            return old
        if old is not None:
            self.history.append(HistoryEntry("changed" if new is not None else "removed",
                                             old, by, at))
        if new is None:
            del table[key]
        else:
            table[key] = new
        if self.changed is not None:
            self.changed(key[0] if isinstance(key, tuple) else str(key))
        return old

    def copy(self) -> Decisions:
        return Decisions(self.citations, dict(self.evidence), dict(self.claims),
                         list(self.history), dict(self.extra))


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
        """Support decided and every required placement decided, none stale."""
        return self.support_decided and all(i.decided for i in self.required())


def item_needs(outcome: EvidenceOutcome | None) -> tuple[str, ...]:
    """Why the check's outcome for an item needs a person (empty: it does not)."""
    if outcome is None:
        return ()
    reasons = [NEEDS[outcome.status]] if outcome.status in NEEDS else []
    if outcome.differences:
        reasons.append("differences")
    return tuple(reasons)


def copies(outcome: EvidenceOutcome) -> tuple[Alternative, ...]:
    """Every copy of the quoted words a review placement stands for, the matcher's own
    first; empty when there is only one. ``rects`` draws them all, the matcher's own
    first and each other copy's lines after it."""
    if not outcome.alternatives or outcome.page is None:
        return ()
    others = {r for alt in outcome.alternatives for r in alt.rects}
    own = tuple(r for r in outcome.rects if r not in others) or outcome.rects
    return (Alternative(outcome.page, own), *outcome.alternatives)


class Review:
    """The decisions read against the citations file, the report and document hashes."""

    def __init__(self, decisions: Decisions | None = None) -> None:
        self.citations: Citations | None = None
        self.report: Report | None = None
        self.hashes: Mapping[str, str | None] = {}  # document id → SHA-256 of its bytes
        self._everything = False
        # By claim id, so reading every claim's state stays linear in the file's size.
        self._claims: dict[str, ClaimEntry] = {}
        self._results: dict[str, ClaimOutcome] = {}
        # Claim states worked out so far: each is worked out again only once one of its
        # decisions changes, so the window can ask after every key press.
        self._states: dict[str, ClaimState | None] = {}
        self._decisions = Decisions()
        self.decisions = decisions if decisions is not None else Decisions()

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
               hashes: Mapping[str, str | None]) -> None:
        """Read the decisions against this file, report and documents from now on."""
        self.citations, self.report, self.hashes = citations, report, dict(hashes)
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
        return ItemState(claim.id, index, outcome, item_needs(outcome), decision, stale)

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
        return ClaimState(claim, items, support, stale, self.everything, differs)

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
    def shown(self, item: ItemState) -> tuple[str | None, int, tuple[Rect, ...]] | None:
        """Where an item's highlight goes, decisions applied: (document id, 1-based page,
        rects), or None for no highlight. A stale decision is not applied."""
        d, got = item.decision, item.outcome
        if item.decided and d is not None:
            if d.placement not in SHOWS_WORDS:
                return None  # wrong place or absent: no highlight until relocated
            if d.page is not None and d.rects:
                return (d.document or (got.document if got else None), d.page, d.rects)
        if got is not None and got.status in PLACED and got.page is not None and got.rects:
            return (got.document, got.page, got.rects)
        return None

    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        """A claim's rectangles on one document, decisions applied: 0-based page → rects."""
        out: dict[int, list[Rect]] = {}
        state = self.claim_state(claim_id) if claim_id is not None else None
        for item in state.items if state is not None else ():
            where = self.shown(item)
            if where is not None and (doc_id is None or where[0] == doc_id):
                out.setdefault(where[1] - 1, []).extend(where[2])
        return out

    def focus(self, claim_id: str | None, doc_id: str | None
              ) -> tuple[int, list[Rect]] | None:
        """The 0-based page and band to scroll to: the first shown item's."""
        state = self.claim_state(claim_id) if claim_id is not None else None
        for item in state.items if state is not None else ():
            where = self.shown(item)
            if where is not None and (doc_id is None or where[0] == doc_id):
                return where[1] - 1, list(where[2])
        return None

    # -- deciding -----------------------------------------------------------------------
    def placement(self, claim_id: str, index: int, placement: Placement, *, reviewer: str,
                  at: str, page: int | None = None, rects: Sequence[Rect] = (),
                  document: str | None = None, text: str | None = None,
                  note: str | None = None) -> EvidenceDecision:
        """A new placement decision about an item (not yet put): hashes filled in, the
        note kept from the decision it replaces unless given."""
        claim = self._claim(claim_id)
        outcome = self.outcome(claim_id, index)
        doc = document or (outcome.document if outcome is not None else None)
        old = self.decisions.evidence.get((claim_id, index))
        if placement == "relocated" and (page is None or not rects):
            raise ValueError("a relocation needs a page and rectangles")
        return EvidenceDecision(
            claim_id, index, placement, sha256_text(claim.evidence[index].quote),
            self.hashes.get(doc) if doc is not None else None, page, tuple(rects),
            note if note is not None else (old.note if old is not None else ""),
            reviewer, at, doc if page is not None else None, text,
            old.extra if old is not None else {})

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

    def _claim(self, claim_id: str) -> ClaimEntry:
        claim = self._claims.get(claim_id)
        if claim is None:
            raise KeyError(claim_id)
        return claim

    # -- what remains -------------------------------------------------------------------
    def effective_status(self, item: ItemState) -> EvidenceStatus | None:
        """An item's status once its decision is applied: confirmed or relocated words
        are located; a wrong place or an absent quote is not located; else the check's."""
        if item.decided and item.decision is not None:
            return "located" if item.decision.placement in SHOWS_WORDS else "not_located"
        return item.outcome.status if item.outcome is not None else None

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
                status = self.effective_status(item)
                if status in wanted:
                    word = "needs review" if status == "review" else "not located"
                    out.append(f"claim {s.id!r} evidence {item.index}: {word}")
        return out


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
