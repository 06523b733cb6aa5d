"""A page's words with their boxes, grouped into lines: the only geometry the matcher trusts.

All boxes are PDF points in PyMuPDF's ``get_text("words")`` space: the *unrotated* page,
origin at the top-left of the page's CropBox. Text-layer words and stored OCR boxes both
arrive here through :meth:`PageWords.from_raw`, so placement never knows which it has.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, NamedTuple, TypeVar

from .normalize import ATOM_PATTERN as _ATOM
from .normalize import atoms as split_atoms

Rect = tuple[float, float, float, float]
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


@dataclass(frozen=True, slots=True)
class Line:
    """Words printed as one line, in reading order; ``vertical`` when text runs up/down."""

    words: tuple[int, ...]
    vertical: bool
    bbox: Rect
    skewed: bool = False  # set diagonally (a watermark): no axis-aligned box fits it

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


class Atom(NamedTuple):
    """A folded alphanumeric unit of text and the word(s) it was read from."""

    text: str
    words: tuple[int, ...]


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
        raw: Iterable[Sequence[object]],
        *,
        source: WordSource = "text",
        meta: dict[str, object] | None = None,
    ) -> PageWords:
        """Build from PyMuPDF-style word tuples ``(x0, y0, x1, y1, text, block, line, word)``.

        Words sharing ``(block, line)`` form one line; lines keep the order of their
        first appearance, which is reading order for PyMuPDF and tesseract alike.
        """
        groups: dict[tuple[int, int], list[tuple[float, float, float, float, str]]] = {}
        for item in raw:
            x0, y0, x1, y1, text, block, line = item[:7]
            if x1 < x0 or y1 < y0 or not text.strip():  # type: ignore[operator, attr-defined]
                continue
            groups.setdefault((block, line), []).append(  # type: ignore[arg-type]
                (float(x0), float(y0), float(x1), float(y1), str(text)))  # type: ignore[arg-type]

        pieces = [piece for ws in groups.values() for piece in _split_at_gaps(ws)]
        shapes = [_shape(ws) for ws in pieces]
        votes = [v for v, _, _ in shapes if v is not None]
        page_vertical = sum(votes) * 2 > len(votes) if votes else False

        words: list[Word] = []
        lines: list[Line] = []
        for ws, (vertical, skewed, bbox) in zip(pieces, shapes, strict=True):
            line_no = len(lines)
            first = len(words)
            words += [Word(x0, y0, x1, y1, text, line_no) for x0, y0, x1, y1, text in ws]
            lines.append(Line(tuple(range(first, len(words))),
                              page_vertical if vertical is None else vertical, bbox, skewed))
        return cls(number, tuple(words), tuple(lines), source, dict(meta or {}))

    @cached_property
    def atoms(self) -> tuple[Atom, ...]:
        """All atoms of the page in reading order, hyphenated line breaks joined.

        A line ending in ``sub-`` followed by a line starting ``scription`` yields one atom
        ``subscription`` that points at both words, so a quote that reads the word whole
        still finds it, and its highlight covers both halves.
        """
        out: list[Atom] = []
        carry: Atom | None = None
        words = self.words
        for line in self.lines:
            if line.skewed:
                continue  # a highlight over a diagonal line would cover half the page
            last_word = line.words[-1]
            for wi in line.words:
                text = words[wi].text
                parts = _ATOM.findall(text.lower()) if text.isascii() else split_atoms(text)
                if not parts:
                    continue
                if carry is not None:
                    if wi == line.words[0] and text[:1].islower():
                        out.append(Atom(carry.text + parts[0], (*carry.words, wi)))
                        del parts[0]
                    else:
                        out.append(carry)
                    carry = None
                out += [Atom(part, (wi,)) for part in parts]
                if wi == last_word and parts and \
                        text.rstrip().endswith(("-", "\u00ad", "\u2010")):
                    carry = out.pop()  # may join the first word of the next line
        if carry is not None:
            out.append(carry)
        return tuple(out)

    @cached_property
    def atom_counts(self) -> dict[str, int]:
        """How often each atom occurs on the page (the basis of rarity weights)."""
        counts: dict[str, int] = {}
        for a in self.atoms:
            counts[a.text] = counts.get(a.text, 0) + 1
        return counts

    @cached_property
    def atom_texts(self) -> tuple[str, ...]:
        """The text of each atom, in reading order (for fast sequence comparisons)."""
        return tuple(a.text for a in self.atoms)

    @cached_property
    def atom_lines(self) -> tuple[int, ...]:
        """For each atom, the line of its first word."""
        return tuple(self.words[a.words[0]].line for a in self.atoms)

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


def _positions(keys: Sequence[K]) -> dict[K, list[int]]:
    """For each distinct key, the positions where it occurs, in order."""
    out: dict[K, list[int]] = {}
    for pos, key in enumerate(keys):
        out.setdefault(key, []).append(pos)
    return out


# Words further apart along a line than this many line heights belong to separate
# fields or columns (OCR often reads a form row as one line): they become two lines,
# so no highlight rectangle spans the gap between them.
COLUMN_GAP_HEIGHTS = 3.0


def _split_at_gaps(ws: list[tuple[float, float, float, float, str]]
                   ) -> list[list[tuple[float, float, float, float, str]]]:
    """Cut a horizontal line where consecutive words stand a column gap apart."""
    if len(ws) < 2:
        return [ws]
    height = max(w[3] - w[1] for w in ws)
    if max(w[2] for w in ws) - min(w[0] for w in ws) < height * 2:
        return [ws]  # vertical or one short group: nothing to cut
    out = [[ws[0]]]
    for prev, word in itertools.pairwise(ws):
        if word[0] - prev[2] > COLUMN_GAP_HEIGHTS * height:
            out.append([])
        out[-1].append(word)
    return out


# A line whose word centres spread across the reading direction by more than this share
# of their spread along it is set at an angle.
SKEW_SHARE = 0.25


def _shape(ws: Sequence[tuple[float, float, float, float, str]]
           ) -> tuple[bool | None, bool, Rect]:
    """A line's direction (vertical? ``None`` when one short word cannot tell), whether
    it is set diagonally (its words climb as they advance), and its bounding box."""
    x0 = min(w[0] for w in ws)
    y0 = min(w[1] for w in ws)
    x1 = max(w[2] for w in ws)
    y1 = max(w[3] for w in ws)
    bbox = (x0, y0, x1, y1)
    if len(ws) == 1:
        _, wy0, _, wy1, text = ws[0]
        return ((wy1 - wy0) > 1.5 * (x1 - x0) if len(text) >= 3 else None), False, bbox
    cx = [w[0] + w[2] for w in ws]  # doubled centres: only comparisons follow
    cy = [w[1] + w[3] for w in ws]
    dx, dy = max(cx) - min(cx), max(cy) - min(cy)
    vertical = dy > dx
    height = 2 * min(min(w[3] - w[1], w[2] - w[0]) for w in ws)
    if min(dx, dy) <= max(SKEW_SHARE * max(dx, dy), 2 * height):
        return vertical, False, bbox
    # Set at an angle, every word moves the same way in x and in y; a formula's
    # sub- and superscripts go up and down.
    steps = {(b > a, d > c) for a, b, c, d in zip(cx, cx[1:], cy, cy[1:], strict=False)}
    return vertical, len(steps) == 1, bbox
