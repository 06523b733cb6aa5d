"""Selecting words on the page and copying them, as a reader does: drag across words, a
double click for a word, a triple click for a line, Ctrl+C, Select All on Page, Esc.

What is copied is checked against PyMuPDF's own words (never the viewer's), and where
the selection is drawn against PyMuPDF's word boxes mapped by PyMuPDF's rotation matrix,
on turned and CropBox pages and at several zooms; at a device pixel ratio of 2 in a
process of its own. The plain drag never touches the review, and relocating a quote
(R, drag, Enter) still records its words.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.render.overlay import Style
from viewer.window.shell import MainWindow

from .helpers import count_color
from .review_helpers import (
    device_boxes,
    drag,
    line_unions,
    open_and_check,
    pdf_words,
    press,
    relocate_by_drag,
    relocation_cite,
    show_page,
    sidecar,
    word_centre,
    word_index,
)

MakeWindow = Callable[..., MainWindow]
REPO = Path(__file__).resolve().parents[2]
HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)


def words_text(words: Sequence[Sequence[Any]]) -> str:
    """PyMuPDF's words as a reader copies them: a space between the words of a line,
    a newline between its (block, line)s."""
    lines: dict[tuple[int, int], list[str]] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w[4])
    return "\n".join(" ".join(line) for line in lines.values())


def opened(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, *, zoom: float = 1.5,
           **pdf: object) -> tuple[MainWindow, Path]:
    """A window showing page 2 of a generated PDF at ``zoom``, its words known."""
    cite = relocation_cite(tmp_path, **pdf)
    window = make_window((1000, 760))
    open_and_check(qtbot, window, cite)
    window.view.set_zoom(zoom)
    show_page(qtbot, window, 1)
    cache = window.selecting.cache
    cache.words_of(1)
    qtbot.waitUntil(lambda: cache.ready(1), timeout=20000)
    return window, cite.parent / "policy.pdf"


def clipboard() -> str:
    return QApplication.clipboard().text()


def centre_of(window: MainWindow, pdf: Path, page: int, index: int) -> QPoint:
    return word_centre(window, pdf, page, pdf_words(pdf, page)[index])


@pytest.mark.parametrize("rotation,zoom", [(0, 0.75), (0, 2.5), (90, 1.5), (180, 1.0),
                                           (270, 2.0)])
def test_a_drag_copies_the_words_in_its_range(qtbot: QtBot, make_window: MakeWindow,
                                              tmp_path: Path, rotation: int,
                                              zoom: float) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path, zoom=zoom, rotation=rotation)
    check_copy(qtbot, window, pdf)


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_drag_copies_on_a_cropbox_page(qtbot: QtBot, make_window: MakeWindow,
                                         tmp_path: Path, rotation: int) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path, rotation=rotation,
                         cropbox=(50, 40, 560, 712))
    check_copy(qtbot, window, pdf)


def check_copy(qtbot: QtBot, window: MainWindow, pdf: Path) -> None:
    """Drag from the fourth word of page 2's 9th numbered line to the second of its
    11th, copy, and compare with PyMuPDF: the text and where it is drawn."""
    words = pdf_words(pdf, 1)
    first, last = word_index(pdf, 1, 9, 3), word_index(pdf, 1, 11, 1)
    drag(qtbot, window, centre_of(window, pdf, 1, first), centre_of(window, pdf, 1, last))
    qtbot.waitUntil(lambda: window.selecting.selection is not None)
    press(qtbot, window, "Ctrl+C")
    assert clipboard() == words_text(words[first:last + 1])
    assert clipboard().count("\n") == 2  # three lines of the page, three lines of text
    # Drawn in the selection style where PyMuPDF says the words are, one box a line.
    window.view.viewport().repaint()
    overlay = window.selecting.overlay
    drawn = [box for _, style, box in overlay.painted if style is Style.SELECTION]
    expected = device_boxes(window, pdf, 1, line_unions(words[first:last + 1]))
    assert len(drawn) == len(expected) == 3
    for got, want in zip(drawn, expected, strict=True):
        assert max(abs(got.left() - want.left()), abs(got.top() - want.top()),
                   abs(got.right() - want.right()), abs(got.bottom() - want.bottom())) < 1.0
    # A plain drag selects text only: nothing is decided, no relocation runs.
    assert not window.review.relocation.active
    assert not window.review.controller.review.decisions.evidence


def test_the_selection_moves_with_the_page_when_it_scrolls(qtbot: QtBot,
                                                           make_window: MakeWindow,
                                                           tmp_path: Path) -> None:
    """Scrolled as a person scrolls (the scroll bar, then the event loop paints): the
    selection is drawn where the words now are, with no repaint asked for by hand."""
    window, pdf = opened(qtbot, make_window, tmp_path)
    words = pdf_words(pdf, 1)
    first, last = word_index(pdf, 1, 9, 0), word_index(pdf, 1, 9, 3)
    drag(qtbot, window, centre_of(window, pdf, 1, first), centre_of(window, pdf, 1, last))
    qtbot.waitUntil(lambda: window.selecting.selection is not None)
    overlay = window.selecting.overlay

    def drawn() -> list[QRectF]:
        return [box for _, style, box in overlay.painted if style is Style.SELECTION]

    window.view.viewport().repaint()
    [before] = drawn()
    bar = window.view.verticalScrollBar()
    bar.setValue(bar.value() + 40)
    qtbot.waitUntil(lambda: bool(drawn()) and drawn()[0].top() != before.top())
    [after] = drawn()
    [want] = device_boxes(window, pdf, 1, line_unions(words[first:last + 1]))
    assert abs(after.top() - (before.top() - 40)) < 1.0
    assert abs(after.top() - want.top()) < 1.0 and abs(after.left() - want.left()) < 1.0


def test_the_selection_is_never_the_highlight_colour(qtbot: QtBot, make_window: MakeWindow,
                                                     tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    assert window.view.highlighter.pages() == []  # the claim's quote is not on the page
    drag(qtbot, window, centre_of(window, pdf, 1, word_index(pdf, 1, 4, 0)),
         centre_of(window, pdf, 1, word_index(pdf, 1, 7, 5)))
    qtbot.waitUntil(lambda: window.selecting.selection is not None)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    grab = window.view.viewport().grab().toImage()
    assert count_color(grab, HIGHLIGHT) == 0
    assert count_color(grab, window.selecting.overlay.color(Style.SELECTION)) > 0


def test_a_double_click_selects_a_word_and_a_triple_click_its_line(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    words = pdf_words(pdf, 1)
    index = word_index(pdf, 1, 6, 4)
    at = centre_of(window, pdf, 1, index)
    viewport = window.view.viewport()
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: window.selecting.selection is not None)
    assert window.selecting.text() == words[index][4]
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=at)  # the third click
    line = [w for w in words if (w[5], w[6]) == (words[index][5], words[index][6])]
    assert window.selecting.text() == words_text(line)
    assert len(line) > 5
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=at)  # later: a click clears
    assert window.selecting.selection is None


def test_a_click_clears_and_so_does_esc(qtbot: QtBot, make_window: MakeWindow,
                                        tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    viewport = window.view.viewport()
    start = centre_of(window, pdf, 1, word_index(pdf, 1, 2, 1))
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=start)
    assert window.selecting.selection is None  # a click on a word selects nothing
    assert not window.selecting.copy_action.isEnabled()
    drag(qtbot, window, start, centre_of(window, pdf, 1, word_index(pdf, 1, 3, 2)))
    assert window.selecting.selection is not None and window.selecting.copy_action.isEnabled()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=start)
    assert window.selecting.selection is None
    drag(qtbot, window, start, centre_of(window, pdf, 1, word_index(pdf, 1, 3, 2)))
    press(qtbot, window, "Escape")
    assert window.selecting.selection is None
    window.view.viewport().repaint()
    assert window.selecting.overlay.painted == []


def test_select_all_on_page_takes_the_page_in_view(qtbot: QtBot, make_window: MakeWindow,
                                                   tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    assert window.view.current_page == 1
    press(qtbot, window, "Ctrl+A", "Ctrl+C")
    assert clipboard() == words_text(pdf_words(pdf, 1))
    assert clipboard().splitlines()[0] == "Page 2 heading"
    assert window.statusBar().currentMessage().startswith("Copied ")


def test_the_page_menu_copies_the_selection(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    menu = QMenu()
    for part in window.view.menu_parts:
        part(menu, QPointF(5, 5))
    assert window.selecting.copy_action not in menu.actions()  # nothing selected yet
    drag(qtbot, window, centre_of(window, pdf, 1, word_index(pdf, 1, 2, 0)),
         centre_of(window, pdf, 1, word_index(pdf, 1, 2, 3)))
    menu = QMenu()
    for part in window.view.menu_parts:
        part(menu, QPointF(5, 5))
    assert menu.actions()[0] is window.selecting.copy_action
    QApplication.clipboard().clear()
    menu.actions()[0].trigger()
    assert clipboard() == window.selecting.text() and len(clipboard().split()) == 4


def test_another_document_clears_the_selection(qtbot: QtBot, make_window: MakeWindow,
                                               tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    press(qtbot, window, "Ctrl+A")
    assert window.selecting.selection is not None
    window.open_path(pdf)  # the same PDF, opened bare: another document is shown
    qtbot.waitUntil(lambda: window.session.is_plain_pdf and window.view.doc is not None,
                    timeout=20000)
    assert window.selecting.selection is None


def test_relocating_takes_the_drag_and_gives_it_back(qtbot: QtBot, make_window: MakeWindow,
                                                     tmp_path: Path) -> None:
    window, pdf = opened(qtbot, make_window, tmp_path)
    window.session.select("lost")
    press(qtbot, window, "Ctrl+A")  # words selected for copying …
    assert window.selecting.selection is not None
    first, last = word_index(pdf, 1, 9, 3), word_index(pdf, 1, 11, 1)
    expected = relocate_by_drag(qtbot, window, pdf, 1, first, last)  # … R starts afresh
    [decision] = sidecar(pdf.with_name("claims.review.json"))["evidence"]
    assert decision["placement"] == "relocated"
    assert decision["rects"] == [list(r) for r in expected]
    assert window.selecting.selection is None  # recorded, and so no longer selected
    # Afterwards a drag selects text again, and Enter records nothing.
    drag(qtbot, window, centre_of(window, pdf, 1, first), centre_of(window, pdf, 1, last))
    assert window.selecting.selection is not None
    press(qtbot, window, "Return")
    assert len(sidecar(pdf.with_name("claims.review.json"))["evidence"]) == 1
    press(qtbot, window, "Ctrl+C")
    assert clipboard() == words_text(pdf_words(pdf, 1)[first:last + 1])


def test_copying_at_device_pixel_ratio_2(tmp_path: Path) -> None:
    cite = relocation_cite(tmp_path, rotation=90)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2",
               PYTHONPATH=str(REPO), XDG_CONFIG_HOME=str(tmp_path / "config"))
    out = subprocess.run([sys.executable, "-m", "tests.viewer.drag_probe", str(cite), "copy"],
                         env=env, cwd=REPO, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout.splitlines()[-1])
    pdf = cite.parent / "policy.pdf"
    first, last = word_index(pdf, 1, 9, 3), word_index(pdf, 1, 11, 1)
    assert said["dpr"] == 2
    assert said["copied"] == words_text(pdf_words(pdf, 1)[first:last + 1])
