"""A quote against the text found for it, word by word: what is the same and what differs.

This is the containment rule behind a green badge. A quote *is* the found text when every
one of its atoms (folded alphanumeric runs) is found there: words the quote dropped are
fine (a quote may be a subset), words it has that the found text lacks are differences.
Matching is order-free, so a form read label → value still agrees, but a negation counts
only where it stands in the quoted order: "not" taken from another clause of the
passage does not make an inserted "not" the same. A negation the found text holds and
the quote leaves out is a difference too.

Known extraction variants are not differences (:mod:`matcher.variants`): a line-end
hyphen kept on one side and joined on the other, a split superscript, and, on OCR pages,
a misread word. Numbers compare by their digit groups: ``$1,650`` is ``$1 650`` (the
glyph between groups is typography) but not ``$1650`` nor ``$16.50``.

The same function serves both levels — a quote against the words under a page
highlight, and against the raw text of a fuzzy chunk span — and the detail pane's
word-level diff, so what a reader sees can never disagree with the badge.

>>> d = diff_quote("the premium is $952.18 a year", "The premium is $925.18 a year")
>>> [(x.kind, x.quote, x.page) for x in d.differences]
[('number', '$952.18', '$925.18')]
>>> describe(d.differences)
'the quote says $952.18; the page says $925.18'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .alignment import MAX_INSIDE_GAP, Opcode, Side, align, has_digit
from .negation import NEGATIONS, is_negation
from .vocabulary import DifferenceKind

__all__ = ["MAX_INSIDE_GAP", "NEGATIONS", "DiffToken", "Difference", "QuoteDiff", "bare",
           "describe", "diff_quote", "is_negation"]

# "same": found on the other side; "differs": a quote word not in the found text, or the
# found word it stands against; "dropped": a found word the quote leaves out.
TokenOp = Literal["same", "differs", "dropped"]

# Characters kept at the edges of a word when it is named in a difference: a currency
# or a percent sign is part of the figure ("$952.18", "15%"); other punctuation is not.
_KEEP_AT_EDGES = frozenset("$€£¥%")
# At most this many differences are spelled out in a reason; the rest are counted.
MAX_DESCRIBED = 3


@dataclass(frozen=True, slots=True)
class Difference:
    """A word of the quote the found text does not hold, or a negation the quote drops.

    ``quote`` is the quote's word (None when the quote leaves out a negation the found
    text holds); ``page`` the found word it stands against, when there is one.
    """

    kind: DifferenceKind
    quote: str | None
    page: str | None

    def as_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "quote": self.quote, "page": self.page}


@dataclass(frozen=True, slots=True)
class DiffToken:
    """One word of the quote or of the found text, and how it compares.

    ``against`` is, for a word that differs, the word on the other side it stands
    against (None when there is none); ``kind`` says what kind of difference it is.
    Punctuation alone (no letter or digit) is never a difference.
    """

    text: str
    op: TokenOp
    against: str | None = None
    kind: DifferenceKind | None = None
    line: int = 0  # the found line it stands on (0 for the quote's words)


@dataclass(frozen=True, slots=True)
class QuoteDiff:
    """The quote's words, the found words, and the differences, in reading order."""

    quote: tuple[DiffToken, ...]
    found: tuple[DiffToken, ...]
    differences: tuple[Difference, ...]
    # The share of the quote's atoms found in the quoted order (difflib's matching
    # blocks): what tells "Part 1, Section 2" from a page header "Part 2, Section 1".
    in_order: float = 1.0
    # Whether the quote's atoms stand in one unbroken stretch of the found text.
    verbatim: bool = False

    @property
    def contained(self) -> bool:
        """Whether every quoted word is in the found text (and no negation is dropped)."""
        return not self.differences


def diff_quote(quote: str, found: str | Sequence[str], *, ocr: bool = False) -> QuoteDiff:
    """Compare ``quote`` with ``found``: the highlighted lines, or a chunk's matched text.

    ``found`` is a text, or its lines (each found token then says its ``line``); words
    are what white space separates. Every quote word is looked for in it
    (:func:`matcher.alignment.align`); found words the quote does not use are
    ``dropped`` (a negation among them, inside the stretch the quote was found in, is a
    difference). ``ocr`` admits OCR misreadings on the found side. Quadratic in the
    number of atoms at worst (difflib's alignment).
    """
    q, p = Side(quote), Side(found)
    a = align(q, p, ocr=ocr)
    if not a.opcodes:
        diff = _assemble(q, p, [], {})  # the quote stands whole in the found text
        return QuoteDiff(diff.quote, diff.found, diff.differences, verbatim=True)
    # A negation matched only out of the quoted order stands in another clause: it does
    # not make the quote's own negation the same (its found atom stays taken, so the one
    # difference is not reported twice). A word matched out of order where the found
    # text has another at its place was changed there (alignment's "displaced").
    # Two words swapped with each other both stand in the found text, each at the
    # other's place: each stands against the word at its own (alignment's "swapped").
    misplaced = a.misplaced
    differing = sorted({q.owner[i] for i, j in enumerate(q.match) if j is None}
                       | misplaced | a.displaced.keys() | a.swapped.keys())
    against = dict(a.displaced) | a.swapped
    against |= _pair(q, p, [w for w in differing if w not in against], a.opcodes, misplaced,
                     used=set(against.values()))
    # A word the quote says twice where the page says it once ("Relationship to
    # applicant" before two values) is the same, as long as no other page word stands
    # where the quote repeats it ("shown below … shown below" for "… shown above").
    differing = [w for w in differing
                 if w in against or w in misplaced or not _repeats(q, p, w)]
    diff = _assemble(q, p, differing, against)
    return QuoteDiff(diff.quote, diff.found, diff.differences, a.in_order)


def _repeats(q: Side, p: Side, w: int) -> bool:
    """Whether quote word ``w`` is a word (no figure, no negation) the found text holds."""
    word = q.words[w]
    if has_digit(word) or is_negation(word):
        return False
    have = set(p.atoms)
    return all(a in have for a, o in zip(q.atoms, q.owner, strict=True) if o == w)


def _pair(q: Side, p: Side, differing: Sequence[int], opcodes: Sequence[Opcode],
          misplaced: frozenset[int], *, used: set[int]) -> dict[int, int]:
    """For each differing quote word, the page word it stands against (by word index).

    The candidates are the page words with an unmatched atom inside a stretch of the
    alignment that holds one of the quote word's atoms ("$952.18" stands where the page
    prints "$925.18"); a figure is paired with a figure when the stretch holds one.
    """
    block_of = [0] * len(q.atoms)
    for k, (_, i1, i2, _, _) in enumerate(opcodes):
        for i in range(i1, i2):
            block_of[i] = k
    words: dict[int, list[int]] = {}  # quote word → its alignment stretches, in order
    for i, w in enumerate(q.owner):
        if w in differing and w not in misplaced and opcodes[block_of[i]][0] != "equal":
            words.setdefault(w, [])
            if block_of[i] not in words[w]:
                words[w].append(block_of[i])
    out: dict[int, int] = {}
    for w in differing:
        digit = has_digit(q.words[w])
        for k in words.get(w, ()):
            _, i1, _, j1, j2 = opcodes[k]
            free = [c for c in dict.fromkeys(p.owner[j] for j in range(j1, j2)
                                             if p.match[j] is None) if c not in used]
            if i1 == 0:
                free.reverse()  # at the quote's start only the word after anchors it
            if not free and digit:
                # A figure whose atoms the alignment shared out ("11/14/2015" against
                # "09/11/2015": "11" and "2015" each a block) stands against the figure
                # beside its stretch that has an atom left unmatched ("09").
                loose = {p.owner[j] for j, m in enumerate(p.match) if m is None}
                free = [c for c in dict.fromkeys(p.owner[j] for j in (j1 - 1, j2)
                                                 if 0 <= j < len(p.atoms))
                        if c in loose and c not in used and has_digit(p.words[c])]
            if free:
                c = next((c for c in free if has_digit(p.words[c]) == digit), free[0])
                out[w] = c
                used.add(c)
                break
    return out


def _assemble(q: Side, p: Side, differing: Sequence[int], against: dict[int, int]
              ) -> QuoteDiff:
    diffs: list[Difference] = []
    qtokens: list[DiffToken] = []
    kinds: dict[int, DifferenceKind] = {}
    for w, text in enumerate(q.words):
        if w not in differing:
            qtokens.append(DiffToken(text, "same"))
            continue
        other = p.words[against[w]] if w in against else None
        kind = _kind(text, other)
        if w in against:
            kinds[against[w]] = kind
        qtokens.append(DiffToken(text, "differs", other, kind))
        diffs.append(Difference(kind, bare(text), None if other is None else bare(other)))
    matched_page = {p.owner[j] for j, m in enumerate(p.match) if m is not None}
    inside = _skipped_inside(q, p)
    has_atoms = set(p.owner)
    ptokens: list[DiffToken] = []
    paired = {v: k for k, v in against.items()}
    for w, text in enumerate(p.words):
        line = p.line[w]
        if w in paired:
            ptokens.append(DiffToken(text, "differs", q.words[paired[w]], kinds[w], line))
        elif w in matched_page or w not in has_atoms:
            ptokens.append(DiffToken(text, "same", line=line))
        elif w in inside and is_negation(text):
            ptokens.append(DiffToken(text, "dropped", None, "negation", line))
            diffs.append(Difference("negation", None, bare(text)))
        else:
            ptokens.append(DiffToken(text, "dropped", line=line))
    return QuoteDiff(tuple(qtokens), tuple(ptokens), tuple(diffs))


def _skipped_inside(q: Side, p: Side) -> set[int]:
    """Found words the quote steps over between two of its neighbouring words.

    A negation among them changes what the quote says ("does cover" for "does not
    cover", also across a line break); the words between two places an assembled quote
    joins are further apart than MAX_INSIDE_GAP and are not part of it.
    """
    inside: set[int] = set()
    for i in range(len(q.atoms) - 1):
        a, b = q.match[i], q.match[i + 1]
        if a is not None and b is not None and 1 < b - a <= MAX_INSIDE_GAP + 1:
            inside.update(p.owner[j] for j in range(a + 1, b))
    return inside


def _kind(word: str, other: str | None) -> DifferenceKind:
    if is_negation(word) or (other is not None and is_negation(other)):
        return "negation"
    if has_digit(word) or (other is not None and has_digit(other)):
        return "number"
    return "word"


def bare(word: str) -> str:
    """``word`` without the punctuation around it, a currency or percent sign kept."""
    start, end = 0, len(word)
    while start < end and not (word[start].isalnum() or word[start] in _KEEP_AT_EDGES):
        start += 1
    while end > start and not (word[end - 1].isalnum() or word[end - 1] in _KEEP_AT_EDGES):
        end -= 1
    return word[start:end] or word


def describe(differences: Sequence[Difference], *, where: str = "page") -> str:
    """The differences in words, for a reason a person reads; ``where`` names the other side.

    >>> describe([Difference("negation", "not", None), Difference("word", "shorter", "longer")])
    "the quote says 'not', which the page does not; the quote says shorter; the page says longer"
    """
    parts: list[str] = []
    for d in differences[:MAX_DESCRIBED]:
        if d.quote is None:
            parts.append(f"the {where} says {d.page!r}, which the quote leaves out")
        elif d.page is None:
            parts.append(f"the quote says {d.quote!r}, which the {where} does not")
        else:
            parts.append(f"the quote says {d.quote}; the {where} says {d.page}")
    rest = len(differences) - MAX_DESCRIBED
    if rest > 0:
        parts.append(f"and {rest} more difference{'s' if rest > 1 else ''}")
    return "; ".join(parts)
