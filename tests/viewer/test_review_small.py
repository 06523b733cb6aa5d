"""Smaller things the review gets right: a review file (or a check report) opened as a
citations file is refused with its name and what it is; decided claims show which
decision; Ctrl+Q quits the application, every window."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .review_helpers import demo_window, press

MakeWindow = Callable[..., MainWindow]


def test_a_review_file_opened_as_citations_is_refused(qtbot: QtBot, make_window: MakeWindow,
                                                      tmp_path: Path,
                                                      prefs: Preferences) -> None:
    prefs.set_reviewer("jdoe")
    cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    window.session.select("c8")
    press(qtbot, window, "C")
    review = tmp_path / "demo.review.json"
    assert review.is_file()
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(review)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert str(review) in done.stderr and "is a citeview review file" in done.stderr
    assert "'demo.cite'" in done.stderr
    report = tmp_path / "report.json"
    report.write_text(subprocess.run(
        [sys.executable, "-m", "viewer.cli", "check", str(cite), "--json"],
        capture_output=True, text=True, timeout=120).stdout, encoding="utf-8")
    assert json.loads(report.read_text(encoding="utf-8"))["claims"]
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(report)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "is a citeview check report" in done.stderr


def test_decided_claims_show_which_decision(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path, prefs: Preferences) -> None:
    prefs.set_reviewer("jdoe")
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    window.session.select("c8")
    press(qtbot, window, "C", "S")  # c8 supported, on to c9
    press(qtbot, window, "A", "X")  # c9 absent and not supported
    tags = window.claims.delegate.tags
    assert "✓ decided: supported" in tags("c8")
    assert "✓ decided: not supported" in tags("c9")


def test_ctrl_q_quits_every_window(qtbot: QtBot, make_window: MakeWindow) -> None:
    first, second = make_window((900, 700)), make_window((900, 700))
    assert first.isVisible() and second.isVisible()
    first.commands.quit.trigger()
    qtbot.waitUntil(lambda: not first.isVisible() and not second.isVisible(), timeout=5000)


def test_open_review_reads_one_saved_elsewhere_and_it_is_remembered(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, prefs: Preferences) -> None:
    """Save As… to another folder, reopen the file: the review saved elsewhere is used
    again; Review ▸ Open Review… reads one, and Save As proposes a writable place."""
    from .review_helpers import open_and_check, sidecar

    prefs.set_reviewer("jdoe")
    cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    c = window.review.controller
    elsewhere = tmp_path / "kept" / "mine.review.json"
    elsewhere.parent.mkdir()
    window.session.select("c8")
    press(qtbot, window, "C")
    assert c.save_as(elsewhere) and sidecar(elsewhere)["evidence"][0]["claim"] == "c8"
    assert prefs.review_for(cite) == elsewhere
    assert window.review.save_as_suggestion() == elsewhere  # its folder can be written
    (tmp_path / "demo.review.json").unlink()
    window.close()

    again = make_window((1280, 800))
    open_and_check(qtbot, again, cite)
    assert again.review.controller.store is not None
    assert again.review.controller.store.path == elsewhere  # remembered
    assert ("c8", 0) in again.review.controller.review.decisions.evidence

    other = tmp_path / "other.review.json"
    other.write_bytes(elsewhere.read_bytes().replace(b'"confirmed"', b'"wrong_place"', 1))
    assert again.review.controller.open_review(other)
    assert again.review.controller.review.decisions.evidence[("c8", 0)].placement == \
        "wrong_place"
    assert prefs.review_for(cite) == other and again.review.controller.store.path == other
    assert "other.review.json" in again.review.panel.location.text()


def test_menus_are_in_their_order_and_handed_over(make_window: MakeWindow) -> None:
    window = make_window((900, 700))
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&View", "&Claims", "&Review", "&Help"]
    assert window.review.menu.menuAction() in window.menuBar().actions()
    assert window.reader.badges in window.menus.help.actions()


def test_the_summary_and_copy_citation_carry_the_decisions(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, prefs: Preferences) -> None:
    prefs.set_reviewer("jdoe")
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    summary = window.reader.summary
    assert summary.text().endswith(" · 0 of 4 to review decided")
    window.session.select("c8")
    press(qtbot, window, "C", "S")
    assert summary.text().endswith(" · 1 of 4 to review decided")
    citation = window.reader.copying.texts("c8")[2]
    assert "— support: supported by jdoe" in citation.splitlines()[0]
    assert "— placement: confirmed by jdoe" in citation.splitlines()[1]


def test_a_located_document_is_kept_in_the_review_and_used_by_check_and_export(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, prefs: Preferences) -> None:
    """Locate… points a missing document elsewhere: the review file keeps where, so
    ``citeview check`` and ``export`` read it from there (the window's own memory of it
    is test_defects')."""
    from .review_helpers import demo_copy, open_and_check, sidecar

    prefs.set_reviewer("jdoe")
    cite = demo_copy(tmp_path)
    moved = tmp_path / "elsewhere" / "policy.pdf"
    moved.parent.mkdir()
    (tmp_path / "policy.pdf").rename(moved)
    window = make_window((1280, 800))
    open_and_check(qtbot, window, cite)
    assert window.session.documents["policy"].state == "missing"
    window.controller.ask_path = lambda *_a: moved  # type: ignore[method-assign]
    window.controller.locate_document("policy")
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    window.session.select("c8")
    press(qtbot, window, "C")
    review = tmp_path / "demo.review.json"
    assert sidecar(review)["documents"] == {"policy": str(moved)}

    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(cite), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # the document is found where it was located
    c8 = next(c for c in json.loads(done.stdout)["claims"] if c["id"] == "c8")
    assert c8["evidence"][0]["decision"]["stale"] is False
    out = tmp_path / "r.csv"
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "export", str(cite), "--csv",
                           str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "c8" in out.read_text(encoding="utf-8-sig")
