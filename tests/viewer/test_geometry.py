"""Pure geometry: the page transform, the layout and the tile grid (no widgets, no qtbot)."""

from __future__ import annotations

import math
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF, QRectF

from viewer.checker.inspection import page_info
from viewer.render.layout import GAP, MARGIN, MAX_ZOOM, MIN_ZOOM, Layout, ZoomMode, clamp_zoom
from viewer.render.page import Page
from viewer.render.tiles import MAX_TILE, tile_grid
from viewer.state.documents import PageInfo

from .helpers import text_pdf

ROTATIONS = (0, 90, 180, 270)


def infos(pdf: Path) -> list[PageInfo]:
    with pymupdf.open(pdf) as doc:
        return [page_info(p) for p in doc]


@pytest.mark.parametrize("rotation", ROTATIONS)
@pytest.mark.parametrize("cropbox", [None, (40, 30, 560, 700)])
@pytest.mark.parametrize("zoom", [0.5, 1.0, 1.37, 2.0, 4.0])
def test_transform_equals_pymupdf_mapping(tmp_path: Path, rotation: int,
                                          cropbox: tuple[float, ...] | None,
                                          zoom: float) -> None:
    pdf = text_pdf(tmp_path / "t.pdf", pages=1, rotation=rotation, cropbox=cropbox)
    with pymupdf.open(pdf) as doc:
        mpage = doc[0]
        words = mpage.get_text("words")
        page = Page(page_info(mpage), zoom=zoom, x=17, y=230)
        assert words
        for w in words[::5]:
            want = pymupdf.Rect(w[:4]) * mpage.rotation_matrix * zoom
            got = page.map_rect(w[:4])
            assert got.x() == pytest.approx(want.x0 + 17, abs=1e-3)
            assert got.y() == pytest.approx(want.y0 + 230, abs=1e-3)
            assert got.width() == pytest.approx(want.width, abs=1e-3)
            assert got.height() == pytest.approx(want.height, abs=1e-3)
        # The page box in words space maps onto exactly the painted page rect.
        box = page.transform().mapRect(page.words_box())
        assert box.x() == pytest.approx(17) and box.y() == pytest.approx(230)
        assert box.width() == pytest.approx(mpage.rect.width * zoom)
        assert box.height() == pytest.approx(mpage.rect.height * zoom)


def test_offset_shifts_by_scroll() -> None:
    page = Page(PageInfo(0, 612, 792, 0, (1, 0, 0, 1, 0, 0)), zoom=2.0, x=10, y=20)
    r = page.map_rect((100, 100, 200, 110), QPointF(-5, -300))
    assert (r.x(), r.y(), r.width(), r.height()) == (205, -80, 200, 20)


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_point_round_trip(tmp_path: Path, rotation: int) -> None:
    pdf = text_pdf(tmp_path / "t.pdf", pages=1, rotation=rotation)
    page = Page(infos(pdf)[0], zoom=1.7, x=3, y=40)
    p = QPointF(123.25, 456.5)
    back = page.point_to_words(page.transform().map(p))
    assert back.x() == pytest.approx(p.x()) and back.y() == pytest.approx(p.y())


@pytest.mark.parametrize("width,dpr", [(612, 1.0), (612, 2.0), (595.2, 1.25)])
def test_device_size_matches_pymupdf_pixmap(tmp_path: Path, width: float, dpr: float) -> None:
    pdf = text_pdf(tmp_path / "t.pdf", pages=1, size=(width, 792))
    with pymupdf.open(pdf) as doc:
        for zoom in (0.5, 1.0, 1.25, 1.3333, 2.0):
            page = Page(page_info(doc[0]), zoom=zoom)
            pix = doc[0].get_pixmap(matrix=pymupdf.Matrix(zoom * dpr, zoom * dpr))
            assert page.device_size(dpr) == (pix.width, pix.height)


def mixed_infos(n: int) -> list[PageInfo]:
    sizes = [(612, 792), (842, 595), (595, 842), (300, 400)]
    return [PageInfo(i, *sizes[i % len(sizes)], 0, (1, 0, 0, 1, 0, 0)) for i in range(n)]


@given(w=st.integers(200, 4000), h=st.integers(150, 3000), n=st.integers(1, 12),
       mode=st.sampled_from([ZoomMode.FIT_WIDTH, ZoomMode.FIT_PAGE]))
@settings(max_examples=80, deadline=None)
def test_fit_modes_fit(w: int, h: int, n: int, mode: ZoomMode) -> None:
    lay = Layout(mixed_infos(n))
    lay.mode = mode
    lay.update(w, h)
    for page in lay.pages:
        if lay.zoom > MIN_ZOOM:
            assert page.x >= MARGIN - 1 and page.x + page.width <= lay.width - MARGIN + 1
    if lay.zoom > MIN_ZOOM:
        assert lay.width == w  # never wider than the viewport: no horizontal scrolling
    if mode is ZoomMode.FIT_PAGE and lay.zoom > MIN_ZOOM:
        assert all(p.height <= h - 2 * MARGIN + 1e-6 for p in lay.pages)


@given(n=st.integers(1, 30), zoom=st.floats(MIN_ZOOM, MAX_ZOOM),
       top=st.floats(-500, 30000), height=st.floats(1, 3000))
@settings(max_examples=80, deadline=None)
def test_pages_in_is_exactly_the_intersecting_pages(n: int, zoom: float, top: float,
                                                    height: float) -> None:
    lay = Layout(mixed_infos(n))
    lay.set_zoom(zoom)
    lay.update(900, 700)
    rect = QRectF(0, top, 900, height)
    got = [p.index for p in lay.pages_in(rect)]
    # sharing some of its height (one page a row: across does not count); touching an
    # edge is not intersecting, as QRectF.intersects has it
    want = [p.index for p in lay.pages
            if p.y < rect.bottom() and p.y + p.height > rect.top()]
    assert got == want
    # Pages are stacked top to bottom, whole pixels apart, never overlapping.
    for a, b in zip(lay.pages, lay.pages[1:], strict=False):
        assert b.y >= a.y + a.height + GAP - 1
        assert isinstance(b.y, int) and isinstance(b.x, int)


def test_page_at_picks_nearest_in_gaps() -> None:
    lay = Layout(mixed_infos(3))
    lay.set_zoom(1.0)
    lay.update(900, 700)
    p0, p1 = lay.pages[0], lay.pages[1]
    assert lay.page_at(p0.y + 5) is p0
    assert lay.page_at(p0.y + p0.height + 1) is p0
    assert lay.page_at(p1.y - 1) is p1
    assert lay.page_at(-100) is p0
    assert lay.page_at(10**7) is lay.pages[-1]


def test_clamp_zoom() -> None:
    assert clamp_zoom(100) == MAX_ZOOM and clamp_zoom(0) == MIN_ZOOM
    assert clamp_zoom(1.23456) == 1.2346
    assert clamp_zoom(1.23459, down=True) == 1.2345


@given(w=st.integers(1, 9000), h=st.integers(1, 9000))
@settings(max_examples=200, deadline=None)
def test_tile_grid_covers_the_image_once(w: int, h: int) -> None:
    tiles = tile_grid(w, h)
    assert sum(tw * th for _, _, tw, th in tiles) == w * h
    assert all(0 < tw <= MAX_TILE and 0 < th <= MAX_TILE for _, _, tw, th in tiles)
    assert all(x + tw <= w and y + th <= h for x, y, tw, th in tiles)
    if w <= MAX_TILE and h <= MAX_TILE:
        assert tiles == [(0, 0, w, h)]
    cols = {x for x, _, _, _ in tiles}
    assert len(tiles) == len(cols) * math.ceil(h / max(th for _, _, _, th in tiles))


@pytest.mark.parametrize("facing", [False, True])
def test_a_page_shown_from_its_top_shows_nothing_of_the_row_before(facing: bool) -> None:
    lay = Layout(mixed_infos(7), facing=facing)
    lay.set_zoom(1.0)
    lay.update(1400, 700)
    first = lay.pages[0].y
    for page in lay.pages:
        top = lay.top_of(page.index)
        if page.y == first:  # the first row: the whole margin above it in view
            assert top == first - MARGIN == 0
            continue
        assert top == page.y - GAP
        view = QRectF(0, top, lay.width, 700)
        shown = lay.pages_in(view)
        assert shown and shown[0].y == page.y  # its row first, none of the row before
        assert all(p.y + p.height <= top for p in lay.pages if p.y < page.y)
