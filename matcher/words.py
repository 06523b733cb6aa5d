"""A page's words with their boxes, grouped into lines: the only geometry the matcher trusts.

All boxes are PDF points in PyMuPDF's ``get_text("words")`` space: the *unrotated* page,
origin at the top-left of the page's CropBox. Text-layer words and stored OCR boxes both
arrive here through :meth:`PageWords.from_raw`, so placement never knows which it has.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, NamedTuple, TypeVar

from .normalize import atoms as split_atoms
from .packedwords import PackedWords
from .vocabulary import Rect

WordSource = Literal["text", "ocr"]
# (x0, y0, x1, y1, text, block_no, line_no, word_no): PyMuPDF's word tuple layout.
K = TypeVar("K")
RawWord = tuple[float, float, float, float, str, int, int, int]


class Word(NamedTuple):
    """One word on the page and the index of the line it belongs to.

    A named tuple rather than a frozen dataclass: a page has hundreds of words and
    building them is on the path of every cold placement.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    line: int

    @property
    def rect(self) -> Rect:
        return (self.x0, self.y0, self.x1, self.y1)


class Line(NamedTuple):
    """Words printed as one line, in reading order; ``vertical`` when text runs up/down.

    A named tuple, like :class:`Word`, because building a page's lines is on the path of
    every cold placement.
    """

    words: tuple[int, ...]
    vertical: bool
    bbox: Rect
    skewed: bool = False  # set at an angle: no axis-aligned box fits the whole line
    # An angled line that is a watermark (large type, or printed more than once at an
    # angle): not text of the page, so it yields no atoms.
    watermark: bool = False

    @property
    def thickness(self) -> float:
        """Extent across the reading direction (the height of horizontal text)."""
        x0, y0, x1, y1 = self.bbox
        return (x1 - x0) if self.vertical else (y1 - y0)

    def along(self) -> tuple[float, float]:
        """Interval covered along the reading direction."""
        x0, y0, x1, y1 = self.bbox
        return (y0, y1) if self.vertical else (x0, x1)

    def across(self) -> tuple[float, float]:
        """Interval covered across the reading direction (where the "next line" lies)."""
        x0, y0, x1, y1 = self.bbox
        return (x0, x1) if self.vertical else (y0, y1)


# A word ending in one of these at the end of a line may continue on the next.
_HYPHENS = ("-", "\u00ad", "\u2010")


class Atom(NamedTuple):
    """A folded alphanumeric unit of text and the word(s) it was read from."""

    text: str
    words: tuple[int, ...]


class _AtomTable(NamedTuple):
    """The page's atoms as columns: text, word(s), the line of the first word."""

    texts: tuple[str, ...]
    words: tuple[tuple[int, ...], ...]
    lines: tuple[int, ...]


@dataclass(frozen=True)
class PageWords:
    """Words and lines of one page (0-based ``number``), from a text layer or OCR."""

    number: int
    words: tuple[Word, ...]
    lines: tuple[Line, ...]
    source: WordSource = "text"
    meta: dict[str, object] = field(default_factory=dict, compare=False)

    @classmethod
    def from_raw(
        cls,
        number: int,
        raw: Iterable[Sequence[object]] | PackedWords,
        *,
        source: WordSource = "text",
        meta: dict[str, object] | None = None,
    ) -> PageWords:
        """Build from PyMuPDF-style word tuples ``(x0, y0, x1, y1, text, block, line, word)``
        (or those tuples packed, :mod:`matcher.packedwords`: read as columns, unpacked never).

        Words sharing ``(block, line)`` form one line; lines keep the order of their
        first appearance, which is reading order for PyMuPDF and tesseract alike.
        Boxes turned inside out and words without visible text are dropped.
        """
        page = _Columns(raw)
        shapes = page.lines()
        votes = [v for _, _, v, _, _ in shapes if v is not None]
        page_vertical = sum(votes) * 2 > len(votes) if votes else False
        marks = page.watermarks(shapes)

        line_of: list[int] = []
        lines: list[Line] = []
        for k, (a, b, vertical, skewed, bbox) in enumerate(shapes):
            line_of += itertools.repeat(len(lines), b - a)
            row = (tuple(range(a, b)), page_vertical if vertical is None else vertical, bbox,
                   skewed, k in marks)
            lines.append(tuple.__new__(Line, row))  # as for words below
        # tuple.__new__ builds each named tuple from its six fields in C, skipping Word's
        # Python-level __new__: a third of the cost of a word.
        rows = zip(page.x0, page.y0, page.x1, page.y1, page.text, line_of, strict=True)
        words = tuple(map(tuple.__new__, itertools.repeat(Word), rows))
        return cls(number, words, tuple(lines), source, dict(meta or {}))

    @cached_property
    def atoms(self) -> tuple[Atom, ...]:
        """All atoms of the page in reading order, hyphenated line breaks joined.

        A line ending in ``sub-`` followed by a line starting ``scription`` yields one atom
        ``subscription`` that points at both words, so a quote that reads the word whole
        still finds it, and its highlight covers both halves.
        """
        table = self._atom_table
        # tuple.__new__ skips Atom's Python-level __new__, as for words.
        rows = zip(table.texts, table.words, strict=True)
        return tuple(map(tuple.__new__, itertools.repeat(Atom), rows))

    @cached_property
    def _atom_table(self) -> _AtomTable:
        """The atoms in reading order as columns: text, word(s), line of the first word.

        On the path of every cold placement: one Python step per word, the usual word
        (letters and digits only, no hyphen carried in) taking the shortest.
        """
        texts: list[str] = []
        owners: list[tuple[int, ...]] = []
        lines: list[int] = []
        carry: tuple[str, tuple[int, ...], int] | None = None  # the atom of a line-end "sub-"
        words = self.words
        solo = _solo(len(words))
        for line in self.lines:
            if line.watermark:
                continue  # not the page's text (and a highlight over it would cover half)
            first, last = line.words[0], line.words[-1]
            for wi in line.words:
                word = words[wi]
                text = word.text
                if carry is None and text.isascii() and text.isalnum():
                    # One run of [A-Za-z0-9], the usual word: its one atom is the word
                    # lowered (what split_atoms says, for a fraction of its cost).
                    texts.append(text.lower())
                    owners.append(solo[wi])
                    lines.append(word.line)
                    continue
                parts = split_atoms(text)
                if not parts:
                    continue
                if carry is not None:
                    head, own, ln = carry
                    if wi == first and text[:1].islower():
                        head, own = head + parts[0], (*own, wi)
                        del parts[0]
                    texts.append(head)
                    owners.append(own)
                    lines.append(ln)
                    carry = None
                if len(parts) == 1:  # most words
                    texts.append(parts[0])
                    owners.append(solo[wi])
                    lines.append(word.line)
                else:
                    texts += parts
                    owners += [solo[wi]] * len(parts)
                    lines += [word.line] * len(parts)
                if wi == last and parts and text.rstrip().endswith(_HYPHENS):
                    carry = texts.pop(), owners.pop(), lines.pop()  # may join the next line
        if carry is not None:
            texts.append(carry[0])
            owners.append(carry[1])
            lines.append(carry[2])
        return _AtomTable(tuple(texts), tuple(owners), tuple(lines))

    @cached_property
    def atom_counts(self) -> dict[str, int]:
        """How often each atom occurs on the page (the basis of rarity weights)."""
        return dict(Counter(self.atom_texts))

    @cached_property
    def atom_texts(self) -> tuple[str, ...]:
        """The text of each atom, in reading order (for fast sequence comparisons)."""
        return self._atom_table.texts

    @cached_property
    def atom_lines(self) -> tuple[int, ...]:
        """For each atom, the line of its first word."""
        return self._atom_table.lines

    @cached_property
    def line_atoms(self) -> dict[int, list[int]]:
        """Atom positions grouped by the line of their first word."""
        return _positions(self.atom_lines)

    @cached_property
    def atom_positions(self) -> dict[str, list[int]]:
        """Where each atom occurs (positions in :attr:`atoms`)."""
        return _positions(self.atom_texts)

    def text(self) -> str:
        """The page's words joined line by line (for display and debugging)."""
        return "\n".join(" ".join(self.words[i].text for i in ln.words) for ln in self.lines)


# (i,) for word i, shared by every page: most atoms belong to one word, and building
# these tuples afresh adds hundreds of objects per page for the garbage collector to
# trace, a cost as large as building them. Pages of more words get their own.
_SOLO: tuple[tuple[int], ...] = ()
_SOLO_MAX = 1 << 14


def _solo(n: int) -> tuple[tuple[int], ...]:
    """``((0,), (1,), …)`` for at least ``n`` words (grown by replacing, so thread-safe)."""
    global _SOLO
    solo = _SOLO
    if len(solo) < n:
        solo = tuple(zip(range(max(n, min(2 * len(solo), _SOLO_MAX)))))
        if n <= _SOLO_MAX:
            _SOLO = solo
    return solo


def _positions(keys: Sequence[K]) -> dict[K, list[int]]:
    """For each distinct key, the positions where it occurs, in order."""
    out: dict[K, list[int]] = {}
    for pos, key in enumerate(keys):
        if key in out:  # cheaper than setdefault, which builds a list every time
            out[key].append(pos)
        else:
            out[key] = [pos]
    return out


# Words further apart along a line than this many line heights belong to separate
# fields or columns (OCR often reads a form row as one line): they become two lines,
# so no highlight rectangle spans the gap between them.
COLUMN_GAP_HEIGHTS = 3.0
# A line whose word centres spread across the reading direction by more than this share
# of their spread along it is set at an angle.
SKEW_SHARE = 0.25
# An angled line is a watermark when its type is at least this many times the height of
# the page's level lines ("COPY" across the page), or when its text is printed at an
# angle more than once; a real line set at an angle (a rotated caption) is text.
WATERMARK_SIZE = 1.8
# Letters are about this share of their type size wide, on average: an angled line's
# length over its letters gives its type size.
LETTER_WIDTH = 0.5


class _Columns:
    """A page's usable words as columns, each line's words side by side.

    A line is then a range of positions and each of its measures a slice and one
    C-level ``min`` or ``max``: a Python step per word costs about as much as
    extracting the words from the PDF.
    """

    def __init__(self, raw: Iterable[Sequence[object]] | PackedWords) -> None:
        fields: list[tuple[Any, ...]] = (raw.columns() if isinstance(raw, PackedWords) else
                                         list(zip(*raw, strict=False)))[:7] or [()] * 7
        x0, y0, x1, y1 = (tuple(map(float, c)) for c in fields[:4])
        text = tuple(map(str, fields[4]))
        keys = fields[5:7]  # block_no, line_no
        picked: list[int] | None = None  # the words kept, in their new order
        if any(map(operator.lt, x1, x0)) or any(map(operator.lt, y1, y0)) or \
                not all(map(str.strip, text)):
            picked = [i for i in range(len(text))
                      if not (x1[i] < x0[i] or y1[i] < y0[i]) and text[i].strip()]
            keys = [tuple(k[i] for i in picked) for k in keys]
        runs = _runs(zip(*keys, strict=True))
        if len({key for key, _ in runs}) < len(runs):
            # A line met again after another line: its words join its first ones.
            # (Rare; a stable sort keeps each line's words in the order they came.)
            first: dict[object, int] = {}
            for key, _ in runs:
                first.setdefault(key, len(first))
            line_keys = list(zip(*keys, strict=True))
            order = sorted(range(len(line_keys)), key=lambda i: first[line_keys[i]])
            picked = order if picked is None else [picked[i] for i in order]
            runs = _runs(line_keys[i] for i in order)
        if picked is not None:
            x0, y0, x1, y1 = (tuple(c[i] for i in picked) for c in (x0, y0, x1, y1))
            text = tuple(text[i] for i in picked)
        self.x0, self.y0, self.x1, self.y1, self.text = x0, y0, x1, y1, text
        self.lengths = [n for _, n in runs]
        self.height = tuple(map(operator.sub, y1, y0))
        self.gap = tuple(map(operator.sub, x0[1:], x1))  # gap[i]: word i's end to i+1's start

    def lines(self) -> list[tuple[int, int, bool | None, bool, Rect]]:
        """Each line as ``(start, end, vertical, skewed, bbox)``, in reading order.

        A ``(block, line)`` group is cut where consecutive words stand a column gap apart.
        ``vertical`` is None when one short word cannot tell; ``skewed`` when the line is
        set diagonally (its words climb as they advance).
        """
        out: list[tuple[int, int, bool | None, bool, Rect]] = []
        end = 0
        for n in self.lengths:
            start, end = end, end + n
            left, right = min(self.x0[start:end]), max(self.x1[start:end])
            if n > 1:
                height = max(self.height[start:end])
                limit = COLUMN_GAP_HEIGHTS * height
                # Narrower than two line heights: vertical or one short group, never cut.
                if not right - left < height * 2 and self._gap_over(start, end, limit):
                    cuts = [i for i, gap in enumerate(self.gap[start:end - 1], start + 1)
                            if gap > limit]
                    for a, b in itertools.pairwise([start, *cuts, end]):
                        bounds = min(self.x0[a:b]), max(self.x1[a:b])
                        out.append((a, b, *self._shape(a, b, *bounds)))
                    continue
            out.append((start, end, *self._shape(start, end, left, right)))
        return out

    def watermarks(self, shapes: Sequence[tuple[int, int, bool | None, bool, Rect]]
                   ) -> set[int]:
        """Indices of the angled lines among ``shapes`` that are watermarks (see
        WATERMARK_SIZE): large type, or the same text at an angle more than once."""
        angled = [k for k, shape in enumerate(shapes) if shape[3]]
        if not angled:
            return set()
        level = sorted(min(x1 - x0, y1 - y0) if v is None else (x1 - x0 if v else y1 - y0)
                       for _, _, v, skew, (x0, y0, x1, y1) in shapes if not skew)
        usual = level[len(level) // 2] if level else math.inf
        texts = [" ".join(self.text[a:b]) for a, b, *_ in shapes]
        seen = Counter(texts[k] for k in angled)
        return {k for k in angled
                if seen[texts[k]] > 1 or self._type_size(*shapes[k][:2]) >= WATERMARK_SIZE * usual}

    def _type_size(self, start: int, end: int) -> float:
        """The type size of the angled words ``start…end``, from their length and letters."""
        x0, y0, x1, y1 = self.x0, self.y0, self.x1, self.y1
        first, last = start, end - 1

        def centre(i: int) -> tuple[float, float]:
            return (x0[i] + x1[i]) / 2, (y0[i] + y1[i]) / 2

        (ax, ay), (bx, by) = centre(first), centre(last)
        ends = (math.hypot(x1[first] - x0[first], y1[first] - y0[first]) +
                math.hypot(x1[last] - x0[last], y1[last] - y0[last])) / 2
        letters = sum(map(len, self.text[start:end])) + (end - start - 1)
        return (math.hypot(bx - ax, by - ay) + ends) / (LETTER_WIDTH * max(letters, 1))

    def _gap_over(self, start: int, end: int, limit: float) -> bool:
        """Whether some gap between the words ``start…end`` may exceed ``limit``."""
        widest = max(self.gap[start:end - 1])
        return widest > limit or widest != widest  # NaN: max() looked no further

    def _shape(self, start: int, end: int, x0: float, x1: float
               ) -> tuple[bool | None, bool, Rect]:
        """Direction, skew and box of the words ``start…end`` (``x0``, ``x1``: their extent)."""
        y0, y1 = min(self.y0[start:end]), max(self.y1[start:end])
        bbox = (x0, y0, x1, y1)
        if end - start == 1:
            return ((y1 - y0) > 1.5 * (x1 - x0) if len(self.text[start]) >= 3 else None), \
                False, bbox
        # Most lines are level: settle those without a pass over their words. Below, dx and
        # dy are the spreads of the doubled word centres; dy is at most twice the box's
        # height, and dx at least the distance between the first and the last centre
        # (rounding keeps both bounds). A line flat by these bounds passes the exact tests
        # below as horizontal and straight, SKEW_SHARE being under 1; a NaN fails this one.
        last, first = end - 1, start
        dx_least = abs((self.x0[last] + self.x1[last]) - (self.x0[first] + self.x1[first]))
        if 2 * (y1 - y0) <= SKEW_SHARE * dx_least:
            return False, False, bbox
        cx = tuple(map(operator.add, self.x0[start:end], self.x1[start:end]))
        cy = tuple(map(operator.add, self.y0[start:end], self.y1[start:end]))
        dx, dy = max(cx) - min(cx), max(cy) - min(cy)
        vertical = dy > dx
        spread = SKEW_SHARE * max(dx, dy)
        if min(dx, dy) <= spread:
            return vertical, False, bbox  # max(spread, …) below is at least spread
        # Twice the thinnest word: min(height, width), the lesser taken word by word.
        height = 2 * min(map(min, self.height[start:end],
                             map(operator.sub, self.x1[start:end], self.x0[start:end])))
        if min(dx, dy) <= max(spread, 2 * height):
            return vertical, False, bbox
        # Set at an angle, every word moves the same way in x and in y; a formula's
        # sub- and superscripts go up and down.
        steps = {(b > a, d > c) for a, b, c, d in zip(cx, cx[1:], cy, cy[1:], strict=False)}
        return vertical, len(steps) == 1, bbox


def _runs(keys: Iterable[object]) -> list[tuple[object, int]]:
    """Each run of equal consecutive keys, as ``(key, length)``."""
    return [(key, len(list(group))) for key, group in itertools.groupby(keys)]
