"""View ▸ Dark Pages: the page inverted (dark paper, light text), the highlight exactly
as on a light page (its colour under the cited words, the words dark on it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]


def colours(image: object, rect: QRectF) -> list[QColor]:
    r = rect.toAlignedRect()
    return [QColor(image.pixel(x, y))  # type: ignore[attr-defined]
            for y in range(r.top(), r.bottom(), 2) for x in range(r.left(), r.right(), 2)]


def test_dark_pages_invert_the_page_but_not_the_highlight(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=2)
    cite = write_citations(tmp_path / "c.cite", "policy.pdf", [
        {"id": "c1", "text": "t", "evidence": [{"page": 1, "quote": paragraph_lines(0, 40)[6]}]}])
    window = make_window((1000, 760))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.selected == "c1" and window.is_settled(),
                    timeout=30000)
    view = window.view
    window.reader.dark_pages.trigger()
    assert view.dark
    view.viewport().repaint()
    image = view.viewport().grab().toImage()
    [(_page, band)] = [h for h in view.painted_highlights if h[0] == 0][:1]
    painted = view.painted_pages[0]
    margin = QRectF(painted.left() + 4, painted.bottom() - 40, painted.width() - 8, 30)
    assert all(c.lightness() < 40 for c in colours(image, margin))  # dark paper
    inside = colours(image, band.adjusted(1, 1, -1, -1))
    hl = QColor(DEFAULT_HIGHLIGHT)
    near = [c for c in inside if abs(c.red() - hl.red()) < 30 and abs(c.green() - hl.green())
            < 30 and abs(c.blue() - hl.blue()) < 30]
    assert len(near) > len(inside) / 2  # the highlight colour under the cited words
    assert any(c.lightness() < 80 for c in inside)  # and the words dark on it
    line = QRectF(band.left(), band.bottom() + 8, band.width(), band.height())
    assert any(c.lightness() > 200 for c in colours(image, line))  # light text elsewhere
    window.reader.dark_pages.trigger()
    assert not view.dark
