"""The side panel: thumbnails rendered lazily by the render process with evidence pages
marked, the outline when the PDF has one, F4; and turning the view, remembered per file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pymupdf
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QTransform
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.widgets.side_panel import OUTLINE, PAGES
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .helpers import (
    color_outside,
    expected_device_rects,
    open_and_check,
    paragraph_lines,
    pixel_match,
    render_page,
    text_pdf,
    write_citations,
)

MakeWindow = Callable[..., MainWindow]
HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)


def cited(tmp_path: Path, pages: int = 40) -> Path:
    text_pdf(tmp_path / "policy.pdf", pages=pages)
    return write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "p2", "text": "on page 2", "evidence": [
            {"page": 2, "quote": paragraph_lines(1, 40)[4]}]},
        {"id": "p4", "text": "on page 4", "evidence": [
            {"page": 4, "quote": paragraph_lines(3, 40)[7]}]}])


def test_thumbnails_render_lazily_and_mark_the_evidence(qtbot: QtBot, make_window: MakeWindow,
                                                        tmp_path: Path) -> None:
    cite = cited(tmp_path)
    window = make_window((1200, 800))
    open_and_check(qtbot, window, cite)
    panel = window.reader.panel
    window.reader.side_panel.trigger()  # F4
    assert panel.is_shown() and window.reader.side_panel.isChecked()
    thumbs = panel.panel.thumbnails
    assert panel.panel.currentIndex() == PAGES and thumbs.model_.rowCount() == 40
    qtbot.waitUntil(thumbs.is_settled, timeout=20000)
    # Only the thumbnails in view were rendered, not all 40.
    assert 0 < len(thumbs.side.cache) < 40
    key = next(k for k in thumbs.side.cache._tiles if k.page == 0)
    tile = thumbs.side.cache.get(key)
    assert tile is not None
    assert tile.image.convertToFormat(QImage.Format.Format_RGB32) == \
        render_page(cite.parent / "policy.pdf", 0, key.scale)  # PyMuPDF's pixels
    # Evidence pages marked by status; the selected claim's pages framed.
    assert thumbs.marks == {1: "located", 3: "located"}
    assert window.session.selected == "p2" and thumbs.selected_pages == {1: "located"}
    window.session.select("p4")
    assert thumbs.selected_pages == {3: "located"}
    # A click on a thumbnail shows its page; the list follows the view.
    thumbs.page_chosen.emit(6)
    assert window.view.current_page in (5, 6)
    assert thumbs.currentIndex().row() == window.view.current_page
    window.reader.side_panel.trigger()
    assert not panel.is_shown()


def test_the_outline_is_listed_when_the_pdf_has_one(qtbot: QtBot, make_window: MakeWindow,
                                                    tmp_path: Path) -> None:
    plain = text_pdf(tmp_path / "plain.pdf", pages=3)
    with pymupdf.open(plain) as doc:
        doc.set_toc([[1, "Declarations", 1], [2, "Coverage A", 2], [1, "Conditions", 3]])
        doc.save(tmp_path / "outlined.pdf")
    window = make_window((1100, 800))
    window.open_path(plain)
    panel = window.reader.panel.panel
    qtbot.waitUntil(lambda: window.view.page_count() == 3 and not window.is_busy(),
                    timeout=20000)
    assert not panel.isTabEnabled(OUTLINE)  # no bookmarks: nothing to show
    window.open_path(tmp_path / "outlined.pdf")
    qtbot.waitUntil(lambda: panel.isTabEnabled(OUTLINE), timeout=20000)
    tree = panel.outline
    assert tree.entry_count() == 3
    top = tree.topLevelItem(0)
    assert top.text(0) == "Declarations" and top.child(0).text(0) == "Coverage A"
    tree.itemClicked.emit(tree.topLevelItem(1), 0)  # "Conditions": page 3
    assert window.view.current_page == 2


def test_a_turned_view_shows_the_page_and_highlights_turned(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    cite = cited(tmp_path, pages=3)
    window = make_window((1200, 900))
    open_and_check(qtbot, window, cite)
    pdf = cite.parent / "policy.pdf"
    origin = QPointF(window.view.viewport().mapTo(window, QPoint(0, 0)))
    viewport = QRectF(window.view.viewport().rect()).translated(origin)
    for turn in (90, 180, 270):
        window.reader.rotate_right.trigger()
        assert window.view.turn == turn
        window.show_selection()
        qtbot.waitUntil(window.is_settled, timeout=20000)
        grab = window.grab().toImage()
        zoom = window.view.zoom
        painted = window.view.painted_pages[1].translated(origin)
        # The highlights are where PyMuPDF puts the words on a copy with /Rotate T.
        copy = tmp_path / f"turned{turn}.pdf"
        with pymupdf.open(pdf) as doc:
            for page in doc:
                page.set_rotation(turn)
            doc.save(copy)
        rects = window.review.highlights("p2", "policy")[1]
        expected = expected_device_rects(copy, 1, rects, zoom, 1.0,
                                         (painted.x(), painted.y()))
        # The page image is PyMuPDF's, turned pixel for pixel.
        image = render_page(pdf, 1, zoom).transformed(QTransform().rotate(turn))
        at = (round(painted.x()), round(painted.y()))
        same, total = pixel_match(grab, image, at, skip=expected, within=viewport)
        assert total > 100 and same / total > 0.995, (turn, same, total)
        got = [r.translated(origin) for page, r in window.view.painted_highlights if page == 1]
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            for a, b in ((g.left(), e.left()), (g.top(), e.top()), (g.right(), e.right()),
                         (g.bottom(), e.bottom())):
                assert abs(a - b) <= 1.0, (turn, g, e)
        assert color_outside(grab, HIGHLIGHT, expected, margin=2) == 0


def test_the_turn_is_remembered_for_the_file(qtbot: QtBot, prefs: Preferences,
                                             tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "a.pdf", pages=2)
    other = text_pdf(tmp_path / "b.pdf", pages=2)
    window = MainWindow(prefs, interactive=True)
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.page_count() == 2, timeout=20000)
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert window.view.turn == 90
    window.open_path(other)  # another file: as it was
    qtbot.waitUntil(lambda: window.view.doc is not None
                    and window.view.doc.path.endswith("b.pdf"), timeout=20000)
    assert window.view.turn == 0
    window.close()
    again = MainWindow(prefs, interactive=True)
    qtbot.addWidget(again)
    again.show()
    again.open_path(pdf)
    qtbot.waitUntil(lambda: again.view.page_count() == 2, timeout=20000)
    assert again.view.turn == 90 and again.view.page(0).sideways
    assert json.dumps(prefs.turn_for(pdf)) == "90"
