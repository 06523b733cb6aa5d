"""The review's commands: one key each, listed in a Review menu (and so in F1's list).

Placement: ``C`` confirm, ``W`` wrong place, ``R`` relocate (drag across the words, then
``Enter``; ``Esc`` cancels), ``A`` absent, ``1``–``9`` the copy meant. Support: ``S``
supported, ``P`` partly, ``X`` not supported, ``U`` uncitable. ``N``/``Shift+N`` walk
the claims that still need deciding, ``I``/``Shift+I`` a claim's evidence items; ``E`` and
``Shift+E`` edit the notes, ``Del``/``Shift+Del`` withdraw a decision, ``Ctrl+Z`` and
``Ctrl+Shift+Z`` undo and redo, ``/`` searches the claims. Single keys are window
shortcuts, so typing in a text field still types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMainWindow, QMenu

from ..state.questions import PLACEMENT, SUPPORT, questions
from ..state.review import Placement, Support
from .actions import Slot, command

# The key of each decision: the questions' own (:mod:`viewer.state.questions`).
PLACEMENT_KEYS: dict[Placement, str] = dict(PLACEMENT.keys)  # type: ignore[arg-type]
SUPPORT_KEYS: dict[Support, str] = dict(SUPPORT.keys)  # type: ignore[arg-type]
# Copies of a quote that can be chosen with one key.
MAX_COPY_KEYS = 9


@dataclass
class ReviewSlots:
    """What the review's commands do (given by the window's review part)."""

    step_queue: Callable[[int], object]
    step_item: Callable[[int], object]
    placement: Callable[[Placement], object]
    relocate: Slot
    accept: Slot
    cancel: Slot
    pick: Callable[[int], object]
    support: Callable[[Support], object]
    answer: Callable[[tuple[str, str]], object]  # (question id, value): further questions
    note: Callable[[str], object]
    clear: Callable[[str], object]
    everything: Callable[[bool], object]
    search: Slot
    save_as: Slot
    open_review: Slot
    retry: Slot
    merge: Slot
    overwrite: Slot
    reviewer: Slot


class ReviewActions(QObject):
    """Every review command as a QAction, and the Review menu listing them."""

    def __init__(self, window: QMainWindow, slots: ReviewSlots, undo: QUndoStack) -> None:
        super().__init__(window)
        a = self._action
        self.next = a("&Next to Decide", lambda: slots.step_queue(1), "N",
                      tip="The next claim that still needs a decision")
        self.prev = a("Pre&vious to Decide", lambda: slots.step_queue(-1), "Shift+N")
        self.next_item = a("Next &Evidence Item", lambda: slots.step_item(1), "I")
        self.prev_item = a("Previous Evidence &Item", lambda: slots.step_item(-1), "Shift+I")
        # One checkable command per answer of each question, its key the question's.
        self.answers: dict[str, dict[str, QAction]] = {}
        for q in questions():
            self.answers[q.id] = {}
            for v in q.values:
                key, (text, label) = q.keys[v], q.commands[v]
                slot: Slot = slots.relocate if (q.id, v) == ("placement", "relocated") \
                    else (lambda v=v: slots.placement(v)) if q is PLACEMENT \
                    else (lambda v=v: slots.support(v)) if q is SUPPORT \
                    else (lambda q=q, v=v: slots.answer((q.id, v)))
                self.answers[q.id][v] = a(text, slot, key, checkable=True,
                                          label=f"{label} ({key})")
        self.placements = self.answers[PLACEMENT.id]
        self.supports = self.answers[SUPPORT.id]
        self.accept = a("Record &Selected Words", slots.accept, "Return", "Enter")
        self.cancel = a("Cancel Relocation", slots.cancel, "Escape")
        self.copies = [a(f"Choose Copy {n}", lambda n=n: slots.pick(n), str(n))
                       for n in range(1, MAX_COPY_KEYS + 1)]
        self.evidence_note = a("Note on Evidence Item…", lambda: slots.note("evidence"), "E")
        self.claim_note = a("Note on Claim…", lambda: slots.note("claim"), "Shift+E")
        self.clear_placement = a("Withdraw Placement Decision",
                                 lambda: slots.clear("evidence"), "Del")
        self.clear_support = a("Withdraw Support Decision", lambda: slots.clear("claim"),
                               "Shift+Del")
        self.undo = undo.createUndoAction(self, "&Undo")
        self.undo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
        self.redo = undo.createRedoAction(self, "&Redo")
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        window.addActions([self.undo, self.redo])
        self.everything = a("Review &Everything", lambda: None, "Ctrl+Shift+E", checkable=True,
                            tip="Every claim and item, not only those that need a person")
        self.everything.toggled.connect(slots.everything)
        self.search = a("Search Claims", slots.search, "/")
        # The panel's problem bar offers these as buttons under their short names.
        self.save_as = a("Save Review &As…", slots.save_as, "Ctrl+Shift+S", label="Save As…")
        self.open_review = a("&Open Review…", slots.open_review,
                             tip="Read the decisions from a review file saved elsewhere")
        self.retry = a("Try Again", slots.retry)
        self.merge = a("&Merge with File on Disk", slots.merge, label="Merge")
        self.overwrite = a("&Overwrite File on Disk", slots.overwrite, label="Overwrite")
        self.reviewer = a("Reviewer &Name…", slots.reviewer)

    def _action(self, text: str, slot: Slot, *keys: str, checkable: bool = False,
                tip: str = "", label: str = "") -> QAction:
        parent = self.parent()
        assert isinstance(parent, QMainWindow)
        # A checkable decision is then set to what the review says, whatever the click
        # toggled it to (the command calls the slot without the checked state).
        action = command(parent, text, slot, *keys, tip=tip)
        action.setCheckable(checkable)
        if label:
            action.setIconText(label)
        parent.addAction(action)
        return action

    def build_menu(self, window: QMainWindow, *, before: QMenu) -> QMenu:
        """Add the Review menu, before the menu ``before`` (Help)."""
        menu = QMenu("&Review", window)
        groups = [[self.next, self.prev, self.next_item, self.prev_item],
                  list(self.placements.values()), [self.accept, self.cancel],
                  *(list(answers.values()) for qid, answers in self.answers.items()
                    if qid != PLACEMENT.id),
                  [self.evidence_note, self.claim_note, self.clear_placement,
                   self.clear_support],
                  [self.undo, self.redo], [self.everything, self.search],
                  [self.open_review, self.save_as, self.merge, self.overwrite,
                   self.reviewer]]
        for i, group in enumerate(groups):
            if i:
                menu.addSeparator()
            menu.addActions(group)
            if group is groups[1]:
                copies = menu.addMenu("Choose Cop&y")
                copies.addActions(self.copies)
        window.menuBar().insertMenu(before.menuAction(), menu)
        return menu

