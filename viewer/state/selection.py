"""Selecting words on a page by dragging: the page's own word boxes in, whole words out.

The check process sends a page's words (:class:`PageWordBoxes`: each word's text, its box
in words space and the index of its line, in reading order). A drag gives two points in
the same space, where the button went down (the *anchor*) and where the pointer is now
(the *focus*); each snaps to a word, and every word between the two in reading order is
selected, as in any text editor. The selection becomes one rectangle per line, in words
space, and its text. Nothing here knows about pixels, zoom or rotation: the page view
maps the pointer to words space through the page's own transform before calling in.

A double click selects one word and a triple click a line: the same two points, with
the selection widened to whole lines (``unit="line"``). Relocating a quote and copying
text from the page both select this way.

>>> page = PageWordBoxes(0, (WordBox("Total", (10, 10, 40, 20), 0),
...                          WordBox("premium", (45, 10, 90, 20), 0),
...                          WordBox("$2,189.95", (10, 30, 60, 40), 1)))
>>> sel = select(page, (12, 15), (30, 35))
>>> sel.text()
'Total premium\\n$2,189.95'
>>> sel.line_rects()
((10, 10, 90, 20), (10, 30, 60, 40))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from matcher.vocabulary import Rect

Point = tuple[float, float]  # words space, PDF points
WordSource = Literal["text", "ocr"]
Unit = Literal["word", "line"]  # what a selection's ends snap to


@dataclass(frozen=True, slots=True)
class WordBox:
    """One word of a page: its text, its box (words space), its line's index and its
    row's: a row is what a reader sees as one line across the page (a table's cells of
    one row are lines of their own, each one rectangle, in one row of copied text)."""

    text: str
    rect: Rect
    line: int  # lines are numbered in reading order
    row: int | None = None  # None: the row is the line


@dataclass(frozen=True, slots=True)
class PageWordBoxes:
    """A page's words in reading order (0-based ``page``), from its text layer or OCR."""

    page: int
    words: tuple[WordBox, ...]
    source: WordSource = "text"


def distance_to(rect: Rect, point: Point) -> float:
    """How far ``point`` lies outside ``rect`` (0 inside or on its edge), in points."""
    x0, y0, x1, y1 = rect
    x, y = point
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return float((dx * dx + dy * dy) ** 0.5)


def word_at(page: PageWordBoxes, point: Point) -> int | None:
    """The index of the word under ``point``, else of the nearest word; None on a page
    without words. Of words at the same distance, the first in reading order wins."""
    best: int | None = None
    best_d = float("inf")
    for i, word in enumerate(page.words):
        d = distance_to(word.rect, point)
        if d < best_d:
            best, best_d = i, d
            if d == 0.0:
                break
    return best


@dataclass(frozen=True, slots=True)
class WordSelection:
    """Whole words of one page from ``anchor`` to ``focus`` (word indices, either order)."""

    page: PageWordBoxes
    anchor: int
    focus: int

    @property
    def first(self) -> int:
        return min(self.anchor, self.focus)

    @property
    def last(self) -> int:
        return max(self.anchor, self.focus)

    def words(self) -> tuple[WordBox, ...]:
        """The selected words in reading order."""
        return self.page.words[self.first:self.last + 1]

    def lines(self) -> list[list[WordBox]]:
        """The selected words grouped by line, lines in reading order."""
        out: list[list[WordBox]] = []
        for word in self.words():
            if out and out[-1][0].line == word.line:
                out[-1].append(word)
            else:
                out.append([word])
        return out

    def line_rects(self) -> tuple[Rect, ...]:
        """One rectangle per line: the union of that line's selected word boxes."""
        return tuple(union(w.rect for w in line) for line in self.lines())

    def rows(self) -> list[list[WordBox]]:
        """The selected words grouped by row (see :class:`WordBox`), in reading order."""
        out: list[list[WordBox]] = []
        for word in self.words():
            if out and _row(out[-1][0]) == _row(word):
                out[-1].append(word)
            else:
                out.append([word])
        return out

    def text(self) -> str:
        """The selected words, a space between words and a newline between rows."""
        return "\n".join(" ".join(w.text for w in row) for row in self.rows())


def _row(word: WordBox) -> tuple[str, int]:
    return ("line", word.line) if word.row is None else ("row", word.row)


def union(rects: Iterable[Rect]) -> Rect:
    """The smallest rectangle holding every rectangle of an iterable (at least one)."""
    items = list(rects)
    return (min(r[0] for r in items), min(r[1] for r in items),
            max(r[2] for r in items), max(r[3] for r in items))


def select(page: PageWordBoxes, anchor: Point, focus: Point, *, unit: Unit = "word"
           ) -> WordSelection | None:
    """The words from the one at (or nearest) ``anchor`` to the one at (or nearest)
    ``focus``, in reading order, widened to whole lines when ``unit`` is ``"line"``;
    None on a page without words.

    >>> page = PageWordBoxes(0, (WordBox("a", (0, 0, 5, 5), 0), WordBox("b", (9, 0, 14, 5), 0),
    ...                          WordBox("c", (0, 9, 5, 14), 1)))
    >>> select(page, (10, 2), (10, 2), unit="line").text()
    'a b'
    """
    a = word_at(page, anchor)
    f = word_at(page, focus)
    if a is None or f is None:
        return None
    if unit == "line":
        lo, hi = line_span(page, min(a, f))[0], line_span(page, max(a, f))[1]
        a, f = (lo, hi) if a <= f else (hi, lo)
    return WordSelection(page, a, f)


def line_span(page: PageWordBoxes, index: int) -> tuple[int, int]:
    """The first and last word index of the row word ``index`` stands on (a row's
    words are neighbours in reading order)."""
    row = _row(page.words[index])
    lo = hi = index
    while lo > 0 and _row(page.words[lo - 1]) == row:
        lo -= 1
    while hi + 1 < len(page.words) and _row(page.words[hi + 1]) == row:
        hi += 1
    return lo, hi


def select_all(page: PageWordBoxes) -> WordSelection | None:
    """Every word of the page; None on a page without words."""
    return WordSelection(page, 0, len(page.words) - 1) if page.words else None
