"""View ▸ Two Pages: the pages two by two, side by side (1–2, 3–4, …), fitted to the
width as a pair; the page under the pointer is the one words are selected on; and the
point at the centre stays there when the view changes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from viewer.render.layout import GAP, Layout
from viewer.state.documents import PageInfo
from viewer.window.shell import MainWindow

from .helpers import text_pdf
from .review_helpers import drag, pdf_words, press, word_centre

MakeWindow = Callable[..., MainWindow]
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def test_a_facing_layout_puts_pages_two_by_two() -> None:
    infos = [PageInfo(i, 612, 792, 0, IDENTITY) for i in range(5)]
    lay = Layout(infos, facing=True)
    lay.update(1300, 800)
    p = lay.pages
    assert p[0].y == p[1].y < p[2].y == p[3].y < p[4].y
    assert p[0].x + p[0].width <= p[1].x and p[1].x - (p[0].x + p[0].width) <= GAP + 1
    assert p[0].x + p[0].width + p[1].width + GAP <= lay.width
    assert lay.width == 1300  # fitted to the width as a pair: nothing to scroll across
    # Fitted to the width as a pair.
    assert lay.zoom < Layout(infos).zoom_for(lay.mode, 1300, 800)
    # The page under a point: the row's left or right page by where the point is.
    mid_y = p[2].y + 100
    assert lay.page_at(mid_y, p[2].x + 10) is p[2]
    assert lay.page_at(mid_y, p[3].x + 10) is p[3]
    assert lay.page_at(mid_y) is p[2]
    shown = lay.pages_in(QRectF(p[3].x + 5, p[3].y + 5, 50, 50))
    assert shown == [p[3]]
    assert lay.page_at(p[4].y + 10, p[4].x + 10) is p[4]  # the last, alone, centred


def test_two_pages_in_the_window(qtbot: QtBot, make_window: MakeWindow,
                                 tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "book.pdf", pages=4)
    window = make_window((1200, 800))
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.doc is not None and window.is_settled(),
                    timeout=30000)
    window.reader.facing.trigger()
    assert window.view.facing
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    painted = window.view.painted_pages
    assert 0 in painted and 1 in painted and painted[0].top() == painted[1].top()
    assert painted[0].right() < painted[1].left()
    # Words dragged on the right-hand page are that page's.
    cache = window.selecting.cache
    cache.words_of(1)
    qtbot.waitUntil(lambda: cache.ready(1), timeout=20000)
    words = pdf_words(pdf, 1)
    drag(qtbot, window, word_centre(window, pdf, 1, words[3]),
         word_centre(window, pdf, 1, words[6]))
    qtbot.waitUntil(lambda: window.selecting.selection is not None, timeout=20000)
    assert window.selecting.selection.page.page == 1  # type: ignore[union-attr]
    press(qtbot, window, "Ctrl+C")
    assert QApplication.clipboard().text().split()[0] == words[3][4]
    window.reader.facing.trigger()
    assert not window.view.facing
