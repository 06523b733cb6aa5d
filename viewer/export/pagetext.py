"""A page's own text around a highlight: which words it covers, and what stands before
and after them (for W3C TextQuoteSelectors), and which way each text line runs.

The page text is the page's words as citeview reads them (the text layer's, or the OCR
boxes stored for a scanned page) in reading order with one space between words — the
same words the matcher placed the quote on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from matcher.reading import line_words_text
from matcher.vocabulary import Rect
from matcher.words import PageWords

from .geometry import Direction, displayed, snap_direction, union

# How far (points) a word's centre may lie outside a highlight rectangle and still count
# as under it: rectangles are the words' own boxes, so only rounding needs room.
SLACK_PT = 1.0
# Characters of context kept before and after a quote (as hypothesis and other W3C
# annotation clients do, 32 tells copies of boilerplate apart on a page).
CONTEXT_CHARS = 32


@dataclass(frozen=True, slots=True)
class QuoteContext:
    """A run of page words under a highlight: the text, what precedes and follows it on
    the page, and the words' boxes (words space)."""

    exact: str
    prefix: str
    suffix: str
    boxes: tuple[Rect, ...]


def words_under(words: PageWords, rects: Iterable[Rect]) -> list[int]:
    """Indexes (reading order) of the words whose centre lies in one of ``rects``."""
    rs = [(r[0] - SLACK_PT, r[1] - SLACK_PT, r[2] + SLACK_PT, r[3] + SLACK_PT) for r in rects]
    picked = []
    for i, w in enumerate(words.words):
        cx, cy = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2
        if any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in rs):
            picked.append(i)
    return picked


def reading_order(words: PageWords) -> list[int]:
    """Word indexes line by line, in the order the page's lines are read."""
    return [i for line in words.lines for i in line.words]


def page_texts(words: PageWords) -> list[str]:
    """The visible text of each word in :func:`reading_order`, as the page prints it
    (:func:`matcher.reading.line_words_text`, line by line: what ``found_text`` reads)."""
    return [t for line in words.lines for t in line_words_text(words, line.words)]


def quote_contexts(words: PageWords, rects: Sequence[Rect]) -> list[QuoteContext]:
    """Each unbroken run of page words under ``rects``, with its context; several runs
    when the highlight is assembled from places apart in reading order."""
    order = reading_order(words)
    picked = set(words_under(words, rects))
    shown = page_texts(words)
    starts: list[int] = []
    text_parts: list[str] = []
    pos = 0
    for t in shown:
        starts.append(pos)
        if t:  # a word of invisible characters only takes no room, not even a space
            text_parts.append(t)
            pos += len(t) + 1
    text = " ".join(text_parts)
    runs: list[list[int]] = []
    for k, i in enumerate(order):
        if i in picked:
            if runs and runs[-1][-1] == k - 1:
                runs[-1].append(k)
            else:
                runs.append([k])
    out = []
    for run in runs:
        a = starts[run[0]]
        b = starts[run[-1]] + len(shown[run[-1]])
        out.append(QuoteContext(text[a:b].strip(), text[max(0, a - CONTEXT_CHARS):a].lstrip(),
                                text[b:b + CONTEXT_CHARS].rstrip(),
                                tuple(words.words[order[k]].rect for k in run)))
    return out


def line_directions(page: Any) -> list[tuple[Rect, Direction]]:
    """Every text line of a PyMuPDF page: its box (words space) and the way it runs."""
    lines = []
    for block in page.get_text("dict", flags=0).get("blocks", ()):
        for line in block.get("lines", ()):
            dx, dy = line.get("dir", (1.0, 0.0))
            lines.append((tuple(line["bbox"]), snap_direction(dx, dy)))
    return lines


@dataclass(frozen=True, slots=True)
class Selection:
    """What a highlight covers on its page: the words under it in reading order, each
    unbroken run of them with its context, and where they are on the displayed page."""

    found_text: str
    runs: tuple[QuoteContext, ...]
    shown: tuple[Rect, ...]  # each run's box on the page as displayed (rotated)


def select(words: PageWords, rects: Sequence[Rect],
           rotation_matrix: tuple[float, float, float, float, float, float]) -> Selection:
    """The selection ``rects`` make on a page whose words are ``words``."""
    runs = quote_contexts(words, rects)
    shown = tuple(displayed(union(run.boxes), rotation_matrix) for run in runs)
    return Selection(" ".join(run.exact for run in runs), tuple(runs), shown)
