"""A review file made read-only (0444) while the window works: the window says so, keeps
the decisions, and offers Save As; the file is left exactly as it was."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .review_helpers import demo_window, press, sidecar


def test_a_read_only_review_file_is_not_replaced_and_save_as_is_offered(
        qtbot: QtBot, make_window: Callable[..., MainWindow], tmp_path: Path,
        prefs: Preferences) -> None:
    prefs.set_reviewer("jdoe")
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    review_file = tmp_path / "demo.review.json"
    window.session.select("c8")
    press(qtbot, window, "C")  # saved beside the file
    review_file.chmod(0o444)
    before = review_file.read_bytes()
    press(qtbot, window, "S")
    panel = window.review.panel
    assert panel.problem_bar.isVisibleTo(window)
    assert "is read-only" in panel.problem.text() and "another name" in panel.problem.text()
    assert window.review.actions.save_as.isVisible()
    assert window.review.actions.save_as.isEnabled()
    assert review_file.read_bytes() == before  # not replaced, even by root
    assert stat.S_IMODE(review_file.stat().st_mode) == 0o444
    elsewhere = tmp_path / "mine.review.json"
    assert window.review.controller.save_as(elsewhere)
    saved = {c["claim"]: c["support"] for c in sidecar(elsewhere)["claims"]}
    assert saved == {"c8": "supported"}
