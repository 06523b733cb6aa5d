"""Selecting on turned pages in the order the reader sees: a table set upright on a page
with /Rotate 0, 90, 180 or 270 (and inside a CropBox), its text layer written down the
columns. A drag across a visible row copies that row and nothing else; a drag over two
rows copies them a line each; relocating on such a page records that row's word boxes.

Where the words are on screen is PyMuPDF's to say (its rotation matrix times the zoom,
from where the view painted the page), never the viewer's transform; what a row holds is
the generator's truth, or for the corpus's rotated tables, PyMuPDF's word boxes as shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tests.pdfgen import ROTATIONS, upright_table
from viewer.window.shell import MainWindow

from .helpers import write_citations
from .review_helpers import drag, open_and_check, press, show_page, sidecar, word_centre

MakeWindow = Callable[..., MainWindow]


def words_by_text(pdf: Path, page: int = 0) -> dict[str, tuple[float, ...]]:
    with pymupdf.open(pdf) as doc:
        return {w[4]: tuple(w[:4]) for w in doc[page].get_text("words")}


def opened(qtbot: QtBot, make_window: MakeWindow, path: Path) -> MainWindow:
    """A window on ``path`` (a citations file, or a PDF opened through one) at page 1,
    its words known."""
    if path.suffix == ".pdf":
        path = write_citations(path.with_name(path.stem + ".cite"), str(path), [
            {"id": "c1", "text": "t", "evidence": [
                {"document": "policy", "page": 1, "quote": "a purple submarine moored"}]}])
    window = make_window((1100, 800))
    open_and_check(qtbot, window, path)
    show_page(qtbot, window, 0)
    cache = window.selecting.cache
    cache.words_of(0)
    qtbot.waitUntil(lambda: cache.ready(0), timeout=20000)
    return window


def drag_words(qtbot: QtBot, window: MainWindow, pdf: Path, first: Sequence[float],
               last: Sequence[float]) -> str:
    drag(qtbot, window, word_centre(window, pdf, 0, first), word_centre(window, pdf, 0, last))
    qtbot.waitUntil(lambda: window.selecting.selection is not None, timeout=20000)
    press(qtbot, window, "Ctrl+C")
    return QApplication.clipboard().text()


@pytest.mark.parametrize("crop", [None, (30.0, 20.0)], ids=["mediabox", "cropbox"])
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_a_drag_across_a_visible_row_copies_that_row(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, rotation: int,
        crop: tuple[float, float] | None) -> None:
    pdf, rows = upright_table(tmp_path / "table.pdf", rotation=rotation, crop=crop)
    window = opened(qtbot, make_window, pdf)
    boxes = words_by_text(pdf)
    for r in (0, 3, len(rows) - 1):
        copied = drag_words(qtbot, window, pdf, boxes[rows[r][0]], boxes[rows[r][-1]])
        assert copied == " ".join(rows[r])
    # From the middle of row 2 to the middle of row 4: the rest of 2, all of 3, half of 4.
    copied = drag_words(qtbot, window, pdf, boxes[rows[1][2]], boxes[rows[3][3]])
    assert copied.split("\n") == [" ".join(rows[1][2:]), " ".join(rows[2]),
                                  " ".join(rows[3][:4])]
    # Right to left across a row selects the same words.
    assert drag_words(qtbot, window, pdf, boxes[rows[4][-1]], boxes[rows[4][0]]) == \
        " ".join(rows[4])


def test_relocating_on_a_turned_page_records_the_rows_word_boxes(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    pdf, rows = upright_table(tmp_path / "policy.pdf", rotation=90)
    cite = write_citations(tmp_path / "claims.cite", "policy.pdf", [
        {"id": "lost", "text": "t", "evidence": [
            {"document": "policy", "page": 1, "quote": "a purple submarine moored"}]}])
    window = opened(qtbot, make_window, cite)
    window.session.select("lost")
    press(qtbot, window, "R")
    relocation = window.review.relocation
    assert relocation.active
    qtbot.waitUntil(lambda: relocation.words_ready(0), timeout=20000)
    boxes = words_by_text(pdf)
    row = rows[2]
    drag(qtbot, window, word_centre(window, pdf, 0, boxes[row[0]]),
         word_centre(window, pdf, 0, boxes[row[-1]]))
    qtbot.waitUntil(lambda: relocation.drag.selection is not None, timeout=20000)
    press(qtbot, window, "Return")
    assert not relocation.active
    [decision] = sidecar(tmp_path / "claims.review.json")["evidence"]
    assert decision["placement"] == "relocated"
    cells = [row[i:i + 2] for i in range(0, len(row), 2)]  # two words a cell
    expected = [[min(boxes[w][0] for w in cell), min(boxes[w][1] for w in cell),
                 max(boxes[w][2] for w in cell), max(boxes[w][3] for w in cell)]
                for cell in cells]
    assert [pytest.approx(r) for r in decision["rects"]] == expected
    assert decision.get("text", " ".join(row)) == " ".join(row)


def shown_row(pdf: Path, anchor: str) -> list[tuple[str, Any]]:
    """The words PyMuPDF shows on the row of the word ``anchor`` (their shown boxes'
    middles within its shown box's height), left to right as shown."""
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        m = page.rotation_matrix
        shown = [(w[4], pymupdf.Rect(w[:4]) * m, tuple(w[:4])) for w in page.get_text("words")]
    [(_, band, _)] = [s for s in shown if s[0] == anchor]
    row = [s for s in shown if band.y0 < (s[1].y0 + s[1].y1) / 2 < band.y1]
    return [(text, raw) for text, _, raw in sorted(row, key=lambda s: s[1].x0)]


@pytest.mark.parametrize(("name", "anchor"), [
    ("table_energy_appendix_rot90.pdf", "Jingneng"),
    ("rotated_senate_expenditures_table.pdf", "ARMER,"),
])
def test_a_drag_across_a_row_of_a_real_turned_table(
        qtbot: QtBot, make_window: MakeWindow, corpus: Path, name: str, anchor: str) -> None:
    pdf = corpus / name
    window = opened(qtbot, make_window, pdf)
    row = shown_row(pdf, anchor)
    assert len(row) >= 5  # a row of several cells
    copied = drag_words(qtbot, window, pdf, row[0][1], row[-1][1])
    assert copied == " ".join(text for text, _ in row)
