"""A claim's consistency follows the reviewer's placement decisions in the window: marked
a wrong place, its evidence stands on no words (unchecked); relocated, on the words the
reviewer selected; confirmed, on the words confirmed. The check process reads them again
(``Reconsider``) and the claims list's badge, the detail pane, the status summary and the
review queue follow the reply, told once per change; undo puts the check's reading back.
Run with the bundled demo and a real check process."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from viewer.state.files import demo_path
from viewer.state.presentation import STATUS_WORDS
from viewer.state.session import Change
from viewer.window.shell import MainWindow

from .review_helpers import FRAUD, open_and_check, pdf_words, press, relocate_by_drag

MakeWindow = Callable[..., MainWindow]
SAID = "The claim says $952.18; its evidence says $925.18"
# The demo's rate table: "Other Structures (Coverage B) $27,700 $500 $33.24 12 months", the
# row under the one c15 and c16 quote (PyMuPDF's block number for it on page 1).
OTHER_ROW_BLOCK = 47


def _cite(folder: Path) -> Path:
    """The demo in ``folder``, plus ``c17``: a claim with no figures whose quote stands
    five times on a page (placed for review, so the check reads no words for it)."""
    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    for name in ("demo.cite", "policy.pdf"):
        shutil.copy(demo_path().parent / name, folder / name)
    cite = folder / "demo.cite"
    data = json.loads(cite.read_text(encoding="utf-8"))
    data["claims"].append({"id": "c17", "text": "Fraud on the application is a crime.",
                           "evidence": [{"document": "policy", "page": 3, "quote": FRAUD}]})
    cite.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return cite


def _status(window: MainWindow, claim: str) -> str:
    result = window.session.claim_result(claim)
    assert result is not None
    return result.consistency.status


def _changes(window: MainWindow) -> list[Change]:
    seen: list[Change] = []
    window.session.changed.connect(seen.append)
    return seen


def _badges(window: MainWindow, claim: str) -> tuple[str, ...]:
    return next(r.badges for r in window.claims.model_._rows if r.id == claim)


def test_a_wrong_place_leaves_the_claim_unchecked_and_undo_puts_it_back(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window((1200, 800))
    open_and_check(qtbot, window, _cite(tmp_path))
    s = window.session
    assert _status(window, "c15") == "differs" and "differs" in _badges(window, "c15")
    assert s.report is not None and s.report.summary.differs == 1
    s.select("c15")
    assert SAID in window.detail.toPlainText()
    state = window.review.controller.review.claim_state("c15")
    assert state is not None and state.differs
    seen = _changes(window)
    told: list[None] = []
    window.review.controller.changed.connect(lambda: told.append(None))

    press(qtbot, window, "W")
    assert _status(window, "c15") == "differs"  # the reply is not in yet
    decided = len(told)
    qtbot.waitUntil(lambda: _status(window, "c15") == "unchecked", timeout=20000)
    assert seen.count("consistency") == 1  # one emit for one change
    assert len(told) == decided + 1  # and the review tells it once
    assert "differs" not in _badges(window, "c15")
    assert s.report.summary.differs == 0
    assert "The claim says" not in window.detail.toPlainText()
    assert STATUS_WORDS["differs"] not in window.reader.summary.text()
    after = window.review.controller.review.claim_state("c15")
    assert after is not None and not after.differs

    press(qtbot, window, "Ctrl+Z")  # the decision withdrawn: the check's reading again
    qtbot.waitUntil(lambda: _status(window, "c15") == "differs", timeout=20000)
    assert seen.count("consistency") == 2
    assert "differs" in _badges(window, "c15") and s.report.summary.differs == 1
    assert SAID in window.detail.toPlainText()
    assert STATUS_WORDS["differs"] in window.reader.summary.text()


def test_a_relocation_reads_the_words_the_reviewer_selected(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    cite = _cite(tmp_path)
    pdf = cite.parent / "policy.pdf"
    window = make_window((1200, 800))
    open_and_check(qtbot, window, cite)
    assert _status(window, "c16") == "consistent"  # "twelve months at $925.18"
    window.session.select("c16")
    row = [i for i, w in enumerate(pdf_words(pdf, 0)) if w[5] == OTHER_ROW_BLOCK]
    seen = _changes(window)
    relocate_by_drag(qtbot, window, pdf, 0, row[0], row[-1])
    qtbot.waitUntil(lambda: _status(window, "c16") == "differs", timeout=20000)
    result = window.session.claim_result("c16")
    assert result is not None
    # The other row's term is 12 months too: only the premium differs, and the figure
    # named against it is one of the words the reviewer selected (the matcher's choice).
    selected = {w[4] for w in pdf_words(pdf, 0) if w[5] == OTHER_ROW_BLOCK}
    [d] = result.consistency.differences
    assert (d.kind, d.claim) == ("number", "$925.18") and d.evidence in selected
    assert seen.count("consistency") == 1
    assert "differs" in _badges(window, "c16")
    assert f"The claim says $925.18; its evidence says {d.evidence}" in \
        window.detail.toPlainText()
    assert "c16" in window.review.controller.review.queue()


def test_a_confirmation_reads_the_words_it_confirmed(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window((1200, 800))
    open_and_check(qtbot, window, _cite(tmp_path))
    result = window.session.claim_result("c17")
    assert result is not None and result.evidence[0].status == "review"
    assert _status(window, "c17") == "unchecked"  # a review placement: no words read
    window.session.select("c17")
    seen = _changes(window)
    press(qtbot, window, "C")
    qtbot.waitUntil(lambda: _status(window, "c17") == "consistent", timeout=20000)
    assert seen.count("consistency") == 1
    assert _status(window, "c15") == "differs"  # the other claims as the check read them


def test_decisions_read_from_the_review_file_are_read_into_the_check(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    cite = _cite(tmp_path)
    window = make_window((1200, 800))
    open_and_check(qtbot, window, cite)
    window.session.select("c15")
    press(qtbot, window, "W")  # saved to the review file beside the citations file
    qtbot.waitUntil(lambda: _status(window, "c15") == "unchecked", timeout=20000)
    again = make_window((1200, 800))
    open_and_check(qtbot, again, cite)  # the check's own reading first, then the review's
    qtbot.waitUntil(lambda: _status(again, "c15") == "unchecked", timeout=20000)
    assert "differs" not in _badges(again, "c15")
    assert _status(again, "c16") == "consistent"
