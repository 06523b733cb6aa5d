"""The review, driven with the keyboard the way an underwriter drives it: walk the queue,
decide placement and support, relocate a quote by dragging across words, pick one of
several copies, undo and redo — and the sidecar on disk holds exactly what was decided.

Relocated rectangles are checked against PyMuPDF's own word boxes (never the viewer's
transform), on rotated and CropBox pages and at several zooms; at a device pixel ratio
of 2 in a process of its own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.render.overlay import Style
from viewer.state.files import demo_path
from viewer.state.links import Link
from viewer.state.review import copies as copies_of
from viewer.state.review_store import in_data_folder
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .helpers import color_outside, count_color, paragraph_lines
from .review_helpers import (
    demo_copy,
    demo_window,
    device_boxes,
    open_and_check,
    press,
    relocate_by_drag,
    relocation_cite,
    show_page,
    sidecar,
    word_index,
)

HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)
MakeWindow = Callable[..., MainWindow]
REPO = Path(__file__).resolve().parents[2]
ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@pytest.fixture
def reviewer(prefs: Preferences) -> str:
    prefs.set_reviewer("jdoe")
    return "jdoe"


def test_the_whole_review_by_keyboard(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                      reviewer: str) -> None:
    pdf = tmp_path / "policy.pdf"
    review_file = tmp_path / "demo.review.json"
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    panel = window.review.panel
    assert window.review.controller.review.queue() == ["c8", "c9", "c11", "c14"]
    assert panel.progress.text() == "0 of 4 to review decided"
    assert f"Saved to {review_file}" == panel.location.text()
    assert not review_file.exists()  # nothing decided, nothing written

    press(qtbot, window, "N")  # the first claim that needs a person
    assert window.session.selected == "c8"
    assert "needs review" in panel.claim.text()
    press(qtbot, window, "C")
    confirmed = sidecar(review_file)["evidence"][0]
    assert confirmed["placement"] == "confirmed"  # saved at once
    # What was confirmed: the page, the lines and the words drawn when C was pressed.
    drawn = window.session.claim_result("c8").evidence[0]  # type: ignore[union-attr]
    assert (confirmed["page"], confirmed["rects"], confirmed["text"]) == (
        drawn.page, [list(r) for r in drawn.rects], drawn.found_text)
    press(qtbot, window, "S")  # c8 is decided: on to the next in the queue
    assert window.session.selected == "c9" and panel.progress.text() == "1 of 4 to review decided"

    press(qtbot, window, "C")  # nothing is drawn for c9: Confirm is refused, and says so
    assert ("c9", 0) not in window.review.controller.review.decisions.evidence
    assert "Absent" in window.statusBar().currentMessage()
    press(qtbot, window, "A", "X")  # c9's quote is not in the document; not supported
    assert window.session.selected == "c11"

    # c11 cites an unknown chunk; the reviewer finds the words and selects them.
    expected = relocate_by_drag(qtbot, window, pdf, 2, *agent_words(pdf))
    press(qtbot, window, "S")
    assert window.session.selected == "c14"
    assert "Flagged upstream: the answer hedged" == panel.flag.text()

    # c14's words stand five times on page 3: all are shown, numbered; the third is meant.
    copies = window.session.claim_result("c14").evidence[0].alternatives  # type: ignore[union-attr]
    assert len(copies) == 4 and "press 1–5" in panel.hint.text()
    show_page(qtbot, window, 2)
    labels = {s for _, s, _ in window.review.relocation.overlay.painted}
    assert Style.COPY in labels
    press(qtbot, window, "3", "P")  # the third copy from the top of the page
    assert panel.progress.text() == "4 of 4 to review decided"
    outcome = window.session.claim_result("c14").evidence[0]  # type: ignore[union-attr]
    third = copies_of(outcome)[2]
    tops = [min(r[1] for r in c.rects) for c in copies_of(outcome)]
    assert tops == sorted(tops)  # numbered top to bottom
    window.session.select("c14")
    assert "copy 3 (page 3)</a> <b>(chosen)</b>" in window.detail.html()

    on_disk = sidecar(review_file)
    evidence = {(e["claim"], e["index"]): e for e in on_disk["evidence"]}
    assert {k: e["placement"] for k, e in evidence.items()} == {
        ("c8", 0): "confirmed", ("c9", 0): "absent", ("c11", 0): "relocated",
        ("c14", 0): "confirmed"}
    assert evidence[("c11", 0)]["page"] == 3
    assert evidence[("c11", 0)]["rects"] == [list(r) for r in expected]
    assert evidence[("c11", 0)]["text"] == "I certify that I personally met the applicant,"
    assert evidence[("c14", 0)]["rects"] == [list(r) for r in third.rects]
    assert {c["claim"]: c["support"] for c in on_disk["claims"]} == {
        "c8": "supported", "c9": "not_supported", "c11": "supported", "c14": "partly"}
    for entry in on_disk["evidence"] + on_disk["claims"]:
        assert entry["reviewer"] == reviewer and ISO_Z.match(entry["at"])
    assert on_disk["citations"] == "demo.cite" and on_disk["history"] == []

    press(qtbot, window, "Ctrl+Z", "Ctrl+Z")  # c14's support, then its copy, undone
    on_disk = sidecar(review_file)
    assert ("c14", 0) not in {(e["claim"], e["index"]) for e in on_disk["evidence"]}
    assert "c14" not in {c["claim"] for c in on_disk["claims"]}
    assert [(h["entry"], h["claim"], h["action"]) for h in on_disk["history"]] == [
        ("claim", "c14", "removed"), ("evidence", "c14", "removed")]
    assert on_disk["history"][1]["previous"]["rects"] == [list(r) for r in third.rects]
    assert window.session.selected == "c14" and panel.progress.text() == "3 of 4 to review decided"
    press(qtbot, window, "Ctrl+Shift+Z")  # the copy is chosen again
    assert sidecar(review_file)["evidence"][-1]["placement"] == "confirmed"


def agent_words(pdf: Path) -> tuple[int, int]:
    """Word indices (PyMuPDF's order, page 3) of "I certify … met the applicant"."""
    with pymupdf.open(pdf) as doc:
        words = [w[4] for w in doc[2].get_text("words")]
    start = next(i for i in range(len(words)) if words[i:i + 3] == ["I", "certify", "that"])
    return start, start + 7


def test_decided_words_are_the_highlight_and_a_wrong_place_has_none(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    pdf = tmp_path / "policy.pdf"
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 860))
    window.session.select("c11")
    expected = relocate_by_drag(qtbot, window, pdf, 2, *agent_words(pdf))
    qtbot.waitUntil(window.is_settled, timeout=20000)
    grab = window.view.viewport().grab().toImage()
    boxes = device_boxes(window, pdf, 2, expected)
    assert color_outside(grab, HIGHLIGHT, boxes) == 0  # relocated words: the highlight
    assert all(count_color(grab, HIGHLIGHT, b.adjusted(1, 1, -1, -1).toAlignedRect()) > 0
               for b in boxes)
    styles = [s for _, s, _ in window.review.relocation.overlay.painted]
    assert styles == [Style.DECIDED]  # and outlined as decided, in another colour
    window.session.select("c8")
    press(qtbot, window, "W")  # the highlight is in the wrong place: none is shown
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.highlighter.pages() == []
    assert count_color(window.view.viewport().grab().toImage(), HIGHLIGHT) == 0


@pytest.mark.parametrize("rotation,zoom", [(0, 0.75), (0, 2.5), (90, 0.75), (90, 2.0),
                                           (180, 1.25), (270, 0.75), (270, 2.5)])
def test_relocated_rects_are_the_word_boxes(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path, rotation: int, zoom: float,
                                            reviewer: str) -> None:
    cite = relocation_cite(tmp_path, rotation=rotation)
    check_relocation(qtbot, make_window, cite, zoom)


@pytest.mark.parametrize("rotation", [0, 90])
def test_relocating_on_a_cropbox_page(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                      rotation: int, reviewer: str) -> None:
    cite = relocation_cite(tmp_path, rotation=rotation, cropbox=(50, 40, 560, 712))
    check_relocation(qtbot, make_window, cite, 1.5)


def check_relocation(qtbot: QtBot, make_window: MakeWindow, cite: Path, zoom: float) -> None:
    window = make_window((1000, 760))
    open_and_check(qtbot, window, cite)
    window.view.set_zoom(zoom)
    pdf = cite.parent / "policy.pdf"
    # From the fourth word of the 9th numbered line to the second of the 11th.
    expected = relocate_by_drag(qtbot, window, pdf, 1, word_index(pdf, 1, 9, 3),
                                word_index(pdf, 1, 11, 1))
    [decision] = sidecar(cite.with_name("claims.review.json"))["evidence"]
    assert decision["placement"] == "relocated" and decision["page"] == 2
    assert decision["rects"] == [list(r) for r in expected]
    assert len(expected) == 3
    assert decision["text"].count("\n") == 2  # the selected words, a line each
    assert decision["text"].split()[0] == paragraph_lines(1, 40)[8].split()[3]


def test_relocating_at_device_pixel_ratio_2(tmp_path: Path) -> None:
    cite = relocation_cite(tmp_path, rotation=90)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2",
               PYTHONPATH=str(REPO), XDG_CONFIG_HOME=str(tmp_path / "config"))
    out = subprocess.run([sys.executable, "-m", "tests.viewer.drag_probe", str(cite)],
                         env=env, cwd=REPO, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout.splitlines()[-1])
    assert said["dpr"] == 2
    assert said["rects"] == said["expected"] and len(said["rects"]) == 3


def test_a_read_only_folder_keeps_the_review_in_the_data_folder(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    from .fsutil import read_only

    folder = tmp_path / "share"
    folder.mkdir()
    cite = demo_copy(folder)
    with read_only(folder):
        window = make_window((1000, 700))
        open_and_check(qtbot, window, cite)
        kept = in_data_folder(cite)
        assert window.review.panel.location.text() == (
            f"Saved in citeview's data folder ({folder} cannot be written): {kept}")
        window.session.select("c9")
        press(qtbot, window, "A", "X")
        assert {e["claim"]: e["placement"] for e in sidecar(kept)["evidence"]} == {
            "c9": "absent"}
        assert window.review.controller.problem is None
        assert sorted(os.listdir(folder)) == ["demo.cite", "policy.pdf"]


def test_a_folder_that_stops_taking_writes_keeps_the_work(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    from .fsutil import read_only

    folder = tmp_path / "share"
    folder.mkdir()
    _cite, window = demo_window(qtbot, make_window, folder)
    window.session.select("c8")
    press(qtbot, window, "C")  # saved beside the file
    with read_only(folder):
        press(qtbot, window, "S")  # c8 done; now c9
        panel = window.review.panel
        assert panel.problem_bar.isVisibleTo(window)
        assert "could not be saved to" in panel.problem.text()
        assert re.search("read-only|permission denied", panel.problem.text())
        review_file = folder / "demo.review.json"
        assert panel.location.text() == f"Not saved (why above), kept in this window: " \
            f"{review_file}"  # never "Saved to" while they are not
        press(qtbot, window, "A")  # decisions go on being kept
        assert window.review.actions.retry.isVisible()
        elsewhere = tmp_path / "mine.review.json"
        assert window.review.controller.save_as(elsewhere)
    saved = sidecar(elsewhere)
    assert {e["claim"]: e["placement"] for e in saved["evidence"]} == {
        "c8": "confirmed", "c9": "absent"}
    assert {c["claim"] for c in saved["claims"]} == {"c8"}
    assert not panel.problem_bar.isVisibleTo(window)
    assert panel.location.text() == f"Saved to {elsewhere}"


def test_a_full_disk_keeps_the_work_until_there_is_room(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    from .fsutil import fill, full_disk

    with full_disk(tmp_path / "disk", size_kb=512) as disk:
        cite = demo_copy(disk)
        window = make_window((1000, 700))
        open_and_check(qtbot, window, cite)
        filler = fill(disk)
        window.session.select("c8")
        press(qtbot, window, "C", "S")
        panel = window.review.panel
        assert "the disk is full" in panel.problem.text()
        assert not (disk / "demo.review.json").exists()
        filler.unlink()
        window.review.actions.retry.trigger()
        saved = sidecar(disk / "demo.review.json")
        assert [e["claim"] for e in saved["evidence"]] == ["c8"]
        assert [c["claim"] for c in saved["claims"]] == ["c8"]
        assert not panel.problem_bar.isVisibleTo(window)
        window.close()


def test_a_sidecar_changed_by_another_program_is_merged(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    review_file = tmp_path / "demo.review.json"
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c8")
    press(qtbot, window, "C")
    other = sidecar(review_file)
    other["claims"].append({"claim": "c9", "support": "partly", "note": "by amy",
                            "reviewer": "amy", "at": "2026-12-01T09:00:00Z"})
    other["from_another_tool"] = True
    review_file.write_text(json.dumps(other), encoding="utf-8")
    press(qtbot, window, "S")
    controller = window.review.controller
    assert controller.problem is not None and controller.problem.kind == "conflict"
    assert "changed by another program" in window.review.panel.problem.text()
    assert window.review.panel.location.text().startswith("Not saved")
    assert window.review.actions.merge.isVisible()
    assert "c8" not in {c["claim"] for c in sidecar(review_file)["claims"]}  # untouched
    window.review.actions.merge.trigger()
    merged = sidecar(review_file)
    assert {c["claim"]: c["support"] for c in merged["claims"]} == {"c8": "supported",
                                                                    "c9": "partly"}
    assert merged["from_another_tool"] is True and controller.problem is None
    assert window.review.panel.location.text() == f"Saved to {review_file}"


def test_a_malformed_sidecar_is_named_and_never_written_over(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    cite = demo_copy(tmp_path)
    review_file = tmp_path / "demo.review.json"
    review_file.write_text('{"version": 1, "evidence": [{"claim": "c8", "index": "zero"}]}')
    before = review_file.read_bytes()
    window = make_window((1000, 700))
    open_and_check(qtbot, window, cite)
    problem = window.review.panel.problem.text()
    assert f"{review_file}: not a valid review file" in problem
    assert "$.evidence[0].index" in problem
    window.session.select("c8")
    press(qtbot, window, "C")
    assert review_file.read_bytes() == before
    assert window.review.controller.review.decisions.evidence  # kept in memory
    assert window.review.controller.save_as(tmp_path / "rescued.review.json")


def test_stale_decisions_are_shown_and_not_applied(qtbot: QtBot, make_window: MakeWindow,
                                                   tmp_path: Path, reviewer: str) -> None:
    cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c8")
    press(qtbot, window, "W")  # a wrong place: no highlight
    assert window.view.highlighter.pages() == []
    window.close()
    data = json.loads(cite.read_text(encoding="utf-8"))
    c8 = next(c for c in data["claims"] if c["id"] == "c8")
    c8["evidence"][0]["quote"] += " "  # the quote is not the one decided on any more
    cite.write_text(json.dumps(data), encoding="utf-8")
    window = make_window((1000, 700))
    open_and_check(qtbot, window, cite)
    window.session.select("c8")
    panel = window.review.panel
    assert "stale: the quote has changed" in panel.decisions.text()
    assert window.view.highlighter.pages() == [1]  # the matcher's highlight, not the decision
    assert "stale" in window.review._tags("c8")


def test_filter_and_search_the_claims(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                      reviewer: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    bar = window.review.filter_bar
    bar.set_kind("undecided")
    assert window.claims.visible_ids() == ["c8", "c9", "c11", "c14"]
    window.session.select("c8")
    press(qtbot, window, "C", "S")
    assert window.claims.visible_ids() == ["c9", "c11", "c14"]
    bar.set_kind("decided")
    assert window.claims.visible_ids() == ["c8"]
    bar.set_kind("flagged")
    assert window.claims.visible_ids() == ["c8", "c9", "c11", "c14"]
    bar.set_kind("not_located")
    assert window.claims.visible_ids() == ["c9"]
    bar.set_kind("all")
    press(qtbot, window, "Slash")
    assert bar.search.hasFocus()
    qtbot.keyClicks(bar.search, "lisinopril 2014")  # words of c1's quote, in any order
    assert window.claims.visible_ids() == ["c1"]
    assert window.session.selected == "c9"  # typing is typing, not commands
    bar.search.setText("fraud")
    assert window.claims.visible_ids() == ["c5", "c14"]
    window.session.select("c5")
    press(qtbot, window, "J")  # the list's commands walk what it shows
    assert window.session.selected == "c14"


def test_notes_go_with_decisions(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                 reviewer: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c9")
    panel = window.review.panel
    assert panel.evidence_note.isReadOnly()  # nothing decided yet
    press(qtbot, window, "A", "E")
    assert panel.evidence_note.hasFocus()
    qtbot.keyClicks(panel.evidence_note, "not on any page")
    qtbot.keyClick(panel.evidence_note, Qt.Key.Key_Return)
    assert window.view.hasFocus()  # the keys decide again
    [entry] = sidecar(tmp_path / "demo.review.json")["evidence"]
    assert entry["note"] == "not on any page" and entry["placement"] == "absent"
    assert sidecar(tmp_path / "demo.review.json")["history"][0]["previous"]["note"] == ""


def test_the_demo_itself_keeps_its_review_in_the_data_folder(
        qtbot: QtBot, make_window: MakeWindow, reviewer: str) -> None:
    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    window = make_window((1000, 700))
    open_and_check(qtbot, window, demo_path())
    kept = in_data_folder(demo_path())
    assert "bundled demo" in window.review.panel.location.text()
    window.session.select("c9")
    press(qtbot, window, "A")
    assert sidecar(kept)["evidence"][0]["claim"] == "c9"
    assert not (demo_path().parent / "demo.review.json").exists()


def test_review_shortcuts_are_in_the_review_menu(make_window: MakeWindow) -> None:
    window = make_window()
    menu = window.review.menu
    keys = {a.text().replace("&", ""): a.shortcut().toString() for a in menu.actions()
            if not a.isSeparator()}
    assert {k: keys[k] for k in ("Confirm Placement", "Wrong Place", "Relocate…",
                                 "Absent from Document", "Supported", "Partly Supported",
                                 "Not Supported", "Uncitable", "Next to Decide", "Undo",
                                 "Redo")} == {
        "Confirm Placement": "C", "Wrong Place": "W", "Relocate…": "R",
        "Absent from Document": "A", "Supported": "S", "Partly Supported": "P",
        "Not Supported": "X", "Uncitable": "U", "Next to Decide": "N", "Undo": "Ctrl+Z",
        "Redo": "Ctrl+Shift+Z"}
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles.index("Review") == titles.index("Help") - 1


def test_copies_and_a_selection_are_never_the_highlight_colour(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    from .review_helpers import drag, pdf_words, word_centre

    pdf = tmp_path / "policy.pdf"
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 860))
    window.session.select("c14")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    overlay = window.review.relocation.overlay
    assert [s for _, s, _ in overlay.painted] == [Style.COPY] * 5  # numbered, outlined
    claim = window.session.claim_result("c14")
    assert claim is not None
    grab = window.view.viewport().grab().toImage()
    purple = overlay.color(Style.COPY)
    assert count_color(grab, purple) > 0
    shown = device_boxes(window, pdf, 2, list(claim.evidence[0].rects))
    assert color_outside(grab, HIGHLIGHT, shown) == 0  # the copies' marks are not yellow
    window.session.select("c11")  # rejected: nothing highlighted; select words for it
    press(qtbot, window, "R")
    show_page(qtbot, window, 2)
    qtbot.waitUntil(lambda: window.review.relocation.words_ready(2), timeout=20000)
    words = pdf_words(pdf, 2)
    first, last = agent_words(pdf)
    drag(qtbot, window, word_centre(window, pdf, 2, words[first]),
         word_centre(window, pdf, 2, words[last]))
    qtbot.waitUntil(lambda: window.review.relocation.drag.selection is not None)
    window.view.viewport().repaint()
    grab = window.view.viewport().grab().toImage()
    assert [s for _, s, _ in overlay.painted] == [Style.SELECTION]
    assert count_color(grab, HIGHLIGHT) == 0  # a selection is not evidence (yet)
    assert count_color(grab, overlay.color(Style.SELECTION)) > 0
    press(qtbot, window, "Escape")  # given up: nothing recorded
    assert not window.review.relocation.active and ("c11", 0) not in \
        window.review.controller.review.decisions.evidence


def test_withdrawing_a_decision_keeps_it_in_the_history(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, reviewer: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c9")
    press(qtbot, window, "A", "Delete")
    on_disk = sidecar(tmp_path / "demo.review.json")
    assert on_disk["evidence"] == []
    assert [(h["action"], h["previous"]["placement"]) for h in on_disk["history"]] == [
        ("removed", "absent")]


def test_the_reviewer_is_the_os_user_until_named(prefs: Preferences) -> None:
    import getpass

    assert prefs.reviewer() == getpass.getuser()
    prefs.set_reviewer("  Jane Doe ")
    assert prefs.reviewer() == "Jane Doe"


def test_selecting_another_claim_ends_a_relocation(qtbot: QtBot, make_window: MakeWindow,
                                                  tmp_path: Path, reviewer: str) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c11")
    press(qtbot, window, "R")
    assert window.review.relocation.active and window.review.actions.accept.isEnabled()
    press(qtbot, window, "J")
    assert window.session.selected == "c12"
    assert not window.review.relocation.active
    assert not window.review.actions.accept.isEnabled()
    assert not window.review.controller.review.decisions.evidence


def test_the_item_decided_is_the_item_shown(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path, reviewer: str) -> None:
    """A claim citing two documents: stepping to an item (I) shows it, following the
    detail pane's link to an item makes it the one the keys decide."""
    import shutil

    shutil.copy(demo_path().parent / "policy.pdf", tmp_path / "policy.pdf")
    shutil.copy(demo_path().parent / "policy.pdf", tmp_path / "copy.pdf")
    cite = tmp_path / "two.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [
        {"id": "policy", "path": "policy.pdf"}, {"id": "copy", "path": "copy.pdf"}],
        "claims": [{"id": "x", "text": "Signed, and fraud is a crime.", "evidence": [
            {"document": "policy", "page": 3, "quote": "Elena K. Lindqvist Signature of "
                                                       "Applicant"},
            {"document": "copy", "page": 1, "quote": "APPLICATION FOR INDIVIDUAL LIFE AND "
                                                     "HOMEOWNERS INSURANCE"}]}]}))
    window = make_window((1000, 700))
    open_and_check(qtbot, window, cite)
    window.session.select("x")
    qtbot.waitUntil(lambda: window.shown_doc == "policy")
    panel = window.review.panel
    assert "evidence 1 of 2" in panel.claim.text()
    press(qtbot, window, "I")
    qtbot.waitUntil(lambda: window.shown_doc == "copy" and window.view.current_page == 0)
    assert "evidence 2 of 2" in panel.claim.text()
    window.detail.link.emit(Link.parse("show:0"))  # the first item's link in the detail pane
    qtbot.waitUntil(lambda: window.shown_doc == "policy" and window.view.current_page == 2)
    assert "evidence 1 of 2" in panel.claim.text()
    window.detail.link.emit(Link.parse("show:1"))
    qtbot.waitUntil(lambda: window.shown_doc == "copy")
    press(qtbot, window, "C")  # decides the item shown, the second
    assert list(window.review.controller.review.decisions.evidence) == [("x", 1)]
