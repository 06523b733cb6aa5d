"""Selecting words: points snap to whole words, reading order decides what lies between,
one rectangle per line. On made-up pages (Hypothesis) and on a real PDF's words as the
check process sends them, checked against PyMuPDF's own word boxes."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from hypothesis import given
from hypothesis import strategies as st

from viewer.checker.page_words import PageWordReader
from viewer.state.selection import PageWordBoxes, WordBox, distance_to, select, union, word_at

from .helpers import text_pdf


@st.composite
def pages(draw: st.DrawFn) -> PageWordBoxes:
    """Lines of words left to right, lines top to bottom, no two boxes overlapping."""
    lines = draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
    words = []
    for n, count in enumerate(lines):
        x = draw(st.floats(0, 50))
        for k in range(count):
            width = draw(st.floats(5, 40))
            words.append(WordBox(f"w{n}.{k}", (x, 20.0 * n, x + width, 20.0 * n + 10), n))
            x += width + draw(st.floats(2, 10))
    return PageWordBoxes(0, tuple(words))


def centre(word: WordBox) -> tuple[float, float]:
    x0, y0, x1, y1 = word.rect
    return (x0 + x1) / 2, (y0 + y1) / 2


@given(pages(), st.data())
def test_a_drag_selects_the_words_between_its_ends_in_reading_order(
        page: PageWordBoxes, data: st.DataObject) -> None:
    n = len(page.words)
    a = data.draw(st.integers(0, n - 1))
    f = data.draw(st.integers(0, n - 1))
    sel = select(page, centre(page.words[a]), centre(page.words[f]))
    assert sel is not None
    assert sel.words() == page.words[min(a, f):max(a, f) + 1]
    # Dragging backwards selects the same words.
    back = select(page, centre(page.words[f]), centre(page.words[a]))
    assert back is not None and back.words() == sel.words()
    # One rectangle per line touched, each the union of that line's selected boxes.
    lines = sorted({w.line for w in sel.words()})
    rects = sel.line_rects()
    assert len(rects) == len(lines)
    for line, rect in zip(lines, rects, strict=True):
        assert rect == union(w.rect for w in sel.words() if w.line == line)
    assert sel.text().split() == [w.text for w in sel.words()]
    assert sel.text().count("\n") == len(lines) - 1


@given(pages(), st.floats(-100, 400), st.floats(-100, 200))
def test_a_point_snaps_to_the_nearest_word(page: PageWordBoxes, x: float, y: float) -> None:
    i = word_at(page, (x, y))
    assert i is not None
    best = distance_to(page.words[i].rect, (x, y))
    assert all(distance_to(w.rect, (x, y)) >= best for w in page.words)


def test_no_words_no_selection() -> None:
    assert select(PageWordBoxes(3, ()), (1, 1), (5, 5)) is None


def pymupdf_lines(pdf: Path, page: int) -> list[list[tuple[float, ...]]]:
    with pymupdf.open(pdf) as doc:
        words = doc[page].get_text("words")
    lines: dict[tuple[int, int], list[tuple[float, ...]]] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(tuple(w[:4]))
    return list(lines.values())


def test_real_words_select_to_pymupdfs_line_boxes(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "p.pdf", pages=2, rotation=90)
    reader = PageWordReader()
    try:
        page = reader.words(pdf, 1)
    finally:
        reader.close()
    expected = pymupdf_lines(pdf, 1)
    assert [w.rect for w in page.words] == [tuple(map(float, r)) for line in expected
                                            for r in line]
    # From the third word of line 5 to the second word of line 8 (the heading is line 0).
    starts = [sum(len(line) for line in expected[:k]) for k in range(len(expected))]
    a, f = starts[5] + 2, starts[8] + 1
    sel = select(page, centre(page.words[a]), centre(page.words[f]))
    assert sel is not None
    want = [expected[5][2:], expected[6], expected[7], expected[8][:2]]
    assert list(sel.line_rects()) == [union(line) for line in want]  # type: ignore[arg-type]
