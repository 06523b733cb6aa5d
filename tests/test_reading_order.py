"""Reading order as a page is shown: rows top to bottom, words left to right as seen,
prose columns one after the other, whichever way the text runs in words space.

Pages are built in the *reading frame* (as a reader sees them, upright) and turned into
words space for each of the four ways text can run there; the lines are handed over in
a shuffled order (a PDF's stream order is anything), and what comes back must be the
frame's order. The selection over that order (:func:`viewer.state.selection.select`)
copies a row exactly when dragged from its first word to its last.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.state.reading_order import Boxed, Rect, reading_order, text_direction
from viewer.state.selection import PageWordBoxes, WordBox, select

# Words space → reading frame for text running (dx, dy) is a quarter turn; its inverse
# takes a frame rectangle back into words space.
BACK = {
    (1, 0): lambda x, y: (x, y),
    (0, -1): lambda x, y: (y, -x),
    (-1, 0): lambda x, y: (-x, -y),
    (0, 1): lambda x, y: (-y, x),
}
WAYS = sorted(BACK)
UPRIGHT_AT = {(1, 0): 0, (0, -1): 90, (-1, 0): 180, (0, 1): 270}
reached: dict[str, int] = {}


def to_words(rect: Rect, way: tuple[int, int]) -> Rect:
    ax, ay = BACK[way](rect[0], rect[1])
    bx, by = BACK[way](rect[2], rect[3])
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def grid(rows: int, cols: int, words_per_cell: int) -> list[list[list[tuple[str, Rect]]]]:
    """A table in the frame: 10-point type, rows 20 points apart, cells 160 (the gaps
    between cells wider than three line heights)."""
    out = []
    for r in range(rows):
        row = []
        for c in range(cols):
            cell = []
            for k in range(words_per_cell):
                x = 50 + c * 160 + k * 30
                cell.append((f"r{r}c{c}w{k}", (x, 100 + r * 20, x + 26, 112 + r * 20)))
            row.append(cell)
        out.append(row)
    return out


def page_of(lines: list[list[tuple[str, Rect]]], way: tuple[int, int], seed: int
            ) -> list[Boxed]:
    """The lines in words space for text running ``way``, in a shuffled order, each word
    of a line in its reading order (as a PDF lists them)."""
    order = list(range(len(lines)))
    random.Random(seed).shuffle(order)
    return [(text, to_words(rect, way), n) for n, i in enumerate(order)
            for text, rect in lines[i]]


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 12), cols=st.integers(1, 6), per=st.integers(1, 3),
       way=st.sampled_from(WAYS), seed=st.integers(0, 10**6), cells_as_lines=st.booleans())
def test_a_table_reads_row_by_row_whichever_way_its_text_runs(
        rows: int, cols: int, per: int, way: tuple[int, int], seed: int,
        cells_as_lines: bool) -> None:
    table = grid(rows, cols, per)
    # A PDF may give a row as one line (its cells far apart) or each cell as a line.
    lines = [cell for row in table for cell in row] if cells_as_lines \
        else [[w for cell in row for w in cell] for row in table]
    out = reading_order(page_of(lines, way, seed), rotation=UPRIGHT_AT[way])
    assert [t for t, *_ in out] == [t for row in table for cell in row for t, _ in cell]
    rows_seen = [row for *_, row in out]
    assert rows_seen == [r for r in range(rows) for _ in range(cols * per)]
    # One line (one selection rectangle) per cell: the gaps between cells are not spanned.
    assert len({line for _, _, line, _ in out}) == rows * cols
    reached["table"] = reached.get("table", 0) + 1


@settings(max_examples=40, deadline=None)
@given(way=st.sampled_from(WAYS), seed=st.integers(0, 10**6), left_lines=st.integers(3, 20),
       right_lines=st.integers(3, 20))
def test_two_prose_columns_read_one_after_the_other(way: tuple[int, int], seed: int,
                                                    left_lines: int, right_lines: int) -> None:
    """Lines of running text, their baselines level across the gutter: the left column
    is read down to its end before the right one starts, under a full-width title."""

    def column(x: float, n: int, name: str) -> list[list[tuple[str, Rect]]]:
        return [[(f"{name}{i}w{k}", (x + k * 28, 130 + i * 14, x + k * 28 + 24, 141 + i * 14))
                 for k in range(8)] for i in range(n)]

    title = [[(f"title{k}", (60 + k * 60, 60, 110 + k * 60, 80)) for k in range(7)]]
    left, right = column(50, left_lines, "L"), column(300, right_lines, "R")
    out = reading_order(page_of(title + left + right, way, seed), rotation=0)
    expected = [t for line in title + left + right for t, _ in line]
    assert [t for t, *_ in out] == expected
    reached["prose"] = reached.get("prose", 0) + 1


def test_the_direction_is_the_texts_and_without_lines_the_pages() -> None:
    for way in WAYS:
        boxes = page_of([[("a", (0, 0, 10, 10)), ("b", (20, 0, 30, 10))]], way, 0)
        assert text_direction(boxes, rotation=0) == way
    lone = [("alone", (0, 0, 10, 40), 0)]  # one word cannot tell: the page's /Rotate does
    assert [text_direction(lone, rotation=r) for r in (0, 90, 180, 270)] == \
        [(1, 0), (0, -1), (-1, 0), (0, 1)]
    assert reading_order([], rotation=90) == []


@settings(max_examples=40, deadline=None)
@given(way=st.sampled_from(WAYS), seed=st.integers(0, 10**6), row=st.integers(0, 7),
       data=st.data())
def test_a_drag_from_a_rows_first_word_to_its_last_copies_that_row(
        way: tuple[int, int], seed: int, row: int, data: st.DataObject) -> None:
    table = grid(8, 4, 2)
    lines = [cell for r in table for cell in r]  # each cell a line, listed shuffled
    out = reading_order(page_of(lines, way, seed), rotation=UPRIGHT_AT[way])
    page = PageWordBoxes(0, tuple(WordBox(t, rect, line, r) for t, rect, line, r in out))
    first, last = table[row][0][0], table[row][-1][-1]

    def centre(rect: Rect) -> tuple[float, float]:
        r = to_words(rect, way)
        return (r[0] + r[2]) / 2, (r[1] + r[3]) / 2

    sel = select(page, centre(first[1]), centre(last[1]))
    assert sel is not None
    assert sel.text() == " ".join(t for cell in table[row] for t, _ in cell)
    assert len(sel.line_rects()) == 4  # a rectangle a cell
    # Two rows and a bit: whole rows in between, a newline between rows.
    below = data.draw(st.integers(row, 7))
    sel = select(page, centre(table[row][1][0][1]), centre(table[below][2][1][1]))
    assert sel is not None
    assert sel.text().count("\n") == below - row
    reached["drag"] = reached.get("drag", 0) + 1


def test_the_properties_reached_their_assertions() -> None:
    """Run after the property tests above (pytest keeps the file's order)."""
    assert reached.get("table", 0) >= 30 and reached.get("prose", 0) >= 20 \
        and reached.get("drag", 0) >= 20, reached
