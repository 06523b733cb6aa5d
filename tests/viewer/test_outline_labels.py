"""Outline entries go to their heading, not only its page; page labels ("xi") are shown in
the page box with the page's number beside them and accepted by Go to page.

The PDFs are generated with PyMuPDF: a bookmark whose destination names a point far down
its page (as a heading 63 % down), one that names none, and page labels i–iv then 1….
Where the point lands is PyMuPDF's rotation matrix times the zoom (never the viewer's
transform)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from viewer.window.shell import MainWindow

from .helpers import text_pdf


def open_and_check(qtbot: QtBot, window: MainWindow, pdf: Path) -> None:
    """Open a bare PDF and wait until its pages are shown and painted."""
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.doc is not None
                    and window.view.doc.path == str(pdf) and window.is_settled(),
                    timeout=30000)

MakeWindow = Callable[..., MainWindow]


def outlined(tmp_path: Path, rotation: int = 0) -> Path:
    pdf = text_pdf(tmp_path / "book.pdf", pages=8, rotation=rotation)
    with pymupdf.open(pdf) as doc:
        doc.set_toc([
            [1, "Front", 1, {"kind": pymupdf.LINK_GOTO, "page": 0, "to": pymupdf.Point(0, 0)}],
            [1, "Deep heading", 4, {"kind": pymupdf.LINK_GOTO, "page": 3,
                                    "to": pymupdf.Point(72, 500)}],
            [2, "Deeper still", 6, {"kind": pymupdf.LINK_GOTO, "page": 5,
                                    "to": pymupdf.Point(72, 650)}],
        ])
        doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                             {"startpage": 4, "prefix": "", "style": "D", "firstpagenum": 1}])
        doc.save(tmp_path / "labelled.pdf")
    return tmp_path / "labelled.pdf"


def shown_y(window: MainWindow, pdf: Path, page: int, point: tuple[float, float]) -> float:
    """Where PyMuPDF puts a words-space point in the viewport (y)."""
    painted = window.view.painted_pages[page]
    with pymupdf.open(pdf) as doc:
        p = pymupdf.Point(point) * doc[page].rotation_matrix * pymupdf.Matrix(
            window.view.zoom, window.view.zoom)
    return painted.y() + p.y


@pytest.mark.parametrize("rotation", [0, 90])
def test_an_outline_entry_goes_to_its_point(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path, rotation: int) -> None:
    pdf = outlined(tmp_path, rotation)
    window = make_window((1000, 700))
    open_and_check(qtbot, window, pdf)
    panel = window.reader.panel.panel
    window.reader.side_panel.trigger()
    qtbot.waitUntil(lambda: panel.outline.entry_count() == 3, timeout=20000)
    tree = panel.outline
    deep = tree.topLevelItem(1)
    tree.itemClicked.emit(deep, 0)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    assert window.view.current_page in (3, 4)
    y = shown_y(window, pdf, 3, (72, 500))
    viewport = window.view.viewport().height()
    assert 0 <= y <= viewport * 0.25, (y, viewport)  # the heading near the top, in view
    tree.itemClicked.emit(deep.child(0), 0)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    assert 0 <= shown_y(window, pdf, 5, (72, 650)) <= viewport * 0.25
    # An entry with no point goes to the top of its page.
    tree.itemClicked.emit(tree.topLevelItem(0), 0)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    assert window.view.current_page == 0
    assert window.view.painted_pages[0].top() >= 0


def test_page_labels_are_shown_and_taken(qtbot: QtBot, make_window: MakeWindow,
                                         tmp_path: Path) -> None:
    pdf = outlined(tmp_path)
    window = make_window((1000, 700))
    open_and_check(qtbot, window, pdf)
    box = window.page_box  # the toolbar's page number box
    view = window.view
    view.go_to_page(2)
    qtbot.waitUntil(lambda: view.current_page == 2, timeout=10000)
    assert box.text() == "iii (3)"  # its label, and its number beside it
    view.go_to_page(5)
    qtbot.waitUntil(lambda: view.current_page == 5, timeout=10000)
    assert box.text() == "2 (6)"  # page 6 is labelled 2: both said
    for typed, page in (("ii", 1), ("IV", 3), ("1", 4), ("7", 6), ("iii (3)", 2)):
        box.setFocus()
        box.lineEdit().selectAll()
        qtbot.keyClicks(box.lineEdit(), typed)
        qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)
        qtbot.waitUntil(lambda page=page: view.current_page == page, timeout=10000)
    # A PDF without labels shows plain numbers.
    plain = text_pdf(tmp_path / "plain.pdf", pages=3)
    open_and_check(qtbot, window, plain)
    view.go_to_page(1)
    qtbot.waitUntil(lambda: view.current_page == 1, timeout=10000)
    assert box.text() == "2"
