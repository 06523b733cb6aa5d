"""Find in the window: Ctrl+F, typing, Enter and F3; every hit marked in the find colour
(never the highlight's), the current one centred; the hit list; Stop; a long document
searched while the window keeps answering."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_FIND, DEFAULT_HIGHLIGHT
from viewer.widgets.side_panel import RESULTS
from viewer.window.shell import MainWindow

from .helpers import color_outside, count_color, paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]
HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)


def open_pdf(qtbot: QtBot, window: MainWindow, pdf: Path) -> None:
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.page_count() > 0, timeout=20000)
    qtbot.waitUntil(window.is_settled, timeout=20000)


def type_search(qtbot: QtBot, window: MainWindow, text: str) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    field = window.reader.find.bar.field
    assert field.hasFocus()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.reader.find.results.state == "done", timeout=20000)
    qtbot.waitUntil(window.is_settled, timeout=20000)


def viewport_rects(window: MainWindow, page: int, rects: tuple) -> list[QRectF]:
    origin = QPointF(window.view.viewport().mapTo(window, QPoint(0, 0)))
    return [window.view.page(page).map_rect(r, window.view.scroll_offset()).translated(origin)
            for r in rects]


def test_ctrl_f_finds_marks_and_centres(qtbot: QtBot, make_window: MakeWindow,
                                        tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "p.pdf", pages=4)
    window = make_window((1100, 800))
    open_pdf(qtbot, window, pdf)
    find = window.reader.find
    type_search(qtbot, window, "HEADING")  # every page has one "Page N heading"
    assert len(find.results.hits) == 4
    assert find.bar.status.text() == "1 of 4 matches"
    assert [h.page for h in find.results.hits] == [0, 1, 2, 3]
    hits = window.reader.panel.panel.hits
    assert window.reader.panel.panel.currentIndex() == RESULTS and hits.model_.rowCount() == 4
    assert hits.model_.index(2).data().startswith("p. 3")

    qtbot.keyClick(find.bar.field, Qt.Key.Key_F3)  # the next hit, centred
    current = find.results.current_hit()
    assert current is not None and current.page == 1 and find.results.current == 1
    assert hits.currentIndex().row() == 1
    qtbot.waitUntil(window.is_settled, timeout=20000)
    band = viewport_rects(window, current.page, current.rects)[0]
    viewport = QRectF(window.view.viewport().rect()).translated(
        QPointF(window.view.viewport().mapTo(window, QPoint(0, 0))))
    assert abs(band.center().y() - viewport.center().y()) <= 2

    # Marked in the find colour around the words; the highlight colour nowhere.
    grab = window.grab().toImage()
    find_color = QColor(DEFAULT_FIND)
    assert count_color(grab, find_color, band.adjusted(-2, -2, 2, 2).toAlignedRect()) > 0
    assert count_color(grab, HIGHLIGHT) == 0
    assert color_outside(grab, find_color, [r for h in find.results.hits if h.page in (0, 1, 2)
                                            for r in viewport_rects(window, h.page, h.rects)],
                         margin=2.5) == 0

    qtbot.keyClick(find.bar.field, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert find.results.current == 0
    hits.hit_chosen.emit(3)  # a row of the hit list
    assert find.results.current == 3 and window.view.revealed is not None \
        and window.view.revealed[0] == 3

    qtbot.keyClick(find.bar.field, Qt.Key.Key_Escape)  # closes, clears, keys to the pages
    assert not find.bar.isVisible() and find.marks.pages() == []
    assert window.view.hasFocus()


def test_find_marks_never_take_the_highlight_colour(qtbot: QtBot, make_window: MakeWindow,
                                                    tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=2)
    line = paragraph_lines(0, 40)[5]
    cite = write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "c1", "text": "t", "evidence": [{"page": 1, "quote": line}]}])
    window = make_window((1100, 800))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.selected == "c1", timeout=30000)
    find = window.reader.find
    find.open()
    find.bar.field.setText(line)  # the highlighted line itself: marks over evidence
    find.search(line)
    qtbot.waitUntil(lambda: find.results.state == "done", timeout=20000)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert len(find.results.hits) == 1
    grab = window.grab().toImage()
    origin = QPointF(window.view.viewport().mapTo(window, QPoint(0, 0)))
    evidence = [r.translated(origin) for _, r in window.view.painted_highlights]
    assert evidence
    # The highlight colour stays where the evidence is and only there; the find colour
    # outlines the hit over it.
    assert color_outside(grab, HIGHLIGHT, evidence) == 0
    assert count_color(grab, QColor(DEFAULT_FIND),
                       evidence[0].adjusted(-2, -2, 2, 2).toAlignedRect()) > 0
    assert find.marks.color != window.view.highlighter.color


def test_a_long_document_is_searched_while_the_window_answers(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "long.pdf", pages=300)
    window = make_window((1000, 700))
    open_pdf(qtbot, window, pdf)
    find = window.reader.find
    find.open()
    find.bar.field.setText("heading")
    find.search("heading")
    qtbot.waitUntil(lambda: bool(find.results.hits), timeout=20000)  # streamed: the first
    assert find.results.state == "running" and find.bar.stop_button.isVisible()
    zoom = window.view.zoom
    window.commands.zoom_in.trigger()  # the window answers while the search runs
    assert window.view.zoom > zoom
    find.bar.stop_button.click()
    assert find.results.state == "stopped"
    assert 0 < len(find.results.hits) < 300
    assert "stopped after" in find.bar.status.text()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=20000)


def test_another_document_is_searched_afresh(qtbot: QtBot, make_window: MakeWindow,
                                             tmp_path: Path) -> None:
    first = text_pdf(tmp_path / "a.pdf", pages=2)
    second = text_pdf(tmp_path / "b.pdf", pages=5)
    window = make_window((1000, 700))
    open_pdf(qtbot, window, first)
    type_search(qtbot, window, "heading")
    assert len(window.reader.find.results.hits) == 2
    open_pdf(qtbot, window, second)
    qtbot.waitUntil(lambda: len(window.reader.find.results.hits) == 5
                    and window.reader.find.results.state == "done", timeout=20000)
    assert window.reader.find.results.document == str(second.resolve())


def test_the_find_colour_keeps_apart_from_a_new_highlight_colour(
        make_window: MakeWindow) -> None:
    window = make_window()
    find = window.reader.find
    window.set_highlight_color(QColor(DEFAULT_FIND))  # a reader picks the marks' blue
    assert find.color == QColor(DEFAULT_FIND)  # as chosen, kept for later
    assert find.marks.color != window.view.highlighter.color
    window.set_highlight_color(HIGHLIGHT)
    assert find.marks.color == QColor(DEFAULT_FIND)  # back to the chosen blue
