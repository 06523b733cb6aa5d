"""The review in the window: the panel under the pages, the filter over the claims list,
the Review menu, and the dialogs the review needs.

:class:`ReviewUi` builds these into a :class:`~viewer.window.shell.MainWindow` and keeps
them showing the :class:`~.review.ReviewController`'s state: the decisions' highlights on
the page (decided words in the highlight colour, wrong places and absent quotes without
one), the review's marks over it, the panel's words, the claims' tags and the filter.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from matcher.vocabulary import EvidenceStatus, Rect

from ..state import claim_filter
from ..state.links import Link
from ..state.outcome import ItemRecord
from ..state.presentation import TAG_WORDS, support_word
from ..state.questions import extra as extra_questions
from ..state.questions import questions
from ..state.review import Placement, Support, copies
from ..state.review_store import folder_writable, review_folder
from ..state.review_text import location_text, panel_text
from ..widgets.claim_filter import ClaimFilterBar
from ..widgets.review_panel import PanelActions, ReviewPanel
from .consistency import ConsistencyFollower
from .refusals import Refusals
from .relocation import Relocation
from .review import ReviewController
from .review_actions import ReviewActions, ReviewSlots

if TYPE_CHECKING:
    from .shell import MainWindow

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")
# A decision key pressed again this soon after the queue moved on is the same press
# repeated (a double tap, key repeat), not a decision about the claim now shown.
REPEAT_GUARD_S = 0.3


def place(window: MainWindow, panel: QWidget, filter_bar: QWidget) -> None:
    """The review panel goes under the pages, the filter bar over the claims list."""
    column = window.view.parentWidget().layout()
    assert column is not None
    column.addWidget(panel)
    holder = QWidget()
    box = QVBoxLayout(holder)
    box.setContentsMargins(0, 0, 0, 0)
    box.setSpacing(0)
    parent = window.claims.parentWidget()
    index = parent.indexOf(window.claims) if isinstance(parent, QSplitter) else -1
    box.addWidget(filter_bar)
    box.addWidget(window.claims)
    if isinstance(parent, QSplitter):
        parent.insertWidget(index, holder)
    elif parent is not None and parent.layout() is not None:
        parent.layout().addWidget(holder)


class ReviewUi(QObject):
    """The review's part of one window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        prefs = window.prefs
        self.controller = ReviewController(window.session, prefs.reviewer(), self,
                                           chosen=prefs.review_for,
                                           remember=prefs.set_review_for)
        self.relocation = Relocation(self.controller, window.selecting, self)
        one, once = self._one_change, self._not_repeated
        self._last_decision: tuple[object, float] = ((), -math.inf)
        self.refusals = Refusals(window, self)  # decisions greyed out, and why
        self.actions = ReviewActions(window, ReviewSlots(
            step_queue=one(self.step_queue), step_item=one(self.step_item),
            placement=one(once("placement", self.decide)), relocate=one(self.relocate),
            accept=one(self.relocation.accept), cancel=one(self.cancel),
            pick=one(once("pick", self.controller.pick_copy)),
            support=one(once("support", self.support)),
            answer=one(once("answer", lambda qv: self.controller.decide_answer(*qv))),
            note=self.edit_note, clear=one(self.clear), everything=one(self.set_everything),
            search=self.focus_search, save_as=self.save_as_dialog,
            open_review=self.open_review_dialog,
            retry=one(self.controller.save), merge=one(self.controller.merge),
            overwrite=one(self.controller.overwrite), reviewer=self.reviewer_dialog),
            self.controller.undo_stack)
        self.menu = self.actions.build_menu(window, before=window.menus.help)
        a = self.actions
        self.panel = ReviewPanel(PanelActions(
            [(q.title, list(a.answers[q.id].values())) for q in questions()], a.everything,
            [a.retry, a.save_as, a.merge, a.overwrite]))
        self.filter_bar = ClaimFilterBar()
        place(window, self.panel, self.filter_bar)
        window.claims.delegate.tags = self._tags
        # Every change the review shows comes through the controller's one signal, told
        # once per command (a test counts the refreshes per key press).
        self.controller.changed.connect(self.refresh)
        self.relocation.changed.connect(self.controller.notify)
        self.relocation.message.connect(lambda text: window.statusBar().showMessage(text, 8000))
        self.controller.message.connect(lambda text: window.statusBar().showMessage(text, 0))
        self.panel.note_edited.connect(self._note_edited)
        self.panel.done_editing.connect(lambda: window.view.setFocus())
        self.filter_bar.changed.connect(self.apply_filter)
        self.filter_bar.done_editing.connect(lambda: window.view.setFocus())
        window.claims.model_.modelReset.connect(self.apply_filter)
        window.claims.model_.dataChanged.connect(self.apply_filter)  # a badge changed
        self.consistency = ConsistencyFollower(  # read again after a placement decision
            window.session, self.controller, window.controller, parent=self,
            say=lambda text: window.statusBar().showMessage(text, 8000))
        window.detail.link.connect(self._followed)
        window.detail.chosen = self._chosen_copy
        self.controller.changed.connect(self._refresh_copies)  # the copy chosen shows
        window.installEventFilter(self)
        self.refresh()

    def _one_change(self, slot: Callable[P, object]) -> Callable[P, None]:
        """``slot`` run as one change: the review refreshes once, when it is done."""
        def run(*args: P.args, **kwargs: P.kwargs) -> None:
            with self.controller.one_change():
                slot(*args, **kwargs)
        return run

    def _not_repeated(self, name: str, slot: Callable[[T], object]) -> Callable[[T], None]:
        """``slot``, except when the same decision key comes again within
        :data:`REPEAT_GUARD_S` and the queue moved on between the two: a key pressed
        twice decides the claim it was meant for, never also the next one."""
        def run(value: T) -> None:
            c, key, now = self.controller.model, (name, value), self.controller.model.clock()
            last, at = self._last_decision
            # The same key again, soon, and the queue moved on in between.
            repeated = key == last and now - at < REPEAT_GUARD_S and c.advanced_at >= at
            self._last_decision = (key, now)
            if repeated:
                self.window.statusBar().showMessage(
                    "Moved on to the next claim: that key was pressed twice at once; press "
                    "it again to decide this claim.", 5000)
                return
            slot(value)
        return run

    # -- showing ------------------------------------------------------------------------
    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        """A claim's evidence rectangles on one document, decisions applied."""
        return self.controller.highlights(claim_id, doc_id)

    def focus(self, claim_id: str | None, doc_id: str | None) -> tuple[int, list[Rect]] | None:
        return self.controller.focus(claim_id, doc_id)

    def records(self, claim_id: str | None) -> list[ItemRecord]:
        """A claim's items as every view draws them."""
        return self.controller.review.records(claim_id)

    def marks(self, doc_id: str | None, claim_id: str | None = None
              ) -> dict[int, EvidenceStatus]:
        """The pages of a document the thumbnails mark, decisions applied."""
        return self.controller.review.marks(doc_id, claim_id)

    def refresh(self) -> None:
        """Show the review as it is now: panel, page, claims list, commands."""
        c, s, w = self.controller, self.controller.session, self.window
        store = c.store
        location = location_text(store.path if store else None, store.where if store else "",
                                 store.why if store else "", saved=c.problem is None)
        selection = self.relocation.drag.selection
        text = panel_text(c.review, s.selected, c.current, location=location,
                          relocating=self.relocation.active,
                          selected=selection.text() if selection is not None else "")
        self.panel.set_highlight(w.view.highlighter.color)
        self.panel.show_text(text, c.problem.text if c.problem is not None else "")
        self.panel.setVisible(s.citations is not None)
        self.filter_bar.setVisible(s.citations is not None)
        w.view.set_highlights(c.highlights(s.selected, s.shown_document))
        self.relocation.refresh_marks()
        w.claims.viewport().update()
        self._enable(text.active, text.placement_value, text.support_value)
        self.apply_filter()

    def _enable(self, active: bool, placement: Placement | None,
                support: Support | None) -> None:
        a, c = self.actions, self.controller
        item = c.item()
        has_item = active and item is not None
        for p, action in a.placements.items():
            # Greyed out where the review refuses it (a missing document, nothing drawn).
            why = c.review.refusal(item.claim, item.index, p) if has_item and item else ""
            self.refusals.show(action, why, enabled=has_item and c.review.report is not None)
            action.setChecked(p == placement or (p == "relocated" and self.relocation.active))
        for s, action in a.supports.items():
            action.setEnabled(active)
            action.setChecked(s == support)
        state = c.state()
        for q in extra_questions():  # the further questions, per claim or per item
            index = None if q.scope == "claim" else (item.index if item is not None else None)
            said = state.answer(q.id, index) if state is not None else None
            value = said.answer.value if said is not None and said.decided \
                and said.answer is not None else None
            for v, action in a.answers[q.id].items():
                action.setEnabled(active and (q.scope == "claim" or has_item))
                action.setChecked(v == value)
        n = len(copies(item.outcome)) if item is not None and item.outcome is not None else 0
        for k, action in enumerate(a.copies, start=1):
            action.setEnabled(has_item and k <= n)
        a.accept.setEnabled(self.relocation.active)
        a.cancel.setEnabled(self.relocation.active)
        kind = c.problem.kind if c.problem is not None else None
        a.retry.setVisible(kind == "unwritable")
        a.merge.setVisible(kind == "conflict")
        a.overwrite.setVisible(kind == "conflict")
        a.save_as.setEnabled(c.store is not None)
        a.open_review.setEnabled(c.store is not None)
        for action in (a.next, a.prev, a.next_item, a.prev_item, a.clear_placement,
                       a.clear_support):
            action.setEnabled(active)
        # A note's key always reaches its field, which says what must come first.
        for action in (a.evidence_note, a.claim_note):
            action.setEnabled(c.session.citations is not None)

    def _tags(self, claim_id: str) -> list[str]:
        state = self.controller.review.claim_state(claim_id)
        if state is None:
            return []
        said = {"flag": bool(state.claim.flag),
                "stale": state.support_stale or any(i.stale for i in state.items),
                "decided": state.decided}
        tags = [TAG_WORDS[k] for k, shown in said.items() if shown]
        if state.decided and state.support is not None:
            # Which decision: a supported claim and a not-supported one never look alike.
            tags[-1] = f"{TAG_WORDS['decided']}: {support_word(state.support.support)}"
        return tags

    def apply_filter(self) -> None:
        s, bar = self.window.session, self.filter_bar
        if bar.kind == "all" and not bar.query.strip():
            self.window.claims.show_only(None)
            return
        self.window.claims.show_only(claim_filter.visible(
            s.rows(), s.citations, self.controller.review, bar.kind, bar.query))

    # -- commands -----------------------------------------------------------------------
    def step_queue(self, delta: int) -> None:
        target = self.controller.review.next_in_queue(self.window.session.selected, delta)
        if target is None:
            self.window.statusBar().showMessage("Every claim to review is decided.", 5000)
        else:
            self.window.session.select(target)

    def step_item(self, delta: int) -> None:
        """The claim's next or previous evidence item, shown where it stands."""
        state = self.controller.state()
        if state is not None and state.items:
            self.controller.current = (self.controller.current + delta) % len(state.items)
            self.controller.notify()
            self.window.reader.navigator.follow(Link("show", self.controller.current))

    def _refresh_copies(self) -> None:
        """The detail pane again when the claim shown has copies to choose from."""
        state = self.controller.state()
        if state is not None and any(i.outcome is not None and i.outcome.alternatives
                                     for i in state.items):
            self.window.detail.refresh()

    def _chosen_copy(self, claim_id: str, index: int) -> int | None:
        """The number (reading order) of the copy the item's decision confirmed."""
        state = self.controller.review.claim_state(claim_id)
        item = state.items[index] if state is not None and index < len(state.items) else None
        if item is None or item.outcome is None or item.decision is None or item.stale:
            return None
        found = copies(item.outcome)
        return next((n for n, c in enumerate(found, start=1)
                     if item.decision.placement == "confirmed"
                     and c.rects == item.decision.rects), None)

    def _followed(self, link: Link) -> None:
        """A link of the detail pane to one evidence item (its placement, a copy, another
        page) makes that item the one decided: the keys act on what is shown."""
        state = self.controller.state()
        if link.kind != "tip" and state is not None and 0 <= link.item < len(state.items) \
                and link.item != self.controller.current:
            if self.relocation.active:
                self.relocation.stop()
            self.controller.current = link.item
            self.controller.notify()

    def decide(self, placement: Placement) -> None:
        self.relocation.stop()
        self.controller.decide_placement(placement)

    def support(self, support: Support) -> None:
        self.controller.decide_support(support)

    def relocate(self) -> None:
        if not self.relocation.start():
            self.window.statusBar().showMessage("Select a claim with evidence on a document "
                                                "that is open to relocate it.", 5000)

    def cancel(self) -> None:
        self.relocation.stop()
        self.window.statusBar().showMessage("Relocation cancelled.", 3000)

    def clear(self, which: str) -> None:
        self.controller.clear("claim" if which == "claim" else "evidence")

    def edit_note(self, which: str) -> None:
        # The field takes the focus either way: without a decision to note on it says
        # so, and what is typed goes nowhere (never to the review's keys).
        edit = self.panel.claim_note if which == "claim" else self.panel.evidence_note
        edit.setFocus()
        edit.selectAll()
        if edit.waiting:
            self.window.statusBar().showMessage(edit.waiting, 5000)

    def _note_edited(self, which: str, subject: object, note: str) -> None:
        if which == "claim" and isinstance(subject, str):
            self.controller.set_note(subject, note)
        elif isinstance(subject, tuple) and len(subject) == 2:
            self.controller.set_note((str(subject[0]), int(subject[1])), note)
        elif which == "answer" and isinstance(subject, tuple) and len(subject) == 3:
            q, claim, index = subject  # a further question's answer
            self.controller.set_note((str(q), str(claim), index if isinstance(index, int)
                                      else None), note)

    def set_everything(self, on: bool) -> None:
        self.controller.review.everything = on
        self.controller.current = 0
        self.controller.notify()

    def focus_search(self) -> None:
        self.filter_bar.search.setFocus()
        self.filter_bar.search.selectAll()

    def save_as_dialog(self) -> None:
        if not self.window.interactive or self.controller.store is None:
            return
        from PySide6.QtWidgets import QFileDialog  # dialogs: made on first use

        chosen, _ = QFileDialog.getSaveFileName(
            self.window, "Save review as", str(self.save_as_suggestion()),
            "Review (*.review.json);;JSON (*.json)")
        if chosen:
            self.controller.save_as(Path(chosen))

    def save_as_suggestion(self) -> Path:
        """Where Save As proposes: the review file's place when that folder can be
        written, else the data folder (never the folder that just refused it)."""
        store = self.controller.store
        assert store is not None
        if folder_writable(store.path.parent) and not (
                self.controller.problem is not None
                and self.controller.problem.kind == "unwritable"):
            return store.path
        return review_folder() / store.path.name

    def open_review_dialog(self) -> None:
        """Review ▸ Open Review…: read the decisions from a review file saved elsewhere."""
        if not self.window.interactive or self.window.session.citations_path is None:
            return
        from PySide6.QtWidgets import QFileDialog  # dialogs: made on first use

        store = self.controller.store
        chosen, _ = QFileDialog.getOpenFileName(
            self.window, "Open review", str(store.path.parent if store else ""),
            "Review (*.review.json);;JSON (*.json)")
        if chosen:
            self.controller.open_review(Path(chosen))

    def reviewer_dialog(self) -> None:
        if not self.window.interactive:
            return
        from PySide6.QtWidgets import QInputDialog, QLineEdit  # dialogs: made on first use

        name, ok = QInputDialog.getText(self.window, "Reviewer name",
                                        "Decisions are recorded under this name:",
                                        QLineEdit.EchoMode.Normal, self.controller.reviewer)
        if ok and name.strip():
            self.window.prefs.set_reviewer(name)
            self.controller.reviewer = name.strip()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Before the window closes with decisions that are not on disk, ask."""
        if watched is self.window and event.type() == QEvent.Type.Close \
                and self.controller.unsaved and self.window.interactive:
            assert isinstance(event, QCloseEvent)
            from PySide6.QtWidgets import QMessageBox  # dialogs: made on first use

            answer = QMessageBox.warning(
                self.window, "Decisions not saved",
                f"{self.controller.problem.text if self.controller.problem else ''}\n\n"
                "Save them elsewhere before closing?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel)
            if answer == QMessageBox.StandardButton.Save:
                self.save_as_dialog()
            if answer == QMessageBox.StandardButton.Cancel or (
                    answer == QMessageBox.StandardButton.Save and self.controller.unsaved):
                event.ignore()
                return True
        return False
