"""Every place a citation points to is within reach: a second document, the other pages a
quote fits equally well, each copy of a quote that stands twice, a highlight bigger than
the view, the highlight kept in view on zoom, a click to centre it again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from pytestqt.qtbot import QtBot

from viewer.render import framing
from viewer.render.layout import ZoomMode
from viewer.state.links import Link
from viewer.window.shell import MainWindow

from .helpers import lines_pdf, open_and_check, paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]


def band_in_view(window: MainWindow) -> QRectF:
    """The band last revealed, in layout pixels, checked to lie in the visible part."""
    band = framing.band_on(window.view.pages_layout, window.view.revealed)
    assert not band.isEmpty()
    return band


def test_a_claim_on_two_documents_shows_each(qtbot: QtBot, make_window: MakeWindow,
                                             tmp_path: Path) -> None:
    text_pdf(tmp_path / "a.pdf", pages=2)
    text_pdf(tmp_path / "b.pdf", pages=3)
    cite = tmp_path / "two.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [
        {"id": "a", "path": "a.pdf"}, {"id": "b", "path": "b.pdf"}], "claims": [
        {"id": "both", "text": "t", "evidence": [
            {"document": "a", "quote": paragraph_lines(0, 40)[4]},
            {"document": "b", "quote": paragraph_lines(2, 40)[9]}]}]}))
    window = make_window((1100, 800))
    open_and_check(qtbot, window, cite)
    assert window.view.doc is not None and window.view.doc.path.endswith("a.pdf")
    html = window.detail.toHtml()
    assert 'href="show:1"' in html and "b.pdf" in window.detail.toPlainText()
    switch = window.reader.documents
    assert switch.action.isVisible()
    assert [switch.box.itemText(i) for i in range(2)] == ["● a.pdf", "● b.pdf"]
    window.detail.link.emit(Link.parse("show:1"))  # the second item's link
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.doc.path.endswith("b.pdf") and window.view.page_count() == 3
    assert window.view.highlighter.pages() == [2]
    assert window.view.revealed is not None and window.view.revealed[0] == 2
    assert switch.box.currentText() == "● b.pdf"
    switch.box.activated.emit(0)  # back to the first through the toolbar's list
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.doc.path.endswith("a.pdf") and window.view.highlighter.pages() == [0]


def test_other_pages_are_links_and_marked(qtbot: QtBot, make_window: MakeWindow,
                                          tmp_path: Path) -> None:
    same = paragraph_lines(5, 40)
    lines_pdf(tmp_path / "twice.pdf", [same, paragraph_lines(6, 40), same])
    cite = write_citations(tmp_path / "c.cite", "twice.pdf", [
        {"id": "fits", "text": "t", "evidence": [{"quote": same[12]}]}])  # no page hint
    window = make_window((1100, 800))
    open_and_check(qtbot, window, cite)
    ev = window.session.claim_result("fits").evidence[0]  # type: ignore[union-attr]
    assert ev.status == "review" and len(ev.other_pages) == 1
    other = ev.other_pages[0]
    qtbot.waitUntil(lambda: ("fits", 0) in window.session.other_copies, timeout=20000)
    assert sorted(window.view.highlighter.pages()) == sorted([ev.page - 1, other - 1])
    assert f'href="page:0:{other}"' in window.detail.toHtml()
    window.detail.link.emit(Link.parse(f"page:0:{other}"))
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.revealed is not None and window.view.revealed[0] == other - 1
    assert window.view.revealed[1] == window.session.other_copies[("fits", 0)][other - 1]


def test_each_copy_of_a_repeated_quote_is_a_link(qtbot: QtBot, make_window: MakeWindow,
                                                 tmp_path: Path) -> None:
    lines = paragraph_lines(8, 40)
    lines[30] = lines[4]  # the same line twice on the page
    lines_pdf(tmp_path / "rep.pdf", [lines])
    cite = write_citations(tmp_path / "c.cite", "rep.pdf", [
        {"id": "rep", "text": "t", "evidence": [{"page": 1, "quote": lines[4]}]}])
    window = make_window((1000, 700))
    open_and_check(qtbot, window, cite)
    ev = window.session.claim_result("rep").evidence[0]  # type: ignore[union-attr]
    assert ev.status == "review" and len(ev.alternatives) == 1
    assert len(window.view.highlighter.rects_on(0)) == 2  # all copies marked
    html = window.detail.toHtml()
    assert 'href="copy:0:0"' in html and 'href="copy:0:1"' in html
    window.detail.link.emit(Link.parse("copy:0:1"))
    assert window.view.revealed == (0, ev.alternatives[0].rects)
    window.detail.link.emit(Link.parse("copy:0:0"))
    assert window.view.revealed is not None and window.view.revealed[1] != \
        ev.alternatives[0].rects and len(window.view.revealed[1]) == 1


def test_a_band_bigger_than_the_view_is_zoomed_out_to_fit(qtbot: QtBot, make_window: MakeWindow,
                                                          tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=3)
    lines = paragraph_lines(1, 40)
    cite = write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "long", "text": "t", "evidence": [{"page": 2, "quote": " ".join(lines[2:36])}]},
        {"id": "short", "text": "t", "evidence": [{"page": 2, "quote": lines[20]}]}])
    window = make_window((1000, 600))  # the 34 lines are taller than the view at fit width
    open_and_check(qtbot, window, cite)
    window.session.select("long")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    fit = window.view.pages_layout.zoom_for(ZoomMode.FIT_WIDTH, window.view.viewport().width(),
                                            window.view.viewport().height())
    assert window.view.zoom < fit
    visible = window.view.visible_layout_rect()
    assert visible.contains(band_in_view(window))  # the whole band is in view

    # After a zoom change the selected highlight stays in view.
    window.session.select("short")
    for _ in range(4):
        window.commands.zoom_in.trigger()
        assert window.view.visible_layout_rect().intersects(band_in_view(window))
    window.commands.fit_page.trigger()
    assert window.view.visible_layout_rect().intersects(band_in_view(window))

    # Scrolled away, a click on the selected claim centres its highlight again.
    window.view.verticalScrollBar().setValue(0)
    assert not window.view.visible_layout_rect().intersects(band_in_view(window))
    row = window.claims.model_.row_of("short")
    rect = window.claims.visualRect(window.claims.model_.index(row))
    qtbot.mouseClick(window.claims.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    band = band_in_view(window)
    assert abs(band.center().y() - window.view.visible_layout_rect().center().y()) <= 2
