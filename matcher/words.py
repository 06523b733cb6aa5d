"""A page's words with their boxes, grouped into lines: the only geometry the matcher trusts.

All boxes are PDF points in PyMuPDF's ``get_text("words")`` space: the *unrotated* page,
origin at the top-left of the page's CropBox. Text-layer words and stored OCR boxes both
arrive here through :meth:`PageWords.from_raw`, so placement never knows which it has.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from .normalize import atoms as split_atoms

Rect = tuple[float, float, float, float]
WordSource = Literal["text", "ocr"]
# (x0, y0, x1, y1, text, block_no, line_no, word_no): PyMuPDF's word tuple layout.
RawWord = tuple[float, float, float, float, str, int, int, int]


@dataclass(frozen=True, slots=True)
class Word:
    """One word on the page and the index of the line it belongs to."""

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


@dataclass(frozen=True, slots=True)
class Atom:
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
            x0, y0, x1, y1, text = (float(item[0]), float(item[1]), float(item[2]),  # type: ignore[arg-type]
                                    float(item[3]), str(item[4]))  # type: ignore[arg-type]
            if not text.strip() or x1 < x0 or y1 < y0:
                continue
            key = (int(item[5]), int(item[6]))  # type: ignore[call-overload]
            groups.setdefault(key, []).append((x0, y0, x1, y1, text))

        directions = [_direction(ws) for ws in groups.values()]
        votes = [d for d in directions if d is not None]
        page_vertical = sum(votes) * 2 > len(votes) if votes else False

        words: list[Word] = []
        lines: list[Line] = []
        for ws, vertical in zip(groups.values(), directions, strict=True):
            line_no = len(lines)
            first = len(words)
            for x0, y0, x1, y1, text in ws:
                words.append(Word(x0, y0, x1, y1, text, line_no))
            bbox = (min(w[0] for w in ws), min(w[1] for w in ws),
                    max(w[2] for w in ws), max(w[3] for w in ws))
            lines.append(Line(tuple(range(first, len(words))),
                              page_vertical if vertical is None else vertical, bbox,
                              _skewed(ws)))
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
        for line in self.lines:
            if line.skewed:
                continue  # a highlight over a diagonal line would cover half the page
            for pos, wi in enumerate(line.words):
                word = self.words[wi]
                parts = split_atoms(word.text)
                if not parts:
                    continue
                if carry is not None:
                    if pos == 0 and word.text[:1].islower():
                        out.append(Atom(carry.text + parts[0], (*carry.words, wi)))
                        parts = parts[1:]
                    else:
                        out.append(carry)
                    carry = None
                last = len(parts) - 1
                for k, part in enumerate(parts):
                    hyphen_end = (k == last and pos == len(line.words) - 1
                                  and word.text.rstrip().endswith(("-", "\u00ad", "\u2010")))
                    atom = Atom(part, (wi,))
                    if hyphen_end:
                        carry = atom
                    else:
                        out.append(atom)
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

    def text(self) -> str:
        """The page's words joined line by line (for display and debugging)."""
        return "\n".join(" ".join(self.words[i].text for i in ln.words) for ln in self.lines)


def _direction(ws: Sequence[tuple[float, float, float, float, str]]) -> bool | None:
    """Guess whether a line's text runs vertically; ``None`` when one word cannot tell."""
    if len(ws) >= 2:
        cx = [(w[0] + w[2]) / 2 for w in ws]
        cy = [(w[1] + w[3]) / 2 for w in ws]
        return (max(cy) - min(cy)) > (max(cx) - min(cx))
    x0, y0, x1, y1, text = ws[0]
    if len(text) >= 3:
        return (y1 - y0) > 1.5 * (x1 - x0)
    return None


# A line whose word centres spread across the reading direction by more than this share
# of their spread along it is set at an angle.
SKEW_SHARE = 0.25


def _skewed(ws: Sequence[tuple[float, float, float, float, str]]) -> bool:
    """Whether a line runs diagonally (its words climb as they advance)."""
    if len(ws) < 2:
        return False
    cx = [(w[0] + w[2]) / 2 for w in ws]
    cy = [(w[1] + w[3]) / 2 for w in ws]
    dx, dy = max(cx) - min(cx), max(cy) - min(cy)
    height = min(min(w[3] - w[1], w[2] - w[0]) for w in ws)
    if min(dx, dy) <= max(SKEW_SHARE * max(dx, dy), 2 * height):
        return False
    # Set at an angle, every word moves the same way in x and in y; a formula's
    # sub- and superscripts go up and down.
    steps = list(zip(cx, cx[1:], cy, cy[1:], strict=False))
    return len({(x1 > x0, y1 > y0) for x0, x1, y0, y1 in steps}) == 1
