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
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from matcher.vocabulary import Rect

from ..state.review import (
    AnswerKey,
    ClaimState,
    Entry,
    EvidenceKey,
    ItemState,
    Placement,
    Refused,
    Review,
    Support,
    utc_now,
)
from ..state.review_store import (
    SUFFIX,
    ConflictError,
    ReviewStore,
    SaveError,
    review_folder,
    write_atomic,
)
from ..state.reviewing import Change as ReviewChange
from ..state.reviewing import ReviewModel
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
        self.owner.put(self.key, self.new)

    def undo(self) -> None:
        self.owner.put(self.key, self.old)


class ReviewController(QObject):
    """The review's undo stack and its saving: each decision the
    :class:`~viewer.state.reviewing.ReviewModel` works out becomes an undoable command
    whose doing and undoing both save the sidecar at once."""

    changed = Signal()  # the model told a change (once per command), or the save state did
    message = Signal(str)  # a sentence for the status bar

    def __init__(self, session: Session, reviewer: str, parent: QObject | None = None, *,
                 chosen: Callable[[Path], Path | None] = lambda _citations: None,
                 remember: Callable[[Path, Path], object] = lambda _c, _r: None) -> None:
        super().__init__(parent)
        self.session = session
        # The review file the person chose for a citations file, and how to remember one.
        self.chosen, self.remember = chosen, remember
        self.store: ReviewStore | None = None
        self.problem: Problem | None = None
        self.undo_stack = QUndoStack(self)
        # First the file's sidecar is read (here), then the model reads it against the file.
        session.changed.connect(self._on_session)
        self.model = ReviewModel(session, reviewer)
        self.model.connect(self.changed.emit)

    # -- the model's, for the window's parts ---------------------------------------------
    @property
    def review(self) -> Review:
        return self.model.review

    @property
    def reviewer(self) -> str:
        return self.model.reviewer

    @reviewer.setter
    def reviewer(self, name: str) -> None:
        self.model.reviewer = name

    @property
    def current(self) -> int:
        return self.model.current

    @current.setter
    def current(self, index: int) -> None:
        self.model.current = index

    def state(self) -> ClaimState | None:
        return self.model.state()

    def item(self) -> ItemState | None:
        return self.model.item()

    def one_change(self) -> AbstractContextManager[None]:
        return self.model.one_change()

    def notify(self) -> None:
        self.model.notify()

    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        return self.review.highlights(claim_id, doc_id)

    def focus(self, claim_id: str | None, doc_id: str | None) -> tuple[int, list[Rect]] | None:
        return self.review.focus(claim_id, doc_id)

    # -- following the session ----------------------------------------------------------
    def _on_session(self, change: Change) -> None:
        if change == "citations":
            self._open()
        if change == "documents":
            self._remember_located()

    def _remember_located(self) -> None:
        """A document pointed to elsewhere (Locate…) is kept in the review file, so that
        ``citeview check`` and ``export`` read it from there too (the window remembers it
        in its settings, :mod:`.locations`, and says so when it uses it)."""
        s = self.session
        if s.citations is None or self.store is None:
            return
        listed = {ref.id: ref.path for ref in s.citations.documents}
        moved = {d.id: str(d.path) for d in s.documents.values()
                 if d.id in listed and Path(d.path) != Path(listed[d.id])}
        known = self.review.decisions.documents
        if any(known.get(k) != v for k, v in moved.items()):
            known.update(moved)
            self.save()

    def _open(self) -> None:
        """Read the sidecar of the file just opened (its decisions, or none)."""
        self._rescue()
        self.undo_stack.clear()
        self.problem = None
        everything = self.review.everything
        self.model.review = Review()
        self.review.everything = everything
        path = self.session.citations_path
        picked = self.chosen(path) if path is not None else None
        self.store = None if path is None or self.session.citations is None \
            else ReviewStore(picked, "chosen") if picked is not None and picked.is_file() \
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

    @property
    def unsaved(self) -> bool:
        return self.problem is not None

    # -- deciding: the model works each decision out, made undoable here -----------------
    def _make(self, work: Callable[[], ReviewChange | None]) -> bool:
        """Make the decision ``work`` works out (False: none, or refused and said why)."""
        try:
            change = work()
        except Refused as exc:
            self.message.emit(str(exc))
            return False
        if change is None:
            return False
        with self.model.one_change():
            self.undo_stack.push(_Put(self, change.key, change.old, change.new, change.text))
            self.model.after_decision()
        return True

    def decide_placement(self, placement: Placement, *, page: int | None = None,
                         rects: tuple[Rect, ...] = (), document: str | None = None,
                         text: str | None = None) -> bool:
        """Decide the current item's placement; False when no item is selected."""
        return self._make(lambda: self.model.placement_change(
            placement, page=page, rects=rects, document=document, text=text))

    def pick_copy(self, number: int) -> bool:
        """Confirm copy ``number`` of the current item's quoted words as the one meant."""
        return self._make(lambda: self.model.copy_change(number))

    def decide_support(self, support: Support) -> bool:
        return self._make(lambda: self.model.support_change(support))

    def decide_answer(self, question_id: str, value: str) -> bool:
        """Answer a further question about the selected claim (or its current item)."""
        return self._make(lambda: self.model.answer_change(question_id, value))

    def set_note(self, key: EvidenceKey | AnswerKey | str, note: str) -> bool:
        """Give the decision about item ``key`` (or claim ``key``, or the answer ``key``)
        another note; False when there is no decision to note on."""
        change = self.model.note_change(key, note)
        if change is not None:
            self.undo_stack.push(_Put(self, change.key, change.old, change.new, change.text))
        return change is not None

    def clear(self, which: Literal["evidence", "claim"]) -> bool:
        """Withdraw the current item's placement (or the claim's support) decision."""
        change = self.model.clear_change(which)
        if change is not None:
            self.undo_stack.push(_Put(self, change.key, change.old, change.new, change.text))
        return change is not None

    def put(self, key: EvidenceKey | AnswerKey | str, value: Entry | None) -> None:
        """Set (or withdraw) one decision and save at once (undo, redo)."""
        with self.model.one_change():
            self.model.apply(key, value)
            self.save()

    # -- saving -------------------------------------------------------------------------
    def save(self) -> bool:
        """Write the decisions now; False (and :attr:`problem` says why) if they are only
        in memory."""
        if self.store is None:
            return False
        if self.problem is not None and self.problem.kind in ("unreadable", "conflict"):
            self.model.notify()
            return False  # never written over until the person chooses how
        return self._write(lambda store: store.save(self.review.decisions))

    def save_as(self, path: Path) -> bool:
        """Write the decisions to ``path`` and keep saving there (remembered for this
        citations file)."""
        if self.store is None:
            return False
        ok = self._write(lambda store: store.save_as(path, self.review.decisions))
        if ok and self.session.citations_path is not None:
            self.remember(self.session.citations_path, path)
        return ok

    def open_review(self, path: Path) -> bool:
        """Read the decisions from the review file ``path`` (one saved elsewhere) and keep
        saving there; remembered for this citations file. False, and said why, when it
        cannot be read (the decisions in the window are kept)."""
        if self.session.citations_path is None or self.session.citations is None:
            return False
        store = ReviewStore(path, "chosen")
        try:
            decisions = store.load()
        except SidecarError as exc:
            self.message.emit(f"{exc} — the review in this window is kept.")
            return False
        self.store, self.problem = store, None
        self.undo_stack.clear()
        decisions.citations = decisions.citations or self.session.citations_path.name
        self.review.decisions = decisions
        self.remember(self.session.citations_path, path)
        self.model.notify()
        return True

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
        self.model.notify()
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
            self.model.notify()
            return True
        log.info("review not saved: %s", self.problem.text)
        self.model.notify()
        return False
