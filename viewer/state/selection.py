"""Selecting words on a page by dragging: the page's own word boxes in, whole words out.

The check process sends a page's words (:class:`PageWordBoxes`: each word's text, its box
in words space and the index of its line, in reading order). A drag gives two points in
the same space, where the button went down (the *anchor*) and where the pointer is now
(the *focus*); each snaps to a word, and every word between the two in reading order is
selected, as in any text editor. The selection becomes one rectangle per line, in words
space, and its text. Nothing here knows about pixels, zoom or rotation: the page view
maps the pointer to words space through the page's own transform before calling in.

Relocating a quote uses it; so can copying selected text.

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


@dataclass(frozen=True, slots=True)
class WordBox:
    """One word of a page: its text, its box (words space) and its line's index."""

    text: str
    rect: Rect
    line: int  # lines are numbered in reading order


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

    def text(self) -> str:
        """The selected words, a space between words and a newline between lines."""
        return "\n".join(" ".join(w.text for w in line) for line in self.lines())


def union(rects: Iterable[Rect]) -> Rect:
    """The smallest rectangle holding every rectangle of an iterable (at least one)."""
    items = list(rects)
    return (min(r[0] for r in items), min(r[1] for r in items),
            max(r[2] for r in items), max(r[3] for r in items))


def select(page: PageWordBoxes, anchor: Point, focus: Point) -> WordSelection | None:
    """The words from the one at (or nearest) ``anchor`` to the one at (or nearest)
    ``focus``, in reading order; None on a page without words."""
    a = word_at(page, anchor)
    f = word_at(page, focus)
    if a is None or f is None:
        return None
    return WordSelection(page, a, f)
