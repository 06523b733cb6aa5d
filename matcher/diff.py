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

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from .normalize import atoms as split_atoms
from .normalize import fold, spaceless_words
from .variants import may_join, misread_target, misreading_of
from .vocabulary import DifferenceKind

# "same": found on the other side; "differs": a quote word not in the found text, or the
# found word it stands against; "dropped": a found word the quote leaves out.
TokenOp = Literal["same", "differs", "dropped"]

# Words that negate what follows, folded (lower case, accents dropped), in the corpus's
# languages: English, German, French, Spanish, Italian, Portuguese; and the characters
# that negate in Chinese, each a word of its own there. "mai" (Italian
# "never") is left out: it is also the French month of May. Words ending in "n't" and
# French elisions ("n'est") are negations too (see is_negation).
NEGATIONS = frozenset("""
    not no never without none nor neither nobody nothing nowhere cannot non
    nicht kein keine keinen keinem keiner keines nie niemals nichts niemand nirgends
    ohne weder
    ne pas jamais sans aucun aucune ni rien nul nulle guere
    nunca jamas sin ningun ninguno ninguna nada nadie tampoco
    senza nessun nessuno nessuna niente nulla neanche nemmeno neppure
    nao sem nenhum nenhuma nem ninguem
    不 没 沒 无 無 非 未 勿 莫
""".split())
# Characters kept at the edges of a word when it is named in a difference: a currency
# or a percent sign is part of the figure ("$952.18", "15%"); other punctuation is not.
_KEEP_AT_EDGES = frozenset("$€£¥%")
# Up to this many found atoms between two neighbouring quote atoms are words the quote
# dropped from inside its passage; more, and they are the gap between two places.
MAX_INSIDE_GAP = 3
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

    @property
    def contained(self) -> bool:
        """Whether every quoted word is in the found text (and no negation is dropped)."""
        return not self.differences


class _Side:
    """One side's words and atoms: atom texts, the word each atom belongs to."""

    def __init__(self, text: str | Sequence[str]) -> None:
        lines = [text] if isinstance(text, str) else list(text)
        self.words: list[str] = []
        self.line: list[int] = []  # the line of each word
        for n, line in enumerate(lines):
            words = [part for w in line.split() for part in spaceless_words(w)]
            self.words += words
            self.line += [n] * len(words)
        self.atoms: list[str] = []
        self.owner: list[int] = []
        for k, w in enumerate(self.words):
            for a in split_atoms(w):
                self.atoms.append(a)
                self.owner.append(k)
        self.match: list[int | None] = [None] * len(self.atoms)


def diff_quote(quote: str, found: str | Sequence[str], *, ocr: bool = False) -> QuoteDiff:
    """Compare ``quote`` with ``found``: the highlighted lines, or a chunk's matched text.

    ``found`` is a text, or its lines (each found token then says its ``line``); words
    are what white space separates. Every quote word is looked for in it;
    found words the quote does not use are ``dropped`` (a negation among them, inside
    the stretch the quote was found in, is a difference). ``ocr`` admits OCR misreadings
    on the found side. Quadratic in the number of atoms at worst (difflib's alignment).
    """
    q, p = _Side(quote), _Side(found)
    whole = _stands_whole(q, p)
    if whole is not None:
        # The usual case, a verbatim quote: it stands in one stretch of the found text.
        for k in range(len(q.atoms)):
            q.match[k], p.match[whole + k] = whole + k, k
        return _assemble(q, p, [], {})
    matcher = SequenceMatcher(None, q.atoms, p.atoms, autojunk=False)
    ordered = set()
    for i, j, n in matcher.get_matching_blocks():
        for k in range(n):
            q.match[i + k], p.match[j + k] = j + k, i + k
            ordered.add(i + k)
    _match_order_free(q, p)
    _match_variants(q, p, ocr=ocr)
    _keep_figures_whole(q, p)
    # A negation matched only out of the quoted order stands in another clause: it does
    # not make the quote's own negation the same (its page atom stays taken, so the one
    # difference is not reported twice).
    misplaced = {q.owner[i] for i, j in enumerate(q.match)
                 if j is not None and i not in ordered and is_negation(q.words[q.owner[i]])}
    differing = sorted({q.owner[i] for i, j in enumerate(q.match) if j is None} | misplaced)
    against = _pair(q, p, differing, matcher.get_opcodes(), misplaced)
    # A word the quote says twice where the page says it once ("Relationship to
    # applicant" before two values) is the same, as long as no other page word stands
    # where the quote repeats it ("shown below … shown below" for "… shown above").
    differing = [w for w in differing
                 if w in against or w in misplaced or not _repeats(q, p, w)]
    in_order = len(ordered) / len(q.atoms) if q.atoms else 1.0
    return replace(_assemble(q, p, differing, against), in_order=in_order)


def _stands_whole(q: _Side, p: _Side) -> int | None:
    """Where the quote's atoms stand in one stretch of the found atoms, if they do."""
    n = len(q.atoms)
    if not n:
        return None
    first = q.atoms[0]
    for j, a in enumerate(p.atoms):
        if a == first and p.atoms[j:j + n] == q.atoms:
            return j
    return None


def _repeats(q: _Side, p: _Side, w: int) -> bool:
    """Whether quote word ``w`` is a word (no figure, no negation) the found text holds."""
    word = q.words[w]
    if _has_digit(word) or is_negation(word):
        return False
    have = set(p.atoms)
    return all(a in have for a, o in zip(q.atoms, q.owner, strict=True) if o == w)


def _match_order_free(q: _Side, p: _Side) -> None:
    """Match the remaining quote atoms to equal page atoms, nearest the aligned place."""
    free: dict[str, list[int]] = {}
    for j, a in enumerate(p.atoms):
        if p.match[j] is None:
            free.setdefault(a, []).append(j)
    last = 0  # the page position of the nearest matched quote atom before
    for i, a in enumerate(q.atoms):
        done = q.match[i]
        if done is not None:
            last = done
            continue
        spots = free.get(a)
        if not spots:
            continue
        k = bisect.bisect_left(spots, last)
        k = min((x for x in (k - 1, k) if 0 <= x < len(spots)),
                key=lambda x: abs(spots[x] - last))
        j = spots.pop(k)
        q.match[i], p.match[j] = j, i


def _match_variants(q: _Side, p: _Side, *, ocr: bool) -> None:
    """Match what is left through the known extraction variants (:mod:`matcher.variants`)."""
    pfree = {j for j, m in enumerate(p.match) if m is None}
    if not pfree:
        return
    by_text: dict[str, list[int]] = {}
    for j in sorted(pfree):
        by_text.setdefault(p.atoms[j], []).append(j)
    # Two quote atoms the page prints as one ("infor- mation" against "information").
    for i in range(len(q.atoms) - 1):
        a, b = q.atoms[i], q.atoms[i + 1]
        if q.match[i] is None and q.match[i + 1] is None and may_join(a, b):
            spots = by_text.get(a + b)
            if spots:
                j = spots.pop(0)
                q.match[i] = q.match[i + 1] = j
                p.match[j] = i
    # One quote atom the page prints as two or three ("m2" against "m" + "2").
    for i, a in enumerate(q.atoms):
        if q.match[i] is not None:
            continue
        for j in sorted(j for j in range(len(p.atoms)) if p.match[j] is None):
            parts = _split_run(p, j, a)
            if parts:
                q.match[i] = j
                for x in parts:
                    p.match[x] = i
                break
    if ocr:
        targets = [a for i, a in enumerate(q.atoms) if q.match[i] is None and misread_target(a)]
        for j, t in enumerate(p.atoms):
            if p.match[j] is not None or not targets:
                continue
            target = misreading_of(t, targets)
            if target is None:
                continue
            i = next(i for i, a in enumerate(q.atoms) if a == target and q.match[i] is None)
            q.match[i], p.match[j] = j, i
            targets.remove(target)


def _keep_figures_whole(q: _Side, p: _Side) -> None:
    """Unmatch a figure whose digit groups were found in different places.

    "01/16" is not on a page that prints "01/18" and, elsewhere, a page number "16": the
    atoms of one quoted word with a digit must stand side by side on the page.
    """
    start = 0
    while start < len(q.atoms):
        end = start
        while end < len(q.atoms) and q.owner[end] == q.owner[start]:
            end += 1
        group = q.match[start:end]
        if end - start > 1 and _has_digit(q.words[q.owner[start]]) and None not in group:
            spots = [j for j in group if j is not None]
            if any(b - a not in (0, 1) for a, b in itertools.pairwise(spots)):
                for i in range(start, end):
                    j = q.match[i]
                    if j is not None and p.match[j] == i:
                        p.match[j] = None
                    q.match[i] = None
                _match_whole(q, p, start, end)
        start = end


def _match_whole(q: _Side, p: _Side, start: int, end: int) -> None:
    """Match quote atoms ``start…end`` to as many free page atoms side by side, if any."""
    want = q.atoms[start:end]
    n = len(want)
    for j in range(len(p.atoms) - n + 1):
        if p.atoms[j:j + n] == want and all(p.match[x] is None for x in range(j, j + n)):
            for k in range(n):
                q.match[start + k], p.match[j + k] = j + k, start + k
            return


def _split_run(p: _Side, j: int, whole: str) -> list[int]:
    """Free page atoms from ``j`` on (two or three) that spell ``whole`` when joined."""
    text, parts = "", list[int]()
    for x in range(j, min(j + 3, len(p.atoms))):
        if p.match[x] is not None or (parts and not may_join(text, p.atoms[x])):
            return []
        text += p.atoms[x]
        parts.append(x)
        if len(parts) >= 2 and text == whole:
            return parts
        if not whole.startswith(text):
            return []
    return []


def _pair(q: _Side, p: _Side, differing: Sequence[int],
          opcodes: Sequence[tuple[str, int, int, int, int]], misplaced: set[int]
          ) -> dict[int, int]:
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
    used: set[int] = set()
    for w in differing:
        digit = _has_digit(q.words[w])
        for k in words.get(w, ()):
            _, i1, _, j1, j2 = opcodes[k]
            free = [c for c in dict.fromkeys(p.owner[j] for j in range(j1, j2)
                                             if p.match[j] is None) if c not in used]
            if i1 == 0:
                free.reverse()  # at the quote's start only the word after anchors it
            if free:
                c = next((c for c in free if _has_digit(p.words[c]) == digit), free[0])
                out[w] = c
                used.add(c)
                break
    return out


def _assemble(q: _Side, p: _Side, differing: Sequence[int], against: dict[int, int]
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


def _skipped_inside(q: _Side, p: _Side) -> set[int]:
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
    if _has_digit(word) or (other is not None and _has_digit(other)):
        return "number"
    return "word"


def _has_digit(word: str) -> bool:
    return any(c.isdigit() for c in word)


@lru_cache(maxsize=8192)
def is_negation(word: str) -> bool:
    """Whether ``word`` negates: "not", "never", "doesn't", "n'est", "nicht", "sin"…

    >>> [is_negation(w) for w in ("Not", "doesn\u2019t", "n'est", "keine", "note")]
    [True, True, True, True, False]
    """
    w = fold(word).text.strip("\"'()[]{}.,;:!?¿¡«»")
    if w in NEGATIONS or w.endswith("n't") or w.startswith("n'"):
        return True
    return w.startswith("non-")


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
