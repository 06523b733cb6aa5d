"""The review panel under the pages: what is decided about the selected claim, the keys
to decide it, and where the decisions are saved.

It shows a :class:`~viewer.state.review_text.PanelText` (built from the review, without
Qt) and offers the window's review commands as buttons, each labelled with its key, so
the panel teaches the keyboard. The placement and support buttons show the decision in
force as checked. The notes are edited here; a note is kept once Enter is pressed or
the field is left: one for the item's placement, one for the claim's support, and one
for each further question's answer (:mod:`viewer.state.questions`). A note field takes
every key while it has the focus; before there is a decision to note on it says so and
the keys go nowhere (:mod:`.note_field`).
When the decisions could not be saved the panel says why in a bar of
its own, with the ways out (try again, save elsewhere, merge, overwrite).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..palette import INK, notice_color
from ..state.questions import extra as extra_questions
from ..state.review_text import PanelText, answer_placeholder
from .buttons import action_description
from .labels import LineLabel, WrapLabel
from .note_field import NoteField


@dataclass(frozen=True)
class PanelActions:
    """The window's commands the panel offers as buttons."""

    # One row per review question: its title and its answers' commands (placement:
    # confirm, wrong place, relocate, absent; support: supported, partly, …).
    rows: Sequence[tuple[str, Sequence[QAction]]]
    everything: QAction  # checkable: every claim, not only those that need a person
    remedies: Sequence[QAction]  # try again, save as, merge, overwrite (when they apply)


def _button(action: QAction) -> QToolButton:
    button = QToolButton()
    button.setDefaultAction(action)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    button.setAutoRaise(False)
    return button


def _described(action: QAction) -> QToolButton:
    """A decision's button, its accessible description following the command's tooltip:
    a decision the review refuses is greyed out and says why."""
    button = _button(action)
    button.setAccessibleDescription(action_description(action))
    action.changed.connect(
        lambda: button.setAccessibleDescription(action_description(action)))
    return button


class ReviewPanel(QFrame):
    """Decisions about the selected claim, and the keys to make them."""

    # "evidence", "claim" or "answer", the decision noted on (an evidence key, a claim id
    # or an answer key), the note
    note_edited = Signal(str, object, str)
    done_editing = Signal()  # Enter in a note: the keys are the page's again

    def __init__(self, actions: PanelActions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("review-panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # The decision in force reads at a glance: its button is pressed and bold.
        self.setStyleSheet("QToolButton:checked { font-weight: bold; }")
        self.actions = actions
        self.progress = LineLabel(bold=True, squeeze=False)
        self.location = LineLabel(elide=Qt.TextElideMode.ElideMiddle)  # the file name shows
        self.claim = LineLabel(bold=True, squeeze=False)
        self.flag = LineLabel()
        self.decisions = LineLabel()
        self.hint = LineLabel()
        self.evidence_note = self._note("Note on this evidence item (E)", "evidence")
        self.claim_note = self._note("Note on the claim (Shift+E)", "claim")
        # A note per further question's answer, by question id.
        self.answer_notes = {q.id: self._note(answer_placeholder(q), "answer")
                             for q in extra_questions()}
        self.problem = WrapLabel()
        self._build()
        self.show_text(PanelText("", ""))

    def _note(self, placeholder: str, which: str) -> NoteField:
        edit = NoteField(placeholder)
        edit.kept.connect(lambda subject, note: self.note_edited.emit(which, subject, note))
        edit.done.connect(self.done_editing)
        return edit

    def _build(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.progress)
        top.addWidget(_button(self.actions.everything))
        top.addWidget(self.location, 1)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        for row, (name, actions) in enumerate(self.actions.rows):
            grid.addWidget(QLabel(name), row, 0)
            buttons = QHBoxLayout()
            buttons.setSpacing(3)
            for action in actions:
                buttons.addWidget(_described(action))
            buttons.addStretch(1)
            grid.addLayout(buttons, row, 1)
        grid.setColumnStretch(1, 1)
        notes = QHBoxLayout()
        notes.addWidget(self.evidence_note, 1)
        notes.addWidget(self.claim_note, 1)
        answers = QHBoxLayout()  # on a line of their own: each keeps room for its words
        for edit in self.answer_notes.values():
            answers.addWidget(edit, 1)
        # Why the decisions are not saved, across the panel's width (a sentence or two
        # naming a file), and the ways out in a row under it.
        self.problem_bar = QFrame()
        self.problem_bar.setAutoFillBackground(True)
        bar = QVBoxLayout(self.problem_bar)
        bar.setContentsMargins(6, 3, 6, 3)
        bar.setSpacing(3)
        bar.addWidget(self.problem)
        remedies = QHBoxLayout()
        remedies.setSpacing(3)
        remedies.addStretch(1)
        for action in self.actions.remedies:
            button = _button(action)
            remedies.addWidget(button)
            # Only the ways out that apply are offered (a tool button would show the others
            # greyed out).
            action.changed.connect(lambda b=button, a=action: b.setVisible(a.isVisible()))
        bar.addLayout(remedies)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 4, 8, 4)
        column.setSpacing(2)
        column.addWidget(self.problem_bar)
        column.addLayout(top)
        # Each row keeps its line whether it says something or not, so the pages above
        # do not jump when another claim is selected.
        for first, second in ((self.claim, self.flag), (self.decisions, None),
                              (self.hint, None)):
            row = QHBoxLayout()
            row.setSpacing(12)
            row.addWidget(first, 0 if second is not None else 1)
            if second is not None:
                row.addWidget(second, 1)
            column.addLayout(row)
        column.addLayout(grid)
        column.addLayout(notes)
        if self.answer_notes:
            column.addLayout(answers)

    def set_highlight(self, highlight: QColor) -> None:
        """Keep the problem bar's colour apart from the highlight colour."""
        pal = self.problem_bar.palette()
        pal.setColor(QPalette.ColorRole.Window, notice_color("error", highlight))
        pal.setColor(QPalette.ColorRole.WindowText, QColor(INK))
        self.problem_bar.setPalette(pal)

    def show_text(self, text: PanelText, problem: str = "") -> None:
        """Show what the review says now (and why it is not saved, if it is not)."""
        self.progress.setText(text.progress)
        self.location.setText(text.location)
        self.location.setToolTip(text.location)
        self.claim.setText(text.claim)
        self.flag.setText(text.flag)
        self.hint.setText("   ·   ".join(t for t in (text.differences, text.hint) if t))
        self.decisions.setText("   ·   ".join(
            t for t in (text.placement, text.support, text.answers) if t))
        # Never disabled: a disabled field cannot take the focus, and the keys typed
        # after a click into it would decide things on the page.
        for edit, note, waiting, subject in (
                (self.evidence_note, text.evidence_note, text.evidence_waiting,
                 text.evidence_key),
                (self.claim_note, text.claim_note, text.claim_waiting, text.claim_key)):
            edit.show_note(note, waiting, subject)
        for said in text.answer_notes:
            if said.question in self.answer_notes:
                self.answer_notes[said.question].show_note(said.note, said.waiting, said.key)
        self.problem.setText(problem)
        self.problem_bar.setVisible(bool(problem))
        layout = self.layout()
        if layout is not None:
            layout.activate()  # lay out now: a grab taken next shows the new words whole
