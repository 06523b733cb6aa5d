"""A note never runs as keys: a sentence typed into any note field (the item's, the
claim's, and each further question's answer's), in every state of the review, changes no
decision, no selection and no mode — it is the note, or nothing.

The sentence is the one that once made eleven decisions in three seconds: its letters
are the review's keys (N, C, W, R, A, S, P, X, U, I, E, digits, "/"), with and without
Shift. Keys are typed for real (QTest through Qt's shortcut map), after the field got
the focus both ways a reviewer gives it: the note's key (E, Shift+E) and a click (an
answer's note has no key of its own: it is clicked). Two further questions are asked,
one per claim and one per item, whose answers' keys (Q, O, Y, G) the sentence holds too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.further_questions import FAIRNESS, SOURCE
from viewer.state import questions
from viewer.state.questions import Question
from viewer.widgets.note_field import NoteField
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .review_helpers import demo_window, press

MakeWindow = Callable[..., MainWindow]
SENTENCE = ("Quote says 1,500,000; page says 1,000,000. Claim wrong. "
            "NCWRASPXUIE / 123 nwraspxuie")


@pytest.fixture
def reviewer(prefs: Preferences) -> str:
    prefs.set_reviewer("jdoe")
    return "jdoe"


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> tuple[Question, ...]:
    """The further questions, asked before the window is made (its panel reads them)."""
    monkeypatch.setattr(questions, "QUESTIONS", (*questions.QUESTIONS, FAIRNESS, SOURCE))
    return FAIRNESS, SOURCE


def decisions(window: MainWindow) -> dict[Any, str]:
    """What is decided, notes left out: (claim, index) → placement, claim → support,
    (question, claim, index) → answer."""
    d = window.review.controller.review.decisions
    out: dict[Any, str] = {k: e.placement for k, e in d.evidence.items()}
    out.update({k: c.support for k, c in d.claims.items()})
    out.update({k: a.value for k, a in d.answers.items()})
    return out


def modes(window: MainWindow) -> tuple[object, ...]:
    ui = window.review
    return (window.session.selected, ui.controller.current, ui.relocation.active,
            ui.actions.everything.isChecked(), window.session.shown_document)


def type_into(qtbot: QtBot, window: MainWindow, field: NoteField, how: str) -> None:
    """Give ``field`` the focus the way a reviewer does, then type the sentence."""
    panel = window.review.panel
    if how == "key" and field in (panel.evidence_note, panel.claim_note):
        press(qtbot, window, "Shift+E" if field is panel.claim_note else "E")
    else:
        qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    assert field.hasFocus(), how
    qtbot.keyClicks(field, SENTENCE)


STATES = ["no claim", "undecided", "placement decided", "both decided", "all answered",
          "relocating"]


def reach(qtbot: QtBot, window: MainWindow, state: str) -> None:
    ui = window.review
    if state == "no claim":
        window.session.select(None)
        return
    window.session.select("c9")
    ui.controller.model.auto_advance = False  # stay on c9 once it is decided
    if state in ("placement decided", "both decided", "all answered"):
        press(qtbot, window, "A")
    if state in ("both decided", "all answered"):
        press(qtbot, window, "X")
    if state == "all answered":
        press(qtbot, window, "Q", "Y")
    if state == "relocating":
        press(qtbot, window, "R")
        assert ui.relocation.active


@pytest.mark.parametrize("how", ["key", "click"])
@pytest.mark.parametrize("state", STATES)
def test_a_sentence_typed_into_a_note_decides_nothing(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str,
        asked: tuple[Question, ...], state: str, how: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    panel = window.review.panel
    reach(qtbot, window, state)
    fairness, source = panel.answer_notes["fairness"], panel.answer_notes["source"]
    checked = 0
    for field in (panel.evidence_note, panel.claim_note, fairness, source):
        before, mode = decisions(window), modes(window)
        type_into(qtbot, window, field, how)
        assert decisions(window) == before, f"{state}, {how}: a letter decided something"
        assert modes(window) == mode, f"{state}, {how}: a letter changed the review"
        takes_text = (field is panel.evidence_note and state in (
            "placement decided", "both decided", "all answered")) or (
            field is panel.claim_note and state in ("both decided", "all answered")) or (
            field in (fairness, source) and state == "all answered")
        assert field.isReadOnly() is not takes_text
        assert field.text() == (SENTENCE if takes_text else "")
        if not takes_text:
            assert field.placeholderText() == field.waiting != ""  # it says why
        qtbot.keyClick(field, Qt.Key.Key_Return)  # the note is kept; keys are the page's
        assert window.view.hasFocus()
        assert decisions(window) == before and modes(window) == mode
        d = window.review.controller.review.decisions
        if takes_text and field is panel.evidence_note:
            assert d.evidence[("c9", 0)].note == SENTENCE
        if takes_text and field is panel.claim_note:
            assert d.claims["c9"].note == SENTENCE
        if takes_text and field is fairness:
            assert d.answers[("fairness", "c9", None)].note == SENTENCE
        if takes_text and field is source:
            assert d.answers[("source", "c9", 0)].note == SENTENCE
        checked += 1
    assert checked == 4


def test_the_waiting_field_says_what_comes_first(qtbot: QtBot, make_window: MakeWindow,
                                                 tmp_path: Path, reviewer: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    panel = window.review.panel
    window.session.select("c9")
    assert "placement first" in panel.evidence_note.placeholderText()
    assert "support first" in panel.claim_note.placeholderText()
    assert panel.evidence_note.isEnabled() and panel.claim_note.isEnabled()
    press(qtbot, window, "A")
    assert not panel.evidence_note.isReadOnly() and panel.claim_note.isReadOnly()


def test_a_note_goes_to_the_decision_it_was_typed_about(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    """Another claim selected (by the mouse) while a note is being typed: the note is
    kept for the decision it was typed about, never given to the other claim's."""
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    panel, d = window.review.panel, window.review.controller.review.decisions
    window.session.select("c8")
    press(qtbot, window, "C")
    window.session.select("c9")
    press(qtbot, window, "A", "E")
    qtbot.keyClicks(panel.evidence_note, "not on any page")
    window.session.select("c8")  # the focus is still in the note
    assert d.evidence[("c9", 0)].note == "not on any page"
    assert d.evidence[("c8", 0)].note == ""
    qtbot.keyClick(panel.evidence_note, Qt.Key.Key_Return)
    assert d.evidence[("c8", 0)].note == "" and d.evidence[("c9", 0)].note == "not on any page"


def test_an_answers_note_waits_for_its_answer(qtbot: QtBot, make_window: MakeWindow,
                                              tmp_path: Path, reviewer: str,
                                              asked: tuple[Question, ...]) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    notes = window.review.panel.answer_notes
    window.session.select("c9")
    assert notes["fairness"].placeholderText() == "Answer fairness first; the note goes with it."
    assert notes["source"].isReadOnly() and notes["fairness"].isReadOnly()
    press(qtbot, window, "Q")  # the claim's question answered: its note opens, the item's not
    assert not notes["fairness"].isReadOnly() and notes["source"].isReadOnly()
    press(qtbot, window, "Y")
    assert not notes["source"].isReadOnly()
    assert notes["source"].placeholderText() == "Note on the source answer"
