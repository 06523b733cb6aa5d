"""Rotate View keeps the reader where they were: the page they look at and the point of
it at the viewport's centre, whatever claim or find hit was shown before, at every turn
and in either zoom mode. A highlight in view stays in view."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from viewer.render.layout import ZoomMode
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, write_citations
from .review_helpers import open_and_check

MakeWindow = Callable[..., MainWindow]


def centre_point(window: MainWindow) -> tuple[int, QPointF]:
    """The page and its words-space point at the viewport's centre."""
    view = window.view
    vp = view.viewport()
    layout_point = QPointF(vp.width() / 2, vp.height() / 2) - view.scroll_offset()
    page = view.pages_layout.page_at(layout_point.y())
    assert page is not None
    return page.index, page.point_to_words(layout_point)


@pytest.mark.parametrize("mode", [ZoomMode.FIT_WIDTH, ZoomMode.FIXED])
def test_turning_keeps_the_page_and_the_point_in_view(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path, mode: ZoomMode) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=30)
    cite = write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "p10", "text": "on page 10", "evidence": [
            {"page": 10, "quote": paragraph_lines(9, 40)[4]}]}])
    window = make_window((1000, 760))
    open_and_check(qtbot, window, cite)
    view = window.view
    if mode is ZoomMode.FIXED:
        view.set_zoom(1.5)
    window.session.select("p10")  # its highlight is revealed on page 10 …
    qtbot.waitUntil(lambda: view.current_page == 9, timeout=20000)
    page = view.pages_layout.pages[24]  # … and the reader scrolls on to page 25
    view.verticalScrollBar().setValue(page.y + round(page.height / 3))
    start = centre_point(window)
    assert start[0] == 24
    zoom = view.zoom
    for action, turn in ((window.reader.rotate_right, 90), (window.reader.rotate_right, 180),
                         (window.reader.rotate_right, 270), (window.reader.rotate_left, 180),
                         (window.reader.rotate_left, 90), (window.reader.rotate_left, 0)):
        action.trigger()
        qtbot.waitUntil(window.is_settled, timeout=20000)
        assert view.turn == turn
        assert view.current_page == 24, turn
        index, point = centre_point(window)
        assert index == 24
        # The same point, to within a pixel of rounding the scroll bars. Across the view
        # (words x at 0° and 180°, words y at 90° and 270°) a page no wider than the view
        # cannot scroll: it is centred, all of it in view, and its middle is at the
        # centre; each turn keeps the point the reader looks at just before it.
        tolerance = 1.5 / view.zoom
        dx, dy = abs(point.x() - start[1].x()), abs(point.y() - start[1].y())
        down, across = (dy, dx) if turn in (0, 180) else (dx, dy)
        assert down <= tolerance, (turn, point, start[1])
        if view.horizontalScrollBar().maximum() > 0:
            assert across <= tolerance, (turn, point, start[1])
        start = (index, point)  # the next turn keeps what is at the centre now
    if mode is ZoomMode.FIXED:
        assert view.zoom == pytest.approx(zoom)


def test_a_highlight_in_view_stays_in_view(qtbot: QtBot, make_window: MakeWindow,
                                          tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=5)
    cite = write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "p3", "text": "on page 3", "evidence": [
            {"page": 3, "quote": paragraph_lines(2, 40)[20]}]}])
    window = make_window((1000, 760))
    open_and_check(qtbot, window, cite)
    window.session.select("p3")
    qtbot.waitUntil(lambda: window.view.current_page == 2, timeout=20000)
    for _ in range(4):
        window.reader.rotate_right.trigger()
        qtbot.waitUntil(window.is_settled, timeout=20000)
        band = window.view.revealed
        assert band is not None
        page = window.view.pages_layout.pages[band[0]]
        rect = page.map_rect(band[1][0])
        assert window.view.visible_layout_rect().contains(rect), window.view.turn
