"""What the page view paints, checked against PyMuPDF alone.

For window sizes from 800×600 to very wide and very tall, zoom 50–400 %, pages with /Rotate
0/90/180/270 and with a CropBox offset:

1. the painted page is PyMuPDF's own rendering of that page at zoom × dpr, at the painted
   origin (so the origin and the scale are right, independently of the viewer's transform);
2. each painted highlight rectangle equals the word box mapped by PyMuPDF's
   ``rotation_matrix × zoom × dpr`` from that origin, within 1 device pixel;
3. the highlight colour appears over those words and nowhere else in the grab.

The same checks at QT_SCALE_FACTOR=2 run in a subprocess (test_screenshot.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from viewer.checker.inspection import inspect_pdf
from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.render.highlight import Highlighter
from viewer.render.layout import GAP, MARGIN
from viewer.render.renderer import Renderer
from viewer.render.tiles import DocRef
from viewer.render.view import PageView

from .helpers import (
    Rect,
    color_outside,
    count_color,
    expected_device_rects,
    line_rects,
    pixel_match,
    render_page,
    text_pdf,
)

SIZES = {"800x600": (800, 600), "wide": (2600, 700), "tall": (700, 1900)}
ZOOMS = (0.5, 1.0, 2.0, 4.0)
ROTATIONS = (0, 90, 180, 270)
HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)
PAGE = 1  # the second page: its origin is not the layout's first


@pytest.fixture
def view(qtbot: QtBot) -> Iterator[PageView]:
    renderer = Renderer()
    v = PageView(renderer, Highlighter(HIGHLIGHT))
    qtbot.addWidget(v)
    yield v
    v.close()
    renderer.close()


def show_highlight(qtbot: QtBot, view: PageView, pdf: Path, size: tuple[int, int],
                   zoom: float, rects: list[Rect], page: int = PAGE) -> QImage:
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.set_document(DocRef(str(pdf)), inspect_pdf(pdf).pages)
    view.set_zoom(zoom)
    view.set_highlights({page: rects})
    view.reveal(page, rects, fit=False)  # at this zoom (fitting is tested on its own)
    qtbot.waitUntil(view.is_settled, timeout=20000)
    return view.viewport().grab().toImage()


def check_pixels(view: PageView, image: QImage, pdf: Path, zoom: float, rects: list[Rect],
                 page: int = PAGE) -> None:
    dpr = image.devicePixelRatio()
    painted = view.painted_pages[page]
    origin = (painted.x() * dpr, painted.y() * dpr)
    assert all(abs(v - round(v)) < 1e-6 for v in origin), "page off the pixel grid"
    at = (round(origin[0]), round(origin[1]))
    expected = expected_device_rects(pdf, page, rects, zoom, dpr, origin)

    # 1. The page image is PyMuPDF's, placed at the painted origin.
    same, total = pixel_match(image, render_page(pdf, page, zoom * dpr), at, skip=expected)
    assert total > 100, "the page is not in view"
    assert same / total > 0.995, f"page pixels differ from PyMuPDF's: {same}/{total}"

    # 2. Painted rectangles = word boxes mapped by PyMuPDF, within one device pixel.
    got = [QRectF(r.x() * dpr, r.y() * dpr, r.width() * dpr, r.height() * dpr)
           for i, r in view.painted_highlights if i == page]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        for a, b in ((g.left(), e.left()), (g.top(), e.top()), (g.right(), e.right()),
                     (g.bottom(), e.bottom())):
            assert abs(a - b) <= 1.0, f"painted {g} vs PyMuPDF {e}"

    # 3. The highlight colour over those words, and nowhere else.
    assert color_outside(image, HIGHLIGHT, expected) == 0
    bounds = QRectF(image.rect())
    shown = 0
    for e in expected:
        part = e.intersected(bounds).adjusted(1, 1, -1, -1)
        if part.width() >= 4 and part.height() >= 4:
            assert count_color(image, HIGHLIGHT, part.toAlignedRect()) > 0, e
            shown += 1
    assert shown >= 1, "no highlighted line is in view"


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("zoom", ZOOMS)
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_rotated_pages(qtbot: QtBot, view: PageView, tmp_path: Path, size: tuple[int, int],
                       zoom: float, rotation: int) -> None:
    pdf = text_pdf(tmp_path / "r.pdf", rotation=rotation)
    rects = line_rects(pdf, PAGE, 12, 3)
    image = show_highlight(qtbot, view, pdf, size, zoom, rects)
    check_pixels(view, image, pdf, zoom, rects)


@pytest.mark.parametrize("zoom", ZOOMS)
@pytest.mark.parametrize("rotation", (0, 90))
def test_cropbox_offset_page(qtbot: QtBot, view: PageView, tmp_path: Path, zoom: float,
                             rotation: int) -> None:
    # CropBox starts 50 pt right of and 80 pt above the MediaBox origin: words are
    # measured from the CropBox's top-left, and the image shows only the CropBox.
    pdf = text_pdf(tmp_path / "c.pdf", rotation=rotation, cropbox=(50, 40, 560, 712))
    rects = line_rects(pdf, PAGE, 5, 4)
    image = show_highlight(qtbot, view, pdf, (1000, 800), zoom, rects)
    check_pixels(view, image, pdf, zoom, rects)


@pytest.mark.parametrize("name,page", [("rotated_all_four_angles.pdf", 1),
                                       ("rotated_all_four_angles.pdf", 3),
                                       ("form_lu_160F_tax_certificate.pdf", 0),
                                       ("text_acta_acustica_cropbox.pdf", 0),
                                       ("rotated_de_gazette_270_cropbox.pdf", 0)])
def test_corpus_pages(qtbot: QtBot, view: PageView, corpus: Path, name: str,
                      page: int) -> None:
    pdf = corpus / name
    rects = line_rects(pdf, page, 3, 3)
    image = show_highlight(qtbot, view, pdf, (1100, 900), 1.5, rects, page=page)
    dpr = image.devicePixelRatio()
    painted = view.painted_pages[page]
    origin = (painted.x() * dpr, painted.y() * dpr)
    expected = expected_device_rects(pdf, page, rects, 1.5, dpr, origin)
    same, total = pixel_match(image, render_page(pdf, page, 1.5 * dpr),
                              (round(origin[0]), round(origin[1])), skip=expected)
    assert total > 100 and same / total > 0.995
    got = [r for i, r in view.painted_highlights if i == page]
    for g, e in zip(got, expected, strict=True):
        assert abs(g.left() * dpr - e.left()) <= 1 and abs(g.top() * dpr - e.top()) <= 1
        assert abs(g.right() * dpr - e.right()) <= 1
        assert abs(g.bottom() * dpr - e.bottom()) <= 1


def test_zoom_keeps_the_point_under_the_cursor(qtbot: QtBot, view: PageView,
                                               tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "z.pdf", pages=4)
    show_highlight(qtbot, view, pdf, (900, 700), 1.0, [])
    view.verticalScrollBar().setValue(700)
    cursor = view.viewport().rect().center()
    cursor.setX(300)
    page = view.pages_layout.page_at(cursor.y() + 700)  # type: ignore[union-attr]
    assert page is not None
    before = page.point_to_words(cursor.toPointF() - view.scroll_offset())
    for zoom in (2.0, 3.5, 0.6):
        view.set_zoom(zoom, anchor=cursor.toPointF())
        after = page.transform(view.scroll_offset()).map(before)
        assert abs(after.y() - cursor.y()) <= 1
        if view.horizontalScrollBar().maximum() > 0:  # else the page is centred, not moved
            assert abs(after.x() - cursor.x()) <= 1


def test_while_rendering_a_new_zoom_the_old_image_is_shown_scaled(
        qtbot: QtBot, view: PageView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = text_pdf(tmp_path / "i.pdf", pages=2)
    show_highlight(qtbot, view, pdf, (900, 700), 1.0, [], page=0)
    monkeypatch.setattr(view.renderer, "want", lambda keys: None)  # the worker is "busy"
    view.set_zoom(1.6)
    assert not view.is_settled()
    image = view.viewport().grab().toImage()
    page = view.painted_pages[0]
    crop = image.copy(page.toAlignedRect().intersected(image.rect()))
    # Not blank paper: the 100 % image, scaled, stands in until the 160 % one arrives.
    white = count_color(crop, QColor("#FFFFFF"))
    assert white < crop.width() * crop.height() * 0.995


@pytest.mark.parametrize("zoom", ZOOMS)
def test_going_to_a_page_shows_it_from_its_top_and_nothing_of_the_one_before(
        qtbot: QtBot, view: PageView, tmp_path: Path, zoom: float) -> None:
    """Page N at the top, the gap above it in view: nothing of page N-1 is in view or
    painted (a 2-pixel strip of it was, for which it was rendered as a page in view)."""
    pdf = text_pdf(tmp_path / "p.pdf", pages=4)
    view.resize(900, 700)
    view.show()
    qtbot.waitExposed(view)
    view.set_document(DocRef(str(pdf)), inspect_pdf(pdf).pages)
    view.set_zoom(zoom)
    checked = 0
    for index in (2, 0, 3, 1):
        view.go_to_page(index)
        page = view.page(index)
        if view.verticalScrollBar().value() != page.rect().top() - (GAP if index else MARGIN):
            continue  # the last pages of a short document cannot be scrolled to the top
        checked += 1
        view.painted_pages = {}
        view.viewport().update()
        qtbot.waitUntil(lambda: bool(view.painted_pages), timeout=10000)
        assert min(view.painted_pages) == index  # nothing of the page before
        lay = view.pages_layout
        assert lay is not None and lay.pages_in(view.visible_layout_rect())[0].index == index
        if index:  # the page before ends the gap above the view's top
            before = lay.pages[index - 1]
            assert before.y + before.height <= view.visible_layout_rect().top()
    assert checked >= 2
