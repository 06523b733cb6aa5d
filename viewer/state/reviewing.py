"""The review of the open file as a person works through it: the decisions read against
the session (:class:`~.review.Review`), the evidence item being decided, each decision
made and applied, and the queue moving on. No Qt here; evented like the session.

:class:`ReviewModel` owns the chain *decision → outcome → what is drawn where*: every
view reads the review it holds, and it tells its subscribers once per change — changes
made inside one :meth:`ReviewModel.one_change` block (one key press) are told once, when
the block ends. A decision is made in two steps so that the window can make it undoable:
``*_change`` works out a :class:`Change` (or raises :class:`~.decisions.Refused` with the
sentence for the person), :meth:`ReviewModel.apply` applies one. Saving is not here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from matcher.vocabulary import Rect

from .decisions import (
    Answer,
    AnswerKey,
    ClaimDecision,
    Entry,
    EvidenceDecision,
    EvidenceKey,
    Refused,
    utc_now,
)
from .questions import question
from .review import ClaimState, ItemState, Placement, Review, Support, copies, with_note
from .session import Change as SessionChange
from .session import Session


@dataclass(frozen=True)
class Change:
    """One decision to put (``new``), the one it replaces (``old``), and its name."""

    key: EvidenceKey | AnswerKey | str
    old: Entry | None
    new: Entry | None
    text: str


class ReviewModel:
    """The review being worked through; :attr:`changed` callbacks hear of every change."""

    def __init__(self, session: Session, reviewer: str) -> None:
        self.session = session
        self.reviewer = reviewer
        self.review = Review()
        self.current = 0  # the selected claim's evidence item being decided
        self.auto_advance = True  # a claim fully decided moves on to the next in the queue
        self.clock: Callable[[], float] = time.monotonic
        self.advanced_at = -math.inf  # when a decided claim last moved the queue on
        self._callbacks: list[Callable[[], None]] = []
        # The depth of one_change blocks under way, and whether anything changed in them.
        self._depth = 0
        self._pending = False
        session.changed.connect(self._on_session)

    # -- events -------------------------------------------------------------------------
    def connect(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    @contextmanager
    def one_change(self) -> Iterator[None]:
        """Everything done inside is told as one change, when the outermost block ends."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._pending:
                self._pending = False
                self._tell()

    def notify(self) -> None:
        """Something the review shows changed: tell now, or when the block ends."""
        if self._depth:
            self._pending = True
        else:
            self._tell()

    def _tell(self) -> None:
        for cb in list(self._callbacks):
            cb()

    def _on_session(self, change: SessionChange) -> None:
        s = self.session
        if change in ("citations", "documents", "report", "consistency"):
            self.review.attach(s.citations, s.report,
                               {d.id: d.sha256 for d in s.documents.values()},
                               s.unusable_documents())
        if change in ("report", "copies"):
            self.review.other_copies = s.other_copies
        if change == "selection":
            self.current = self._first_open_item()
        if change in ("citations", "documents", "report", "selection", "copies",
                      "consistency"):
            self.notify()

    # -- reading ------------------------------------------------------------------------
    def state(self) -> ClaimState | None:
        claim = self.session.selected
        return self.review.claim_state(claim) if claim is not None else None

    def item(self) -> ItemState | None:
        state = self.state()
        if state is None or not state.items:
            return None
        return state.items[min(self.current, len(state.items) - 1)]

    def _first_open_item(self) -> int:
        state = self.state()
        if state is None:
            return 0
        required = [i.index for i in state.required() if not i.decided]
        return required[0] if required else 0

    # -- deciding -----------------------------------------------------------------------
    def placement_change(self, placement: Placement, *, page: int | None = None,
                         rects: tuple[Rect, ...] = (), document: str | None = None,
                         text: str | None = None) -> Change | None:
        """The current item's placement decision; None when no item is selected."""
        item = self.item()
        if item is None or self.review.citations is None:
            return None
        new = self.review.placement(item.claim, item.index, placement, reviewer=self.reviewer,
                                    at=utc_now(), page=page, rects=rects, document=document,
                                    text=text)
        return Change((item.claim, item.index), item.decision, new,
                      f"{placement.replace('_', ' ')} {item.claim}/{item.index + 1}")

    def copy_change(self, number: int) -> Change | None:
        """Confirm copy ``number`` (1-based, the matcher's own first) of the current item's
        quoted words as the one meant; None when it has no such copy."""
        item = self.item()
        if item is None or item.outcome is None:
            return None
        found = copies(item.outcome)
        if not 1 <= number <= len(found):
            return None
        chosen = found[number - 1]
        return self.placement_change("confirmed", page=chosen.page, rects=chosen.rects,
                                     document=item.outcome.document)

    def support_change(self, support: Support) -> Change | None:
        state = self.state()
        if state is None:
            return None
        new = self.review.support(state.id, support, reviewer=self.reviewer, at=utc_now())
        return Change(state.id, state.support, new, f"{support.replace('_', ' ')} {state.id}")

    def answer_change(self, question_id: str, value: str) -> Change | None:
        """An answer to a further question about the claim (or its current item)."""
        state, item = self.state(), self.item()
        q = question(question_id)
        index = None if q.scope == "claim" else (item.index if item is not None else None)
        if state is None or (q.scope == "item" and index is None):
            return None
        old = state.answer(question_id, index)
        new = self.review.answer(question_id, state.id, index, value, reviewer=self.reviewer,
                                 at=utc_now())
        return Change(new.key, old.answer if old is not None else None, new,
                      f"{q.title.lower()} {value} {state.id}")

    def note_change(self, key: EvidenceKey | AnswerKey | str, note: str) -> Change | None:
        """Another note for the decision about item ``key`` (or claim ``key``, or the
        answer ``key`` to a further question)."""
        d = self.review.decisions
        old: Entry | None = d.answers.get(key) if isinstance(key, tuple) and len(key) == 3 \
            else d.evidence.get(key) if isinstance(key, tuple) else d.claims.get(key)
        if old is None or old.note == note:
            return None
        return Change(key, old, with_note(old, note, reviewer=self.reviewer, at=utc_now()),
                      f"note on {key}")

    def clear_change(self, which: Literal["evidence", "claim"]) -> Change | None:
        """Withdraw the current item's placement (or the claim's support) decision."""
        state, item = self.state(), self.item()
        if which == "evidence" and item is not None and item.decision is not None:
            return Change(item.decision.key, item.decision, None, "clear placement")
        if which == "claim" and state is not None and state.support is not None:
            return Change(state.id, state.support, None, "clear support")
        return None

    def apply(self, key: EvidenceKey | AnswerKey | str, value: Entry | None) -> None:
        """Set (or withdraw) one decision, history kept; the claim it is about is selected
        and its item made current, so what changed is in view (undo, redo)."""
        at = utc_now()
        d = self.review.decisions
        index: int | None = None
        if isinstance(key, tuple) and len(key) == 3:
            assert value is None or isinstance(value, Answer)
            d.put_answer(key, value, by=self.reviewer, at=at)
            claim, index = key[1], key[2]
        elif isinstance(key, tuple):
            assert value is None or isinstance(value, EvidenceDecision)
            d.put_evidence(key, value, by=self.reviewer, at=at)
            claim, index = key[0], key[1]
        else:
            assert value is None or isinstance(value, ClaimDecision)
            d.put_claim(key, value, by=self.reviewer, at=at)
            claim = key
        if self.session.selected != claim and self.review.claim_state(claim) is not None:
            self.session.select(claim)
        if index is not None:
            self.current = index
        self.notify()

    def after_decision(self) -> None:
        """Move to what needs deciding next: the claim's next open item, else (once the
        claim is decided) the next undecided claim of the queue."""
        state = self.state()
        if state is None:
            return
        open_items = [i.index for i in state.required() if not i.decided]
        if open_items:
            self.current = open_items[0]
        elif state.decided and state.in_queue and self.auto_advance:
            following = self.review.next_in_queue(state.id, 1)
            if following is not None and following != state.id:
                self.advanced_at = self.clock()
                self.session.select(following)
        self.notify()


__all__ = ["Change", "Refused", "ReviewModel"]
