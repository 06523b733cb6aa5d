"""The review of the open citations file: decisions made, undone, redone and saved at once.

The :class:`ReviewController` keeps the Qt-free :class:`~viewer.state.review.Review` in
step with the session (the file, its documents' hashes, the report), reads the file's
sidecar when it is opened, and turns every decision into a command on a ``QUndoStack``
whose doing and undoing both save the sidecar at once. A save that fails — a read-only
folder, a full disk, a file another program changed meanwhile — keeps every decision in
memory, says so (:attr:`problem`), and leaves the person the choice: try again, save
elsewhere, merge with the file on disk, or overwrite it. Nothing here opens a dialog.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from matcher.vocabulary import Rect

from ..state.questions import question
from ..state.review import (
    Answer,
    AnswerKey,
    ClaimDecision,
    ClaimState,
    Entry,
    EvidenceDecision,
    EvidenceKey,
    ItemState,
    Placement,
    Refused,
    Review,
    Support,
    copies,
    utc_now,
    with_note,
)
from ..state.review_store import (
    SUFFIX,
    ConflictError,
    ReviewStore,
    SaveError,
    review_folder,
    write_atomic,
)
from ..state.session import Change, Session
from ..state.sidecar import SidecarError, dumps

log = logging.getLogger(__name__)

ProblemKind = Literal["unreadable", "conflict", "unwritable"]


@dataclass(frozen=True)
class Problem:
    """Why the decisions are not (all) on disk, in a sentence, and what kind it is."""

    kind: ProblemKind
    text: str


class _Put(QUndoCommand):
    """Set one decision (or withdraw it, None); undone by putting back what it replaced."""

    def __init__(self, owner: ReviewController, key: EvidenceKey | AnswerKey | str,
                 old: Entry | None, new: Entry | None, text: str) -> None:
        super().__init__(text)
        self.owner, self.key, self.old, self.new = owner, key, old, new

    def redo(self) -> None:
        with self.owner.one_change():
            self.owner.put(self.key, self.new)

    def undo(self) -> None:
        with self.owner.one_change():
            self.owner.put(self.key, self.old)


class ReviewController(QObject):
    """Decisions about the session's file: made, undone, saved; what needs a person."""

    changed = Signal()  # decisions, the current item, the queue or the save state changed
    message = Signal(str)  # a sentence for the status bar

    def __init__(self, session: Session, reviewer: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.reviewer = reviewer
        self.review = Review()
        self.store: ReviewStore | None = None
        self.problem: Problem | None = None
        self.undo_stack = QUndoStack(self)
        self.current = 0  # the selected claim's evidence item being decided
        self.auto_advance = True  # a claim fully decided moves on to the next in the queue
        # Changes made inside one command are told once, when it ends (one key press, one
        # refresh): the depth of commands under way, and whether anything changed.
        self._depth = 0
        self._pending = False
        self.clock: Callable[[], float] = time.monotonic
        self.advanced_at = -math.inf  # when a decided claim last moved the queue on
        session.changed.connect(self._on_session)

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
                self.changed.emit()

    def notify(self) -> None:
        """Tell the review's views something they show changed (once per command)."""
        self._changed()

    def _changed(self) -> None:
        if self._depth:
            self._pending = True
        else:
            self.changed.emit()

    # -- following the session ----------------------------------------------------------
    def _on_session(self, change: Change) -> None:
        if change == "citations":
            self._open()
        if change in ("citations", "documents", "report"):
            self._attach()
        if change in ("report", "copies"):
            self.review.other_copies = self.session.other_copies
        if change == "selection":
            self.current = self._first_open_item()
        if change in ("citations", "documents", "report", "selection", "copies"):
            self._changed()

    def _attach(self) -> None:
        s = self.session
        self.review.attach(s.citations, s.report,
                           {d.id: d.sha256 for d in s.documents.values()})

    def _open(self) -> None:
        """Read the sidecar of the file just opened (its decisions, or none)."""
        self._rescue()
        self.undo_stack.clear()
        self.problem = None
        everything = self.review.everything
        self.review = Review()
        self.review.everything = everything
        path = self.session.citations_path
        self.store = None if path is None or self.session.citations is None \
            else ReviewStore.for_citations(path)
        if self.store is None:
            return
        try:
            self.review.decisions = self.store.load()
        except SidecarError as exc:
            log.info("review file not read: %s", exc)
            self.problem = Problem("unreadable", f"{exc} — it is left as it is; decisions "
                                                 "made now are kept here until saved "
                                                 "elsewhere.")
        name = path.name if path is not None else ""
        self.review.decisions.citations = self.review.decisions.citations or (
            name if self.store.where == "beside" else str(path))

    def _rescue(self) -> None:
        """Another file is being opened while decisions about the last one are not on
        disk: keep them in the data folder, and say where."""
        if self.store is None or self.problem is None or not (
                self.review.decisions.evidence or self.review.decisions.claims):
            return
        stamp = utc_now().replace(":", "").replace("-", "")
        path = review_folder() / f"unsaved-{self.store.path.name.removesuffix(SUFFIX)}-" \
                                 f"{stamp}{SUFFIX}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, dumps(self.review.decisions))
        except (OSError, SaveError) as exc:
            log.error("unsaved decisions about %s lost: %s", self.store.path, exc)
            self.message.emit(f"The unsaved decisions could not be kept: {exc}")
            return
        log.warning("unsaved decisions about %s kept in %s", self.store.path, path)
        self.message.emit(f"The decisions that could not be saved were kept in {path}")

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

    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        return self.review.highlights(claim_id, doc_id)

    def focus(self, claim_id: str | None, doc_id: str | None) -> tuple[int, list[Rect]] | None:
        return self.review.focus(claim_id, doc_id)

    @property
    def unsaved(self) -> bool:
        return self.problem is not None

    # -- deciding -----------------------------------------------------------------------
    def decide_placement(self, placement: Placement, *, page: int | None = None,
                         rects: tuple[Rect, ...] = (), document: str | None = None,
                         text: str | None = None) -> bool:
        """Decide the current item's placement; False when no item is selected."""
        item = self.item()
        if item is None or self.review.citations is None:
            return False
        try:
            new = self.review.placement(item.claim, item.index, placement,
                                        reviewer=self.reviewer, at=utc_now(), page=page,
                                        rects=rects, document=document, text=text)
        except Refused as exc:
            self.message.emit(str(exc))
            return False
        self._push((item.claim, item.index), item.decision, new,
                   f"{placement.replace('_', ' ')} {item.claim}/{item.index + 1}")
        self._after_decision()
        return True

    def pick_copy(self, number: int) -> bool:
        """Confirm copy ``number`` (1-based, the matcher's own first) of the current item's
        quoted words as the one meant; False when it has no such copy."""
        item = self.item()
        if item is None or item.outcome is None:
            return False
        found = copies(item.outcome)
        if not 1 <= number <= len(found):
            return False
        chosen = found[number - 1]
        return self.decide_placement("confirmed", page=chosen.page, rects=chosen.rects,
                                     document=item.outcome.document)

    def decide_support(self, support: Support) -> bool:
        state = self.state()
        if state is None:
            return False
        new = self.review.support(state.id, support, reviewer=self.reviewer, at=utc_now())
        self._push(state.id, state.support, new, f"{support.replace('_', ' ')} {state.id}")
        self._after_decision()
        return True

    def decide_answer(self, question_id: str, value: str) -> bool:
        """Answer a further question about the selected claim (or its current item)."""
        state, item = self.state(), self.item()
        if state is None:
            return False
        q = question(question_id)
        index = None if q.scope == "claim" else (item.index if item is not None else None)
        if q.scope == "item" and index is None:
            return False
        old = state.answer(question_id, index)
        try:
            new = self.review.answer(question_id, state.id, index, value,
                                     reviewer=self.reviewer, at=utc_now())
        except Refused as exc:
            self.message.emit(str(exc))
            return False
        self._push(new.key, old.answer if old is not None else None, new,
                   f"{q.title.lower()} {value} {state.id}")
        self._after_decision()
        return True

    def set_note(self, key: EvidenceKey | str, note: str) -> bool:
        """Give the decision about item ``key`` (or claim ``key``) another note; False
        when there is no decision to note on."""
        d = self.review.decisions
        old: Entry | None = d.evidence.get(key) if isinstance(key, tuple) \
            else d.claims.get(key)
        if old is None or old.note == note:
            return False
        self._push(key, old, with_note(old, note, reviewer=self.reviewer, at=utc_now()),
                   f"note on {key}")
        return True

    def clear(self, which: Literal["evidence", "claim"]) -> bool:
        """Withdraw the current item's placement (or the claim's support) decision."""
        state, item = self.state(), self.item()
        if which == "evidence" and item is not None and item.decision is not None:
            self._push(item.decision.key, item.decision, None, "clear placement")
            return True
        if which == "claim" and state is not None and state.support is not None:
            self._push(state.id, state.support, None, "clear support")
            return True
        return False

    def _push(self, key: EvidenceKey | AnswerKey | str, old: Entry | None,
              new: Entry | None, text: str) -> None:
        self.undo_stack.push(_Put(self, key, old, new, text))

    def _after_decision(self) -> None:
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
        self._changed()

    def put(self, key: EvidenceKey | AnswerKey | str, value: Entry | None) -> None:
        """Set (or withdraw) one decision, history kept, and save at once; the claim it is
        about is selected, so what changed is in view (undo, redo)."""
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
        self.save()
        self._changed()

    # -- saving -------------------------------------------------------------------------
    def save(self) -> bool:
        """Write the decisions now; False (and :attr:`problem` says why) if they are only
        in memory."""
        if self.store is None:
            return False
        if self.problem is not None and self.problem.kind in ("unreadable", "conflict"):
            self._changed()
            return False  # never written over until the person chooses how
        return self._write(lambda store: store.save(self.review.decisions))

    def save_as(self, path: Path) -> bool:
        """Write the decisions to ``path`` and keep saving there."""
        if self.store is None:
            return False
        return self._write(lambda store: store.save_as(path, self.review.decisions))

    def overwrite(self) -> bool:
        """Write the decisions over whatever is on disk now (the person chose to)."""
        if self.store is None:
            return False
        return self._write(lambda store: store.overwrite(self.review.decisions))

    def merge(self) -> bool:
        """Merge the decisions with the file on disk now, and save the result."""
        store = self.store
        if store is None:
            return False

        def merge(store: ReviewStore) -> None:
            self.review.decisions = store.merge(self.review.decisions, by=self.reviewer,
                                                at=utc_now())

        try:
            ok = self._write(merge)
        except SidecarError as exc:
            self.problem = Problem("unreadable", f"{exc} — cannot merge with it; save the "
                                                 "decisions elsewhere.")
            ok = False
        self._changed()
        return ok

    def _write(self, how: Callable[[ReviewStore], None]) -> bool:
        assert self.store is not None
        try:
            how(self.store)
        except ConflictError as exc:
            self.problem = Problem("conflict", f"{exc.path} {exc.reason}. Your decisions are "
                                               "kept here: merge them with that file, save "
                                               "them elsewhere, or overwrite it.")
        except SaveError as exc:
            self.problem = Problem("unwritable", f"The decisions could not be saved to "
                                                 f"{exc.path}: {exc.reason}. They are kept "
                                                 "here; try again or save them elsewhere.")
        else:
            self.problem = None
            self._changed()
            return True
        log.info("review not saved: %s", self.problem.text)
        self._changed()
        return False
