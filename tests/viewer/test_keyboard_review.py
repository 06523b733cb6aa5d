"""The whole review of the demo without a mouse: every key goes to the widget that has
the keyboard focus, as a person's would. Walk the queue (N), decide placement and
support, type a note (E), go to a page (Ctrl+G, its number, Enter) and relocate a quote
with the word cursor (R, arrows, Shift+arrows, Enter). What is recorded is read back from
the review file; the relocated rectangles are PyMuPDF's own word boxes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from viewer.window.shell import MainWindow

from .review_helpers import demo_window, sidecar

MakeWindow = Callable[..., MainWindow]
MODS = {"Shift": Qt.KeyboardModifier.ShiftModifier, "Ctrl": Qt.KeyboardModifier.ControlModifier}


def keys(qtbot: QtBot, window: MainWindow, *names: str) -> None:
    """Press each key on whatever has the focus (the window when nothing has)."""
    for name in names:
        *mods, key = name.split("+")
        modifiers = Qt.KeyboardModifier.NoModifier
        for m in mods:
            modifiers |= MODS[m]
        target = QApplication.focusWidget() or window
        qtbot.keyClick(target, getattr(Qt.Key, f"Key_{key}"), modifiers)


def type_text(qtbot: QtBot, window: MainWindow, text: str) -> None:
    qtbot.keyClicks(QApplication.focusWidget() or window, text)


def test_the_demo_reviewed_with_the_keyboard_alone(qtbot: QtBot, make_window: MakeWindow,
                                                   tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    review_file, pdf = tmp_path / "demo.review.json", tmp_path / "policy.pdf"
    window.activateWindow()
    window.claims.setFocus()  # where the window starts: the claims list
    queue = window.review.controller.review.queue()
    assert queue == ["c8", "c9", "c11", "c14"]

    keys(qtbot, window, "N", "C", "S")  # c8: the words are right, and they bear it out
    assert window.session.selected == "c9"
    keys(qtbot, window, "A", "X")  # c9: not in the document; not supported
    assert window.session.selected == "c11"

    # c11: the reviewer goes to page 3 and selects "I certify … met the applicant,".
    keys(qtbot, window, "Ctrl+G")
    type_text(qtbot, window, "3")
    keys(qtbot, window, "Return")
    qtbot.waitUntil(lambda: window.view.current_page == 2, timeout=10000)
    assert QApplication.focusWidget() is window.view  # Enter gave the keys back
    keys(qtbot, window, "R")
    relocation = window.review.relocation
    assert relocation.active
    qtbot.waitUntil(lambda: relocation.words_ready(2), timeout=20000)
    words = window.selecting.cache.words_of(2)
    assert words is not None
    texts = [w.text for w in words.words]
    start = next(i for i in range(len(texts)) if texts[i:i + 3] == ["I", "certify", "that"])
    keys(qtbot, window, "Right")  # the cursor on the page's first word
    selection = relocation.drag.selection
    assert selection is not None and selection.first == selection.last == 0
    # Down row by row to the row of "I certify", then along it to "I".
    while True:
        at = relocation.drag.selection
        assert at is not None
        row = words.words[at.focus].row
        if row == words.words[start].row:
            break
        keys(qtbot, window, "Down")
    keys(qtbot, window, "Home")
    for _ in range(start - relocation.drag.selection.focus):  # type: ignore[union-attr]
        keys(qtbot, window, "Right")
    assert relocation.drag.selection.focus == start  # type: ignore[union-attr]
    for _ in range(7):
        keys(qtbot, window, "Shift+Right")  # extends: "I certify … met the applicant,"
    assert window.selecting.text() == "I certify that I personally met the applicant,"
    keys(qtbot, window, "Return")
    assert not relocation.active
    keys(qtbot, window, "S")
    assert window.session.selected == "c14"

    # c14: the third copy is meant, partly supported, with a note on the claim.
    keys(qtbot, window, "3", "P")
    keys(qtbot, window, "Shift+E")
    type_text(qtbot, window, "only the premium, not the date")
    keys(qtbot, window, "Return")
    assert window.review.panel.progress.text() == "4 of 4 to review decided"

    on_disk = sidecar(review_file)
    evidence = {(e["claim"], e["index"]): e for e in on_disk["evidence"]}
    assert {k: e["placement"] for k, e in evidence.items()} == {
        ("c8", 0): "confirmed", ("c9", 0): "absent", ("c11", 0): "relocated",
        ("c14", 0): "confirmed"}
    with pymupdf.open(pdf) as doc:
        page = [w for w in doc[2].get_text("words")]
    first = next(i for i in range(len(page)) if [w[4] for w in page[i:i + 3]]
                 == ["I", "certify", "that"])
    chosen = page[first:first + 8]
    lines: dict[tuple[int, int], list] = {}
    for w in chosen:
        lines.setdefault((w[5], w[6]), []).append(w)
    expected = [[min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws),
                 max(w[3] for w in ws)] for ws in lines.values()]
    assert evidence[("c11", 0)]["rects"] == expected
    assert evidence[("c11", 0)]["text"] == "I certify that I personally met the applicant,"
    claims = {c["claim"]: c for c in on_disk["claims"]}
    assert {k: c["support"] for k, c in claims.items()} == {
        "c8": "supported", "c9": "not_supported", "c11": "supported", "c14": "partly"}
    assert "only the premium, not the date" in str(claims["c14"])
