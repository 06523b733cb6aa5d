"""A document that is missing or cannot be read, in the window: the decisions the review
refuses about its quotes are greyed out and say why (the review model's one rule), and a
damaged PDF has a badge of its own, apart from a quote that is not there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from viewer.palette import MIN_DISTANCE, badge_color, distance
from viewer.state.presentation import STATUS_WORDS, undecidable_document
from viewer.state.review import NOTHING_TO_CONFIRM
from viewer.window.shell import MainWindow

from .helpers import open_and_check, paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]


def two_claims(folder: Path) -> Path:
    """One quote that is on page 2, one that is nowhere."""
    text_pdf(folder / "policy.pdf", pages=3)
    return write_citations(folder / "claims.cite", "policy.pdf", [
        {"id": "there", "text": "on page 2", "evidence": [
            {"page": 2, "quote": paragraph_lines(1, 40)[3]}]},
        {"id": "nowhere", "text": "invented", "evidence": [
            {"page": 2, "quote": "zebra quantum harpsichord volcano marmalade"}]}])


def button(window: MainWindow, action: QAction) -> QToolButton:
    [found] = [b for b in window.review.panel.findChildren(QToolButton)
               if b.defaultAction() is action]
    return found


def test_no_placement_decision_about_a_missing_documents_quote(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    cite = two_claims(tmp_path)
    (tmp_path / "policy.pdf").unlink()
    window = make_window()
    open_and_check(qtbot, window, cite)
    window.session.select("there")
    placements = window.review.actions.placements
    why = undecidable_document("policy")
    for p, action in placements.items():  # Absent too: it says what the words are
        assert not action.isEnabled(), p
        assert action.toolTip() == why
        assert button(window, action).accessibleDescription().startswith(why)
    assert f"· {STATUS_WORDS['missing']}" in window.review.panel.claim.text()
    # The claim's support is a person's call about the claim, and stays open.
    assert all(a.isEnabled() for a in window.review.actions.supports.values())
    window.view.setFocus()
    for key in "CWRA":  # each key says why, and decides nothing
        window.statusBar().clearMessage()
        qtbot.keyClick(window.view, key)
        assert window.statusBar().currentMessage() == why, key
    assert window.review.controller.review.decisions.evidence == {}
    assert not window.review.relocation.active


def test_a_readable_documents_decisions_follow_what_is_drawn(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, two_claims(tmp_path))
    placements = window.review.actions.placements
    window.session.select("there")
    assert [r.badges for r in window.session.rows()] == [("located",), ("not_located",)]
    own = {p: a.toolTip() for p, a in placements.items()}
    assert all(a.isEnabled() for a in placements.values())
    window.session.select("nowhere")
    confirm = placements["confirmed"]
    assert not confirm.isEnabled() and confirm.toolTip() == NOTHING_TO_CONFIRM
    assert button(window, confirm).accessibleDescription().startswith(NOTHING_TO_CONFIRM)
    assert placements["absent"].isEnabled() and placements["relocated"].isEnabled()
    window.session.select("there")  # its own tooltip back once it can be done again
    assert confirm.isEnabled() and confirm.toolTip() == own["confirmed"]
    assert button(window, confirm).accessibleDescription().startswith(own["confirmed"])


def test_a_damaged_pdf_has_its_own_badge_and_count(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    """Not the red "not located" of a quote that is not there: the quote was never
    looked for. The check's own status stays not_located (``check --json`` unchanged)."""
    cite = two_claims(tmp_path)
    (tmp_path / "policy.pdf").write_bytes(b"%PDF-1.7\nthis is not really a PDF\n")
    window = make_window()
    open_and_check(qtbot, window, cite)
    assert window.session.documents["policy"].state == "corrupt"
    assert [e.status for c in window.session.report.claims  # type: ignore[union-attr]
            for e in c.evidence] == ["not_located", "not_located"]
    assert [r.badges for r in window.session.rows()] == [("unreadable",), ("unreadable",)]
    assert window.reader.summary.text().startswith(
        f"2 claims: 0 located · 2 {STATUS_WORDS['unreadable']}")
    assert "not located" not in window.reader.summary.text()
    window.session.select("there")
    pane = window.detail.toPlainText()
    assert "policy.pdf cannot be read — no highlight shown" in pane
    assert STATUS_WORDS["unreadable"] in pane and STATUS_WORDS["not_located"] not in pane
    assert window.review.panel.claim.text().endswith(f"· {STATUS_WORDS['unreadable']}")
    highlight = window.view.highlighter.color
    assert distance(badge_color("unreadable", highlight),
                    badge_color("not_located", highlight)) >= MIN_DISTANCE
    assert window.session.step(1, flagged_only=True) is not None  # "next flagged" stops
