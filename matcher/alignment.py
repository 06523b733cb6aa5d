"""The quote's atoms matched to the found text's atoms: which stand there, where, in what order.

This is the machinery of :func:`matcher.diff.diff_quote`. Atoms are matched from the
strictest evidence to the loosest, so that a looser step cannot take what a stricter one
explains:

1. *in order*: difflib's matching blocks, the quote read along the found text;
2. *figures whole*: a figure ("$952.18", "06/19/2025": a word of two or more atoms with
   a digit) that the blocks split or left is matched as a unit, to atoms standing side by
   side ("$952.18 … $925.18" quoted against "$925.18 … $952.18": the digit group "18"
   the two share does not tie one figure to the other);
3. *order-free*: each atom left to an equal found atom, nearest the aligned place;
4. *variants*: a line-end hyphen, a split superscript, an OCR misreading
   (:mod:`matcher.variants`);
5. a figure whose atoms the looser steps found apart is unmatched ("01/16" is not a
   page holding "01/18" and a page number "16").

Then order is checked where it carries meaning. A negation matched only out of the
quoted order stands in another clause (*misplaced*). A word or figure matched out of
the quoted order, where the found text has another word or figure left over at the place
the alignment puts it, was changed (*displaced*): "Your last name and initial" against a
form's "Your first name and initial … Last name", "question 1" against "question 6" on a
page that says "questions 1 through 6" too. Two words of the quote standing each at the
other's place, every other word in the quoted order, were swapped (*swapped*): "the last
day … the first" against "the first day … the last".

>>> q, p = Side("Your last name and initial"), Side(["Your first name and initial", "Last name"])
>>> a = align(q, p)
>>> {a.q.words[w]: a.p.words[c] for w, c in a.displaced.items()}
{'last': 'first'}
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .negation import is_negation
from .normalize import atoms as split_atoms
from .normalize import spaceless_words
from .swaps import read_rotated, read_swap
from .variants import may_join, misread_target, misreading_of

# Up to this many found atoms between two neighbouring quote atoms are words the quote
# dropped from inside its passage; more, and they are the gap between two places.
MAX_INSIDE_GAP = 3
# Two swapped words are a change only with at least this many quote words between them:
# two neighbours exchanged ("Coverage A" / "A Coverage", a label beside its value) are
# as often the page's layout read another way as a changed fact.
MIN_SWAP_DISTANCE = 2
# ...and in a quote of at least this many words (fewer is no passage to read along).
MIN_SWAP_QUOTE_WORDS = 4

Opcode = tuple[str, int, int, int, int]


class Side:
    """One side's words and atoms: the atom texts, the word each belongs to, its match."""

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
        self.figure: list[bool] = []  # whether each atom's word has a digit
        for k, w in enumerate(self.words):
            digit = has_digit(w)
            for a in split_atoms(w):
                self.atoms.append(a)
                self.owner.append(k)
                self.figure.append(digit)
        self.match: list[int | None] = [None] * len(self.atoms)

    def word_atoms(self) -> list[tuple[int, int]]:
        """Each word's atoms as ``(start, end)``, for the words that have atoms."""
        return [(g[0][0], g[-1][0] + 1) for _, grp in itertools.groupby(
            enumerate(self.owner), key=lambda x: x[1]) if (g := list(grp))]


@dataclass(frozen=True, slots=True)
class Alignment:
    """The two sides with their atoms matched, and what the order says.

    ``in_order`` is the share of the quote's atoms matched in the quoted order;
    ``misplaced`` the quote's negations matched only out of it; ``displaced`` maps a
    quote word matched out of order (now unmatched) to the found word left over at its
    aligned place, which it stands against; ``swapped`` maps each of two quote words
    standing at each other's place to the found word at its own place.
    """

    q: Side
    p: Side
    opcodes: Sequence[Opcode]
    in_order: float
    misplaced: frozenset[int]
    displaced: dict[int, int]
    swapped: dict[int, int] = field(default_factory=dict)


def align(q: Side, p: Side, *, ocr: bool = False) -> Alignment:
    """Match ``q``'s atoms to ``p``'s (setting both sides' ``match``), step by step.

    ``ocr`` admits OCR misreadings on the found side. Quadratic in the number of atoms
    at worst (difflib's alignment); a quote standing whole in the found text, the usual
    case, costs one scan.
    """
    whole = _stands_whole(q, p)
    if whole is not None:
        for k in range(len(q.atoms)):
            q.match[k], p.match[whole + k] = whole + k, k
        return Alignment(q, p, (), 1.0, frozenset(), {})
    matcher = SequenceMatcher(None, q.atoms, p.atoms, autojunk=False)
    block: dict[int, int] = {}
    for i, j, n in matcher.get_matching_blocks():
        for k in range(n):
            block[i + k] = j + k
            q.match[i + k], p.match[j + k] = j + k, i + k
    figures = [(s, e) for s, e in q.word_atoms() if e - s > 1 and q.figure[s]]
    _unsplit_figures(q, p, figures)
    _match_figures(q, p, figures)
    _match_order_free(q, p)
    _match_variants(q, p, ocr=ocr)
    _keep_figures_whole(q, p, figures)
    anchors = [(i, j) for i, j in sorted(block.items()) if q.match[i] == j]
    misplaced = frozenset(q.owner[i] for i, j in enumerate(q.match)
                          if j is not None and block.get(i) != j
                          and is_negation(q.words[q.owner[i]]))
    displaced = _displaced(q, p, _reading(q, p, anchors))
    in_order = len(anchors) / len(q.atoms) if q.atoms else 1.0
    return Alignment(q, p, matcher.get_opcodes(), in_order, misplaced, displaced,
                     {} if displaced else _swapped(q, p))


def has_digit(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _stands_whole(q: Side, p: Side) -> int | None:
    """Where the quote's atoms stand in one stretch of the found atoms, if they do."""
    n = len(q.atoms)
    if not n:
        return None
    first = q.atoms[0]
    for j, a in enumerate(p.atoms):
        if a == first and p.atoms[j:j + n] == q.atoms:
            return j
    return None


def _unmatch(q: Side, p: Side, i: int) -> None:
    j = q.match[i]
    if j is not None and p.match[j] == i:
        p.match[j] = None
    q.match[i] = None


def _unsplit_figures(q: Side, p: Side, figures: Sequence[tuple[int, int]]) -> None:
    """Unmatch the atoms of each figure the blocks did not match whole and side by side."""
    for s, e in figures:
        if _side_by_side(q.match[s:e], step=(1,)):
            continue
        for i in range(s, e):
            _unmatch(q, p, i)


def _side_by_side(spots: Sequence[int | None], *, step: tuple[int, ...]) -> bool:
    """Whether every spot is matched and each follows the one before by one of ``step``
    (0 as well where two quote atoms were matched to one found atom, a variant)."""
    have = [j for j in spots if j is not None]
    return len(have) == len(spots) and all(b - a in step for a, b in itertools.pairwise(have))


def _aligned(q: Side, i: int) -> int:
    """The found position of the nearest matched quote atom before ``i`` (0 if none)."""
    for k in range(i - 1, -1, -1):
        j = q.match[k]
        if j is not None:
            return j
    return 0


def _match_figures(q: Side, p: Side, figures: Sequence[tuple[int, int]]) -> None:
    """Match each unmatched figure whole, to found atoms side by side, nearest its place.

    Found atoms matched to single-atom words of the quote may be taken (those words find
    another spot afterwards): a figure is stronger evidence than a lone "18" or "the".
    """
    for s, e in figures:
        if any(q.match[i] is not None for i in range(s, e)):
            continue
        want, n = q.atoms[s:e], e - s
        free, takable = [], []
        for j in range(len(p.atoms) - n + 1):
            if p.atoms[j:j + n] != want:
                continue
            holders = [p.match[x] for x in range(j, j + n)]
            if all(h is None for h in holders):
                free.append(j)
            elif all(h is None or _single_word(q, h) for h in holders):
                takable.append(j)
        spots = free or takable
        if not spots:
            continue
        near = _aligned(q, s)
        j = min(spots, key=lambda x: abs(x - near))
        for k in range(n):
            held = p.match[j + k]
            if held is not None:
                q.match[held] = None
            q.match[s + k], p.match[j + k] = j + k, s + k


def _single_word(q: Side, i: int) -> bool:
    """Whether quote atom ``i`` is its word's only atom, and no negation (whose place
    is evidence of its own)."""
    w = q.owner[i]
    alone = (i == 0 or q.owner[i - 1] != w) and (i + 1 == len(q.owner) or q.owner[i + 1] != w)
    return alone and not is_negation(q.words[w])


def _match_order_free(q: Side, p: Side) -> None:
    """Match the remaining quote atoms to equal found atoms, nearest the aligned place."""
    free: dict[str, list[int]] = {}
    for j, a in enumerate(p.atoms):
        if p.match[j] is None:
            free.setdefault(a, []).append(j)
    last = 0  # the found position of the nearest matched quote atom before
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
        last = j  # the next atom's place is after this one's


def _match_variants(q: Side, p: Side, *, ocr: bool) -> None:
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


def _split_run(p: Side, j: int, whole: str) -> list[int]:
    """Free found atoms from ``j`` on (two or three) that spell ``whole`` when joined."""
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


def _keep_figures_whole(q: Side, p: Side, figures: Sequence[tuple[int, int]]) -> None:
    """Unmatch a figure whose digit groups the looser steps found in different places,
    then match it whole to free found atoms side by side, if there are any."""
    for s, e in figures:
        group = q.match[s:e]
        if None in group or _side_by_side(group, step=(0, 1)):
            continue
        for i in range(s, e):
            _unmatch(q, p, i)
        want, n = q.atoms[s:e], e - s
        for j in range(len(p.atoms) - n + 1):
            if p.atoms[j:j + n] == want and all(p.match[x] is None for x in range(j, j + n)):
                for k in range(n):
                    q.match[s + k], p.match[j + k] = j + k, s + k
                break


def _kind(side: Side, atom: int) -> str | None:
    """What an atom is for the order check: a figure, a word, or neither (a negation, whose
    order is checked on its own, or a lone letter: an initial, a possessive "s")."""
    if side.figure[atom]:
        return "figure"
    if len(side.atoms[atom]) < 2 or is_negation(side.words[side.owner[atom]]):
        return None
    return "word"


def _reading(q: Side, p: Side, ordered: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The quote read in order along the found text: its *anchors* ``(atom, found atom)``.

    The reading passes through the found lines holding a run of two or more atoms matched
    in order (the lines of any such atom when there is no run); on those lines, the
    longest sequence of the quote's matches that goes forward in both is the reading. A
    lone atom matched in order on a line of its own ("1." beside a list, "Last name"
    beside a form's first-name field) is not part of it: difflib may take it in order
    before the words that stand where the quote has it.
    """
    runs: list[list[tuple[int, int]]] = []
    for i, j in ordered:
        if runs and runs[-1][-1] == (i - 1, j - 1):
            runs[-1].append((i, j))
        else:
            runs.append([(i, j)])
    long = [r for r in runs if len(r) > 1] or runs
    lines = {p.line[p.owner[j]] for r in long for _, j in r}
    matches = [(i, j) for i, j in enumerate(q.match)
               if j is not None and p.line[p.owner[j]] in lines]
    return _forward(matches)


def _forward(matches: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``matches`` (in quote order) whose found positions never
    go back (two quote atoms matched to one found atom, a variant, may share it).
    O(n log n), patience sorting."""
    tails: list[int] = []  # found position ending the best sequence of each length
    ends: list[int] = []  # index into matches of that end
    before: list[int] = [-1] * len(matches)
    for k, (_, j) in enumerate(matches):
        n = bisect.bisect_right(tails, j)
        if n:
            before[k] = ends[n - 1]
        if n == len(tails):
            tails.append(j)
            ends.append(k)
        else:
            tails[n], ends[n] = j, k
    out: list[tuple[int, int]] = []
    k = ends[-1] if ends else -1
    while k >= 0:
        out.append(matches[k])
        k = before[k]
    return out[::-1]


def _displaced(q: Side, p: Side, anchors: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Quote words matched out of order where the found text has another left over.

    Between two neighbouring anchors (the quote read in order, :func:`_reading`) the
    found text has a few atoms; those left unmatched are where the quote's atoms between
    the anchors belong. A quote word between them is a changed word that happens to
    stand elsewhere too ("Your last name" against "Your first name" and a label "Last
    name") when

    * an unmatched found atom of its kind (figure or word) stands at that place;
    * it was matched outside the passage read: on a found line the reading does not pass
      through, and the only quote word matched there (a passage's own words may be
      quoted in any order, and a word the quote repeats where it dropped another, "the
      date the the premium", takes a copy from within it);
    * it moved alone: the quote's words on either side of it stand at the place, and it
      does not stand beside them where it was matched (else it came with a piece of the
      quote read elsewhere: an assembled quote, lines taken in another order).

    It is then unmatched, and paired with that found word. A stretch holding more than
    MAX_INSIDE_GAP atoms beyond the quote's is the gap between two places of an
    assembled quote, not a place. Before the first anchor and after the last there is
    no place to speak of: the found words there are, as often as not, ones the quote
    starts or ends without (a word changed there is for placement to see, as a passage
    read along but for one word).
    """
    out: dict[int, int] = {}
    if not anchors:
        return out
    quote_atoms = set(q.atoms)
    said = Counter(q.atoms)
    first, last = anchors[0][1], anchors[-1][1]
    read = {p.line[p.owner[j]] for _, j in anchors}  # the lines the reading passes through
    quoted: dict[int, set[int]] = {}  # found line → the quote words matched on it
    for i, j in enumerate(q.match):
        if j is not None:
            quoted.setdefault(p.line[p.owner[j]], set()).add(q.owner[i])
    for (ia, ja), (ib, jb) in itertools.pairwise(anchors):
        inner = ib - ia - 1
        lo, hi = ja + 1, jb
        if inner <= 0 or hi - lo > inner + MAX_INSIDE_GAP:
            continue
        slot = [j for j in range(lo, hi) if p.match[j] is None and _kind(p, j) is not None]
        for i in range(ia + 1, ib):
            j = q.match[i]
            if not slot or j is None or first <= j <= last or \
                    (kind := _kind(q, i)) is None or not _alone(q, i, lo - 1, hi):
                continue
            line = p.line[p.owner[j]]
            beside = line in read  # on a line read, just before or after the passage
            if quoted[line] != {q.owner[i]} if not beside else said[q.atoms[i]] > 1:
                continue  # (a word the quote repeats where it dropped another, "the
                # date the the premium", takes a copy from beside it)
            # Beside the passage, the word may have been moved into it: only a word the
            # quote does not hold at all, left at its place, makes it a changed one.
            c = next((x for x in slot if _kind(p, x) == kind
                      and not (beside and p.atoms[x] in quote_atoms)), None)
            if c is None:
                continue
            slot.remove(c)
            _unmatch(q, p, i)
            out.setdefault(q.owner[i], p.owner[c])
    return out


def _alone(q: Side, i: int, lo: int, hi: int) -> bool:
    """Whether atom ``i``'s word was matched apart from the quote words on either side of
    it, and those stand at found positions ``lo…hi``."""
    w = q.owner[i]
    s, e = i, i + 1
    while s > 0 and q.owner[s - 1] == w:
        s -= 1
    while e < len(q.owner) and q.owner[e] == w:
        e += 1
    first, end = q.match[s], q.match[e - 1]
    before = q.match[s - 1] if s > 0 else None
    after = q.match[e] if e < len(q.owner) else None
    if first is None or end is None or before is None or after is None:
        return False
    return lo <= before <= hi and lo <= after <= hi and before != first - 1 and \
        after != end + 1


def _swapped(q: Side, p: Side) -> dict[int, int]:
    """Two quote words that stand each at the other's place, all else in the quoted order.

    The quote is read along the found atoms from each place its first atom stands (or
    its second, the first being one of the two), stepping over up to MAX_INSIDE_GAP
    found atoms it dropped. Where it does not go on, the found word there must be one the
    quote says further on, the reading going on after it; further on, where the quote
    says that word, the found text must say the quote's, and the rest read on. The two
    are whole words of one kind (letters, or figures; no lone letter) at
    least MIN_SWAP_DISTANCE words apart. Returns each of the two quote words mapped to
    the found word standing at its place. Positional, so a word the passage says twice
    ("the") is no obstacle. Linear in the found atoms times the places the quote's first
    two atoms stand.
    """
    qa, pa = q.atoms, p.atoms
    if len(set(q.owner)) < MIN_SWAP_QUOTE_WORDS:
        return {}
    for lead in (0, 1):
        for start, atom in enumerate(pa):
            if atom != qa[lead] or (lead and start == 0):
                continue
            pending = (0, start - 1) if lead else None
            swap = _read_swapped(q, p, lead, start, pending)
            if swap is None:
                continue
            a, b, ja, jb, end = swap
            # Near the passage read, the quote in order as it is, or with one of the two
            # left out, is no swap: words dropped, or one word moved (a word the quote
            # repeats). Further off, the page's other copies of boilerplate do not count.
            # (Two neighbours around a separator printed on both sides are no word moved:
            # the separator fixes each one's place.)
            near = pa[max(0, start - lead - MAX_INSIDE_GAP):end + MAX_INSIDE_GAP]
            if b > a + 1 and any(_in_order(x, near)
                                 for x in (qa, qa[:a] + qa[a + 1:], qa[:b] + qa[b + 1:])):
                continue
            return {q.owner[a]: p.owner[ja], q.owner[b]: p.owner[jb]}
    return _rotated(q, p)


def _rotated(q: Side, p: Side) -> dict[int, int]:
    """Three quote words each standing at another's place, all else read one for one
    (:func:`matcher.swaps.read_rotated`), held to the pair's rules: whole words of one
    kind, each MIN_SWAP_DISTANCE words from the next (a word moved past its neighbours
    puts those out of place too), and not the quote in order near the passage with one
    of them left out."""
    qa, pa = q.atoms, p.atoms
    for start in range(len(pa) - len(qa) + 1):
        off = read_rotated(qa, pa, start)
        if off is None:
            continue
        words = [q.owner[k] for k in off]
        near = pa[max(0, start - MAX_INSIDE_GAP):start + len(qa) + MAX_INSIDE_GAP]
        if all(b - a >= MIN_SWAP_DISTANCE for a, b in itertools.pairwise(words)) and \
                all(_whole(q, k) and _ends_word(p, start + k, qa) for k in off) and \
                all(_swappable(q, w) for w in words) and \
                len({has_digit(q.words[w]) for w in words}) == 1 and \
                not any(_in_order(qa[:k] + qa[k + 1:], near) for k in off):
            return {q.owner[k]: p.owner[start + k] for k in off}
    return {}


def _in_order(atoms: Sequence[str], found: Sequence[str]) -> bool:
    """Whether ``atoms`` stand in ``found`` in this order, anything between them."""
    rest = iter(found)
    return all(a in rest for a in atoms)


def _read_swapped(q: Side, p: Side, i: int, j: int, pending: tuple[int, int] | None
                  ) -> tuple[int, int, int, int, int] | None:
    """The swap ``(quote atom, quote atom, found atom, found atom, end of the reading)``
    a reading from ``(i, j)`` finds, or None (see :func:`_swapped`); ``pending`` is a
    first half."""
    swap = read_swap(q.atoms, p.atoms, i, j, pending, gap=MAX_INSIDE_GAP)
    if swap is None:
        return None
    a, b, ja, jb, _ = swap
    words = (q.owner[a], q.owner[b])
    # Neighbouring atoms are two words apart only with a separator between them ("Seller
    # - Private"), which the found text must print between them too.
    apart = b > a + 1 or p.owner[jb] - p.owner[ja] >= MIN_SWAP_DISTANCE
    ok = words[1] - words[0] >= MIN_SWAP_DISTANCE and apart and \
        all(_whole(q, x) for x in (a, b)) and all(_ends_word(p, x, q.atoms) for x in (ja, jb)) and \
        all(_swappable(q, w) for w in words) and \
        has_digit(q.words[words[0]]) == has_digit(q.words[words[1]])
    return swap if ok else None


def _whole(side: Side, i: int) -> bool:
    """Whether atom ``i`` is its word's only atom."""
    w = side.owner[i]
    return (i == 0 or side.owner[i - 1] != w) and \
        (i + 1 == len(side.owner) or side.owner[i + 1] != w)


def _ends_word(p: Side, j: int, quote: Sequence[str]) -> bool:
    """Whether found atom ``j`` is its word's only atom, or its last after letters the
    quote does not hold (an elided article: the found "D’INCIDENCES" for the quote's
    "INCIDENCES")."""
    w = p.owner[j]
    if j + 1 < len(p.owner) and p.owner[j + 1] == w:
        return False
    k = j
    while k > 0 and p.owner[k - 1] == w:
        k -= 1
        if not p.atoms[k].isalpha() or p.atoms[k] in quote:
            return False
    return True


def _swappable(q: Side, w: int) -> bool:
    """Whether quote word ``w`` is one whose place carries meaning: no lone letter of a
    cased alphabet (an initial). A negation's place does ("below will not" quoted "not
    will below"), a lone digit's ("(8) … figure 7" quoted "(7) … figure 8") and a
    character's of a script without case (a Chinese name's first, its run exchanged)."""
    text = "".join(a for a, o in zip(q.atoms, q.owner, strict=True) if o == w)
    return has_digit(text) or len(text) >= 2 or text.lower() == text.upper()
