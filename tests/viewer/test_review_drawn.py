"""Every view draws the same decisions: after W (wrong place) the rejected highlight is
gone from the page, from the detail pane's "Show" link, from printing, from the
thumbnails and from the annotated PDF exported from the sidecar the window wrote; a copy
of a quote found on another page stays drawn after the next review key.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pymupdf
from pytestqt.qtbot import QtBot

from viewer.state.links import Link
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .helpers import lines_pdf, paragraph_lines, write_citations
from .review_helpers import demo_window, press

MakeWindow = Callable[..., MainWindow]


def drawn_everywhere(window: MainWindow, claim: str) -> dict[str, set[int]]:
    """The 0-based pages on which each view draws something of ``claim`` (shown)."""
    view = {p for p in window.view.highlighter.pages() if window.view.highlighter.rects_on(p)}
    printed = {p.info.index for p in window.reader.document_pages() if p.rects}
    claim_pages = {p.info.index for p in window.reader.claim_pages() if p.rects}
    thumbs = set(window.reader.panel.panel.thumbnails.selected_pages)
    assert window.session.selected == claim
    return {"view": view, "print": printed, "print claim": claim_pages, "thumbnails": thumbs}


def test_a_wrong_place_is_drawn_nowhere(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                        prefs: Preferences) -> None:
    prefs.set_reviewer("jdoe")
    cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    window.session.select("c8")
    window.review.controller.model.auto_advance = False
    [ev] = window.session.claim_result("c8").evidence  # type: ignore[union-attr]
    assert ev.status == "review" and ev.page is not None and ev.rects
    page = ev.page - 1
    before = drawn_everywhere(window, "c8")
    assert all(page in pages for pages in before.values()), before  # drawn by every view
    press(qtbot, window, "W")
    after = drawn_everywhere(window, "c8")
    assert all(page not in pages for pages in after.values()), after
    window.detail.link.emit(Link.parse("show:0"))  # "Show": the page, no highlight
    assert window.view.highlighter.rects_on(page) == []
    assert drawn_everywhere(window, "c8") == after

    # The annotated PDF made from the sidecar the window wrote draws it nowhere either.
    out = tmp_path / "annotated.pdf"
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "export", str(cite), "--pdf",
                           str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with pymupdf.open(out) as doc:
        marks = [(a.type[1], a.info["content"]) for a in doc[page].annots()
                 if a.info["title"] == "jdoe"]
    assert [kind for kind, _ in marks] == ["Text"]  # a note saying so, not a highlight
    assert "wrong place" in marks[0][1]


def test_a_copy_on_another_page_stays_drawn_after_the_next_key(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, prefs: Preferences) -> None:
    """A quote that stands equally well on two pages: the other page's copy, found after
    the check, is drawn — and still is once a review key has been pressed."""
    prefs.set_reviewer("jdoe")
    same = paragraph_lines(5, 40)
    lines_pdf(tmp_path / "twice.pdf", [same, paragraph_lines(6, 40), same])
    cite = write_citations(tmp_path / "c.cite", "twice.pdf", [
        {"id": "twice", "text": "t", "evidence": [{"quote": same[12]}]}])  # no page hint
    window = make_window((1000, 750))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    window.session.select("twice")
    [ev] = window.session.claim_result("twice").evidence  # type: ignore[union-attr]
    assert ev.other_pages, "the quote stands on two pages"
    other = ev.other_pages[0] - 1
    qtbot.waitUntil(lambda: ("twice", 0) in window.session.other_copies, timeout=30000)
    assert window.view.highlighter.rects_on(other)
    press(qtbot, window, "S")  # a review key: the support decision
    assert window.review.controller.review.decisions.claims["twice"].support == "supported"
    assert window.view.highlighter.rects_on(other)  # the copy is still drawn
    assert other in window.reader.panel.panel.thumbnails.selected_pages


def test_one_key_press_is_one_change(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                     prefs: Preferences) -> None:
    """Each review key tells the review's views once: one emit, one refresh of the panel,
    whether it decides, moves on to the next claim, undoes or redoes."""
    prefs.set_reviewer("jdoe")
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    ui = window.review
    emits: list[None] = []
    shown: list[object] = []
    ui.controller.changed.connect(lambda: emits.append(None))
    original = ui.panel.show_text
    ui.panel.show_text = lambda *a, **k: (shown.append(a), original(*a, **k))  # type: ignore[method-assign]
    press(qtbot, window, "N")  # the first claim to review is selected
    assert window.session.selected == "c8"
    for keys, then in ((("C",), "c8"), (("S",), "c9"), (("Ctrl+Z",), "c8"),
                       (("Ctrl+Shift+Z",), "c8"), (("W",), "c9"), (("R",), "c9"),
                       (("Escape",), "c9"), (("I",), "c9")):
        emits.clear()
        shown.clear()
        press(qtbot, window, *keys)
        assert (len(emits), len(shown)) == (1, 1), keys
        if keys != ("Ctrl+Shift+Z",):
            assert window.session.selected == then, keys


def test_a_key_pressed_twice_does_not_decide_the_next_claim(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, prefs: Preferences) -> None:
    """S pressed twice at once decides the claim it was meant for and moves on; the
    second press does not also decide the next claim. Pressed again later, it does; and
    another key at once after the queue moved on is a decision about the next claim."""
    prefs.set_reviewer("jdoe")
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    c = window.review.controller
    now = [100.0]
    c.model.clock = lambda: now[0]
    window.session.select("c8")
    press(qtbot, window, "C", "S")
    now[0] += 0.05
    press(qtbot, window, "S")  # twice within the guard: c8 decided, on to c9
    assert window.session.selected == "c9"
    assert "c9" not in c.review.decisions.claims
    assert "pressed twice" in window.statusBar().currentMessage()
    now[0] += 0.3
    press(qtbot, window, "S")  # pressed again on purpose: it decides c9
    assert c.review.decisions.claims["c9"].support == "supported"
    window.session.select("c8")
    press(qtbot, window, "X")  # c8 still decided: moves on to c9 again
    assert window.session.selected == "c9"
    now[0] += 0.05
    press(qtbot, window, "A")  # another key at once: meant for c9
    assert c.review.decisions.evidence[("c9", 0)].placement == "absent"
