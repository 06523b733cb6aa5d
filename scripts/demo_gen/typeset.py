"""Set text on PDF pages as real printed lines: fonts, wrapping with hyphenation, flowing frames.

Text is written through :class:`pymupdf.TextWriter` with MuPDF's built-in Base-14 fonts rather
than ``page.insert_text``: the latter encodes Base-14 text as Latin-1, so ’, — and ﬁ reach the
text layer as "·". A TextWriter embeds the same faces with a Unicode map (subset on save), so the
typography of a real form survives extraction and no system font file is needed.

Every coordinate here is a PDF point on an unrotated page with its origin at the top-left, i.e.
the space of ``page.get_text("words")``; the rectangle returned for a piece of text is the box
MuPDF reports for it (``x, baseline - ascender, x + width, baseline - descender``).
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal

import pymupdf

Rect = tuple[float, float, float, float]
Color = tuple[float, float, float]
Align = Literal["left", "right", "centre"]

LETTER = (612.0, 792.0)
BLACK: Color = (0.0, 0.0, 0.0)
NAVY: Color = (0.09, 0.20, 0.40)
GREY: Color = (0.38, 0.38, 0.38)
RULE: Color = (0.45, 0.45, 0.45)
SHADE: Color = (0.90, 0.92, 0.95)

# Ligatures substituted in body text when a paragraph asks for them; Times and Helvetica have
# both glyphs. "ffi" is left as f + ﬁ, which is what most typesetters emit without ﬃ.
LIGATURES = (("fi", "\ufb01"), ("fl", "\ufb02"))

# A word is broken at the end of a line only at these syllable points, and only if at least
# this many letters stay on each side (a lone "a-" or "-ly" reads as a typo, not hyphenation).
# Never before "fi"/"fl": in ligated text the next line would start with "ﬁ", which
# the chunk-text repair (``join_line_hyphens``) does not treat as a lowercase letter.
MIN_HYPHEN_HEAD = 2
MIN_HYPHEN_TAIL = 3
_SYLLABLES = """
    ac-ci-den-tal ac-cu-mu-la-tion ac-knowl-edge ac-knowl-edg-es ad-di-tion-al
    ad-min-is-ter ad-min-is-tra-tive ad-verse am-phib-i-ous an-nu-al ap-pli-ca-tion ap-pli-cant
    ap-prais-al ap-prais-er as-sign-ment au-tho-rize au-tho-rized au-tho-ri-za-tion
    bac-te-ria ben-e-fi-ciary ben-e-fits can-cel-la-tion cir-cum-stance cir-cum-stanc-es
    com-mence-ment com-pa-ny com-pen-sa-tion com-pe-tent com-plet-ed com-plete-ly com-pli-ance
    con-ceal-ment con-ceals con-cern-ing con-di-tions con-nect-ed con-se-quence
    con-sec-u-tive con-sid-er-a-tion con-struc-tion con-sum-er con-tin-u-ous-ly con-trib-utes
    cor-ro-sion cor-rect-ly cov-er-age crim-i-nal dec-la-ra-tions de-duct-i-ble de-pre-ci-a-tion
    de-scrip-tion de-struc-tion de-te-ri-o-ra-tion de-ter-mi-na-tion dis-charge dis-con-tin-ued
    dis-cov-ery do-mes-tic dwell-ing ef-fec-tive el-i-gi-bil-i-ty el-i-gi-ble em-ploy-ment
    en-force-ment es-ti-mates ex-am-i-na-tion ex-clu-sions ex-pens-es fraud-u-lent
    hos-pi-tal-ized house-hold im-me-di-ate-ly im-par-tial in-cep-tion in-clud-ing
    in-for-ma-tion in-stall-ment in-stall-ments in-sur-ance in-sured in-sur-rec-tion
    in-ten-tion-al in-ter-ests in-un-da-tion in-ven-to-ry in-ves-ti-ga-tion knowl-edge
    li-a-bil-i-ty li-censed ma-li-cious ma-te-ri-al ma-te-ri-al-ly me-chan-i-cal med-i-ca-tion
    mil-i-tary mis-lead-ing mis-rep-re-sent-ed mis-rep-re-sen-ta-tion mod-i-fi-ca-tion
    mort-gag-ee no-ti-fi-ca-tion non-pay-ment oc-cu-pan-cy oc-cu-pa-tion oc-cur-rence
    orig-i-nal oth-er-wise own-er-ship pen-al-ties per-mis-sion per-son-al phar-ma-cy
    pho-to-copy phy-si-cian pol-i-cy prac-ti-tion-er pre-mi-ums prem-is-es pre-scribed
    pre-scrip-tion pro-ceed-ings prop-er-ty rea-son-able re-bel-lion re-ceiv-ing re-cord-ed
    re-cov-ery reg-u-lates rein-state-ment re-place-ment rep-re-sen-ta-tive re-quire-ments
    res-i-dence re-spon-si-ble rev-o-lu-tion sig-na-ture spe-cif-i-cal-ly spec-i-fi-ca-tions
    state-ments struc-tures sub-mis-sion sub-scrip-tion sub-se-quent sub-si-dence sub-stan-tial
    sus-pend-ed tran-script un-der-stand un-der-writ-ing va-can-cy vol-ca-nic wide-spread
"""


def _break_points(spec: str) -> dict[str, tuple[int, ...]]:
    table: dict[str, tuple[int, ...]] = {}
    for entry in spec.split():
        parts = entry.split("-")
        cuts, at = [], 0
        for part in parts[:-1]:
            at += len(part)
            cuts.append(at)
        table["".join(parts)] = tuple(cuts)
    return table


HYPHENATION: dict[str, tuple[int, ...]] = _break_points(_SYLLABLES)


@cache
def font(face: str) -> pymupdf.Font:
    """The built-in Base-14 font for a PyMuPDF short name (``tiro``, ``hebo``, ``cour``…)."""
    return pymupdf.Font(face)


@cache
def _advance(face: str, ch: str) -> float:
    return float(font(face).glyph_advance(ord(ch)))


def text_width(text: str, face: str, size: float) -> float:
    """Advance width of ``text`` set in ``face`` at ``size`` points (no kerning, as MuPDF sets it).

    Per-character advances are cached: ``Font.text_length`` re-encodes every character on
    every call, which made wrapping the slowest part of drawing a page.
    """
    return size * sum(_advance(face, ch) for ch in text)


def ligate(text: str) -> str:
    """Replace letter pairs by their ligature characters, as a typesetter's output carries them."""
    for pair, glyph in LIGATURES:
        text = text.replace(pair, glyph)
    return text


def _word_core(word: str) -> tuple[int, int]:
    """Start and end of the letters of ``word`` (leading/trailing punctuation excluded)."""
    start, end = 0, len(word)
    while start < end and not word[start].isalpha():
        start += 1
    while end > start and not word[end - 1].isalpha():
        end -= 1
    return start, end


@dataclass(frozen=True, slots=True)
class WrappedLine:
    """One output line; ``hyphen`` when the wrapper broke a word and added the trailing "-"."""

    text: str
    hyphen: bool = False


def wrap(
    text: str,
    width: float,
    *,
    face: str,
    size: float,
    first_indent: float = 0.0,
    hyphenate: bool = True,
    ligatures: bool = False,
) -> list[WrappedLine]:
    """Break ``text`` greedily into lines no wider than ``width`` (the first ``first_indent`` less).

    A word that does not fit is split at the last syllable point of :data:`HYPHENATION` that
    still fits, as print does; a word wider than a whole line is set alone, overhanging.

    >>> [ln.text for ln in wrap("the coverage applies", 45, face="tiro", size=10)]
    ['the cover-', 'age applies']

    Linear in the number of words times the syllables of a broken word.
    """
    def measure(s: str) -> float:
        return text_width(ligate(s) if ligatures else s, face, size)

    lines: list[WrappedLine] = []
    pending = deque(text.split())
    current = ""
    available = width - first_indent
    while pending:
        word = pending.popleft()
        trial = f"{current} {word}" if current else word
        if measure(trial) <= available:
            current = trial
            continue
        split = _split_to_fit(current, word, available, measure) if hyphenate else None
        if split is not None:
            head, tail = split
            lines.append(WrappedLine(f"{current} {head}-" if current else f"{head}-", True))
            pending.appendleft(tail)
        elif current:
            lines.append(WrappedLine(current))
            pending.appendleft(word)
        else:
            lines.append(WrappedLine(word))
        current = ""
        available = width
    if current:
        lines.append(WrappedLine(current))
    return lines


def _split_to_fit(
    current: str, word: str, available: float, measure: Callable[[str], float]
) -> tuple[str, str] | None:
    """The longest ``(head, tail)`` syllable split of ``word`` whose ``head-`` still fits."""
    start, end = _word_core(word)
    core = unicodedata.normalize("NFKC", word[start:end]).lower()
    for cut in reversed(HYPHENATION.get(core, ())):
        if cut < MIN_HYPHEN_HEAD or len(core) - cut < MIN_HYPHEN_TAIL:
            continue
        head, tail = word[: start + cut], word[start + cut :]
        if tail.startswith(("fi", "fl")):
            continue
        if measure(f"{current} {head}-" if current else f"{head}-") <= available:
            return head, tail
    return None


class Canvas:
    """One page being drawn: shapes go straight to the page, text is batched per colour.

    Text of one colour accumulates in a TextWriter that is written out when the colour changes
    and at :meth:`close`, so the content stream keeps the order the text was set in (the order
    PyMuPDF's unsorted extraction reports) and text always lands above earlier fills.
    """

    def __init__(self, page: pymupdf.Page) -> None:
        self.page = page
        self.index: int = page.number or 0
        self._writer: pymupdf.TextWriter | None = None
        self._color: Color = BLACK

    def text(
        self, x: float, baseline: float, s: str, *, face: str = "tiro", size: float = 9.0,
        color: Color = BLACK, align: Align = "left",
    ) -> Rect:
        """Set ``s`` on ``baseline``, starting, ending or centred at ``x``; return its word box."""
        width = text_width(s, face, size)
        if align == "right":
            x -= width
        elif align == "centre":
            x -= width / 2
        if self._writer is None or color != self._color:
            self._flush()
            self._writer = pymupdf.TextWriter(self.page.rect)
            self._color = color
        f = font(face)
        self._writer.append((x, baseline), s, font=f, fontsize=size)
        return (x, baseline - f.ascender * size, x + width, baseline - f.descender * size)

    def rule(self, x0: float, y: float, x1: float, *, width: float = 0.5,
             color: Color = RULE) -> None:
        """Draw a horizontal rule."""
        self.page.draw_line((x0, y), (x1, y), color=color, width=width)

    def box(self, rect: Rect, *, width: float = 0.5, color: Color | None = RULE,
            fill: Color | None = None) -> None:
        """Draw a rectangle, stroked and/or filled."""
        self.page.draw_rect(pymupdf.Rect(rect), color=color, fill=fill, width=width)

    def close(self) -> None:
        """Write any pending text to the page."""
        self._flush()

    def _flush(self) -> None:
        if self._writer is not None:
            self._writer.write_text(self.page, color=self._color)
            self._writer = None


@dataclass(frozen=True, slots=True)
class PlacedLine:
    """A line as set: 0-based page, the text exactly as drawn, its box, and a broken last word."""

    page: int
    text: str
    rect: Rect
    baseline: float
    hyphen: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """A paragraph as set, line by line (possibly across frames and pages)."""

    lines: tuple[PlacedLine, ...]

    @property
    def text(self) -> str:
        """The paragraph read whole: lines joined by spaces, broken words rejoined."""
        out = ""
        for line in self.lines:
            out += line.text[:-1] if line.hyphen else line.text + " "
        return out.rstrip()

    @property
    def pages(self) -> tuple[int, ...]:
        """The 0-based pages the paragraph touches, in order."""
        return tuple(dict.fromkeys(line.page for line in self.lines))

    def bbox(self, page: int) -> Rect:
        """Union of the paragraph's line boxes on ``page``."""
        rects = [ln.rect for ln in self.lines if ln.page == page]
        if not rects:
            raise ValueError(f"paragraph has no line on page {page}")
        return (min(r[0] for r in rects), min(r[1] for r in rects),
                max(r[2] for r in rects), max(r[3] for r in rects))


@dataclass(frozen=True, slots=True)
class Frame:
    """A rectangle of a page that text flows down (a column, or the text block of a page)."""

    canvas: Canvas
    rect: Rect


class FrameOverflow(RuntimeError):
    """A flow ran past its last frame (a layout bug in a fixed-size form)."""


class Flow:
    """Place paragraphs line by line down a sequence of frames, moving on when one is full."""

    def __init__(self, frames: Iterator[Frame]) -> None:
        self._frames = frames
        self.frame = self._next()
        self.y = self.frame.rect[1]

    def _next(self) -> Frame:
        try:
            return next(self._frames)
        except StopIteration:
            raise FrameOverflow("text does not fit in the frames given") from None

    @property
    def width(self) -> float:
        """Width of the current frame."""
        return self.frame.rect[2] - self.frame.rect[0]

    def skip(self, dy: float) -> None:
        """Leave ``dy`` points of space (never carried over into the next frame)."""
        self.y = min(self.y + dy, self.frame.rect[3])

    def need(self, height: float) -> None:
        """Move to the next frame unless ``height`` points still fit in this one."""
        if self.y + height > self.frame.rect[3] + 0.01:
            self.frame = self._next()
            self.y = self.frame.rect[1]

    def paragraph(
        self,
        text: str,
        *,
        face: str = "tiro",
        size: float = 9.0,
        leading: float | None = None,
        color: Color = BLACK,
        lead: str | None = None,
        lead_face: str | None = None,
        indent: float = 0.0,
        right: float = 0.0,
        after: float = 4.0,
        hyphenate: bool = True,
        ligatures: bool = False,
        keep: int = 2,
    ) -> Placed:
        """Wrap and set ``text``; ``lead`` is a run-in heading set first in ``lead_face``.

        Lines start ``indent`` points into the frame and keep ``right`` points free at its end.

        ``keep`` lines are kept together at the top of a paragraph (no lone first line at the
        foot of a column). Returns every line with its page and box.
        """
        leading = leading if leading is not None else size * 1.22
        lead_face = lead_face or face
        lead_w = text_width(f"{lead} ", lead_face, size) if lead else 0.0
        wrapped = wrap(text, self.width - indent - right, face=face, size=size, first_indent=lead_w,
                       hyphenate=hyphenate, ligatures=ligatures)
        ascent = font(face).ascender * size
        self.need(leading * min(keep, len(wrapped)))
        placed: list[PlacedLine] = []
        for i, line in enumerate(wrapped):
            self.need(leading)
            x = self.frame.rect[0] + indent
            baseline = self.y + ascent
            canvas = self.frame.canvas
            drawn = ligate(line.text) if ligatures else line.text
            if i == 0 and lead:
                x0, y0, _, y1 = canvas.text(x, baseline, lead, face=lead_face, size=size,
                                            color=color)
                _, _, x1, _ = canvas.text(x + lead_w, baseline, drawn, face=face, size=size,
                                          color=color)
                rect, drawn = (x0, y0, x1, y1), f"{lead} {drawn}"
            else:
                rect = canvas.text(x, baseline, drawn, face=face, size=size, color=color)
            placed.append(PlacedLine(canvas.index, drawn, rect, baseline, line.hyphen))
            self.y += leading
        self.skip(after)
        return Placed(tuple(placed))


def new_document(*, title: str, author: str, subject: str = "") -> pymupdf.Document:
    """An empty PDF with fixed metadata (dates included), so output bytes depend only on input."""
    doc = pymupdf.open()
    doc.set_metadata({
        "title": title, "author": author, "subject": subject, "creator": "citeview",
        "producer": "citeview demo generator", "creationDate": "D:20250101000000Z",
        "modDate": "D:20250101000000Z",
    })
    return doc


def save_compact(doc: pymupdf.Document, path: str) -> None:
    """Subset the fonts and save deflated, without a fresh random file id (deterministic)."""
    doc.subset_fonts()
    doc.save(path, garbage=4, deflate=True, clean=True, use_objstms=1, no_new_id=True)
