"""Where rectangles go: quads along the text, the displayed page, the picture's crop."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.simplepdf import write_pdf
from viewer.export.geometry import (
    around,
    direction_at,
    displayed,
    line_quad,
    upright_direction,
)
from viewer.export.pagetext import line_directions

DIRECTIONS = [(1, 0), (0, -1), (-1, 0), (0, 1)]
coord = st.floats(0, 800, allow_nan=False)


@st.composite
def rects(draw: st.DrawFn) -> tuple[float, float, float, float]:
    x0, y0 = draw(coord), draw(coord)
    return (x0, y0, x0 + draw(st.floats(1, 300)), y0 + draw(st.floats(1, 300)))


@given(rects(), st.sampled_from(DIRECTIONS))
def test_a_quad_is_the_rectangle_ordered_along_the_text(rect: tuple[float, ...],
                                                        direction: tuple[int, int]) -> None:
    ul, ur, ll, lr = line_quad(rect, direction)  # type: ignore[arg-type]
    xs, ys = {ul[0], ur[0], ll[0], lr[0]}, {ul[1], ur[1], ll[1], lr[1]}
    assert (min(xs), min(ys), max(xs), max(ys)) == rect
    # Upper left to upper right runs with the text ...
    along = (ur[0] - ul[0], ur[1] - ul[1])
    assert along[0] * direction[0] > 0 or along[1] * direction[1] > 0
    assert along[0] * direction[1] == 0 and along[1] * direction[0] == 0
    # ... and upper left to lower left runs down the letters: the text direction turned
    # a quarter clockwise (y points down).
    down = (ll[0] - ul[0], ll[1] - ul[1])
    turned = (-direction[1], direction[0])
    assert down[0] * turned[0] >= 0 and down[1] * turned[1] >= 0
    assert (lr[0] - ll[0], lr[1] - ll[1]) == along


def test_upright_text_runs_as_the_corpus_pages_say(corpus: Path) -> None:
    """Each page of this file is turned by another angle, its text upright as shown."""
    with pymupdf.open(corpus / "rotated_all_four_angles.pdf") as doc:
        for page in doc:
            lines = line_directions(page)
            assert lines and {d for _, d in lines} == {upright_direction(page.rotation)}
            rect = lines[0][0]
            assert direction_at(rect, lines, (9, 9)) == upright_direction(page.rotation)
            assert direction_at((-50, -50, -40, -40), lines, (9, 9)) == (9, 9)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("cropped", [False, True])
def test_displayed_agrees_with_pymupdf(tmp_path: Path, rotation: int, cropped: bool) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", [[("x", 72, 72)]], rotation=rotation)
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        if cropped:
            page.set_cropbox(pymupdf.Rect(30, 50, 500, 700))
        matrix = tuple(page.rotation_matrix)

        @settings(max_examples=60)
        @given(rects())
        def check(rect: tuple[float, float, float, float]) -> None:
            want = pymupdf.Rect(rect) * page.rotation_matrix
            assert displayed(rect, matrix) == pytest.approx(tuple(want), abs=1e-3)  # MuPDF: float32

        check()


@given(rects(), st.floats(0, 60), st.floats(0, 60), st.floats(0, 600))
def test_a_crop_stays_on_the_page_and_holds_the_highlight(
        rect: tuple[float, float, float, float], mx: float, my: float, width: float) -> None:
    bounds = (0.0, 0.0, 612.0, 792.0)
    inside = (max(rect[0], 0), max(rect[1], 0), min(rect[2], 612), min(rect[3], 792))
    got = around(rect, margin_x=mx, margin_y=my, min_width=width, bounds=bounds)
    assert bounds[0] <= got[0] <= got[2] <= bounds[2]
    assert bounds[1] <= got[1] <= got[3] <= bounds[3]
    if inside[0] < inside[2] and inside[1] < inside[3]:
        assert got[0] <= inside[0] and got[2] >= inside[2]
        assert got[1] <= inside[1] and got[3] >= inside[3]
        assert got[2] - got[0] >= min(width, 612.0) - 1e-6 or got[2] - got[0] >= 612 - 1e-6
