"""What a review file holds: the decisions about a citations file's items and claims, the
answers to further questions, and the history of every replaced or withdrawn entry. No Qt
here; :mod:`.sidecar` reads and writes it, :mod:`.review` reads it against the file.

These records are the one shape of a decision: the window's review holds them, ``check
--json``'s objects are read off them (:func:`viewer.checker.review.reported`, the
contract's model only checking them), and an export reads them back from that report
(:mod:`viewer.export.items`).

>>> sha256_text("")[:16]
'e3b0c44298fc1c14'
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from matcher.vocabulary import PlacementDecision, Rect, SupportDecision

Placement = PlacementDecision
Support = SupportDecision
EvidenceKey = tuple[str, int]  # (claim id, index in the claim's evidence list)


class Refused(ValueError):
    """A decision that cannot be made; its message says why, for the person."""


def sha256_text(text: str) -> str:
    """The SHA-256 (hex) of ``text``'s UTF-8 bytes."""
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
    quote_sha256: str = ""  # of the quote decided on ("" where read from a check report)
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


@dataclass(frozen=True)
class Answer:
    """An answer to one of the further review questions (:mod:`.questions`), about a claim
    or (``index``) one of its evidence items."""

    question: str
    claim: str
    index: int | None  # the item, for a question asked per item; None per claim
    value: str
    # Of the quote (per item) or of the claim's text (per claim); "" where read from a
    # check report, which does not carry it.
    subject_sha256: str = ""
    note: str = ""
    reviewer: str = ""
    at: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> AnswerKey:
        return (self.question, self.claim, self.index)


AnswerKey = tuple[str, str, int | None]  # (question, claim id, item index or None)
Entry = EvidenceDecision | ClaimDecision | Answer
K = TypeVar("K")
V = TypeVar("V", EvidenceDecision, ClaimDecision, Answer)


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
    answers: dict[AnswerKey, Answer] = field(default_factory=dict)  # further questions
    # Where the reviewer found a document the file lists elsewhere (Locate…): document id
    # → absolute path; ``citeview check`` and ``export`` look there too.
    documents: dict[str, str] = field(default_factory=dict)
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

    def put_answer(self, key: AnswerKey, new: Answer | None, *, by: str,
                   at: str) -> Answer | None:
        """Set (or withdraw) an answer to a further question; history kept."""
        return self._put(self.answers, key, new, by, at)

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
            self.changed(new.claim if new is not None else old.claim if old is not None
                         else str(key))
        return old

    def copy(self) -> Decisions:
        return Decisions(self.citations, dict(self.evidence), dict(self.claims),
                         dict(self.answers), dict(self.documents), list(self.history),
                         dict(self.extra))
