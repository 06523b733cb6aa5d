"""Where a quote stands on a page word for word: whole, in exact pieces, or but for one word.

These are the exact paths of placement, over the page's atoms in reading order: a short
quote is placed only where it stands whole; a quote the order-free way does not locate may
be a few exact stretches (an assembled quote of short halves) or one stretch with one word
off (a figure changed, a "not" inserted). Each returns atom stretches ``(start, end)``;
:mod:`matcher.placement` turns them into placements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .alignment import MAX_INSIDE_GAP, has_digit
from .pagemodel import RUN_SPAN_RATIO
from .swaps import read_swap
from .words import PageWords

# A longer quote that is, word for word, at most MAX_PIECES stretches of the page, each
# of at least MIN_PIECE_ATOMS atoms and each standing once on the page, is those
# stretches: an assembled quote whose halves are a few words inside long lines has too
# little weight on any line to be found the order-free way, yet is plainly there.
MAX_PIECES = 3
MIN_PIECE_ATOMS = 3
# Where a piece ends and the page goes on within this many atoms with the rest of the
# quote (but for its next word), the quote was edited there, not assembled; a quote read
# along the page may step over this many atoms it dropped.
MAX_EDIT_SKIP = 3
# A quote with one atom off is that passage only if it has at least this many atoms (a
# pair of words with one changed is no passage).
MIN_CHANGED_QUOTE_ATOMS = 4
# A quote read along the page but for one atom, whose part up to that atom stands within
# this many atoms before the place (or from that atom on, after it), about a line of
# text, kept that part and dropped the words between ("… is available at [a URL]
# including"): it is not one word changed.
EDGE_REACH = 12
# ...where that part is at most this many atoms: the quote's first or last word or two.
EDGE_ATOMS = 2
# A figure is at most this many atoms ("06/19/2025", "$1,234.56"): a quote read along a
# passage may have one figure of up to so many atoms where the page has another (the
# next row's premium "$246.53" for this row's "$925.18").
MAX_FIGURE_ATOMS = 4


def exact_copies(page: PageWords, quote_atoms: Sequence[str]) -> list[tuple[int, int]]:
    """Every stretch of the page's atoms that is the quote, word for word (folded)."""
    n, texts = len(quote_atoms), page.atom_texts
    want = tuple(quote_atoms)
    if not want:
        return []
    return [(pos, pos + n) for pos in page.atom_positions.get(want[0], ())
            if texts[pos:pos + n] == want]


def words_in(page: PageWords, start: int, end: int) -> list[int]:
    """The page words the atoms ``start…end`` were read from, in order."""
    return sorted({w for pos in range(start, end) for w in page.atoms[pos].words})


def exact_pieces(page: PageWords, quote_atoms: Sequence[str]) -> list[tuple[int, int]]:
    """The quote as stretches ``(start, end)`` of the page's atoms, or [] (see MAX_PIECES).

    Read greedily from the quote's start: each piece is the longest next part of the
    quote that stands on the page word for word, ending and (but for the first) starting
    at a page word's edge — pieces meeting inside a page word ("5.7 2." of "5.7 2.20x"
    for the quote's "5.7 2.0") are not the page's words. Linear in the quote times the
    occurrences of its atoms.
    """
    texts, positions = page.atom_texts, page.atom_positions
    pieces: list[tuple[int, int]] = []
    i, n = 0, len(quote_atoms)
    while i < n:
        if len(pieces) == MAX_PIECES:
            return []
        starts = positions.get(quote_atoms[i], [])
        if pieces:
            starts = [s for s in starts if not _inside_word(page, s)]
        if not starts:
            return []
        found = [starts]  # found[k - 1]: where the quote's next k atoms stand
        while found[-1] and i + len(found) < n:
            k = len(found)
            found.append([s for s in found[-1]
                          if s + k < len(texts) and texts[s + k] == quote_atoms[i + k]])
        if not found[-1]:
            found.pop()
        while len(found) > 1 and i + len(found) < n and \
                all(_inside_word(page, s + len(found)) for s in found[-1]):
            found.pop()  # back to the page word's edge
        k, starts = len(found), found[-1]
        if len(starts) != 1 or k < MIN_PIECE_ATOMS:
            return []
        end = starts[0] + k
        if i + k < n and edited_after(texts, end, quote_atoms[i + k:i + k + 3]):
            return []
        pieces.append((starts[0], end))
        i += k
    return pieces


def _inside_word(page: PageWords, pos: int) -> bool:
    """Whether page atom ``pos`` continues the word of the atom before it."""
    atoms = page.atoms
    return 0 < pos < len(atoms) and bool(set(atoms[pos].words) & set(atoms[pos - 1].words))


def edited_after(texts: Sequence[str], end: int, rest: Sequence[str]) -> bool:
    """Whether the quote's next word (``rest[0]``) was inserted or changed after ``end``.

    So it was when the page goes on, just after ``end``, with the words after it but not
    with it ("They could not be overcome" against "They could be overcome"): a copy of
    "not be overcome" elsewhere on the page does not make the quote an assembly of two
    places. Going on with it after a word or two is a quote with words dropped.
    """
    def goes_on(words: Sequence[str]) -> bool:
        n = len(words)
        return bool(words) and any(tuple(texts[end + skip:end + skip + n]) == tuple(words)
                                   for skip in range(MAX_EDIT_SKIP + 1))

    return not goes_on(rest[:2]) and goes_on(rest[1:3])


def one_word_off(page: PageWords, quote_atoms: Sequence[str], *, figures_only: bool = False
                 ) -> tuple[int, int] | None:
    """The one stretch ``[start, end)`` of the page's atoms the quote is but for one atom.

    The quote read along the page from each place its first (or second) atom stands,
    stepping over up to MAX_EDIT_SKIP page atoms it dropped, with exactly one atom the
    page does not have there (a "not" inserted) or has another in place of (a figure
    changed). None when the quote stands whole, is shorter than MIN_CHANGED_QUOTE_ATOMS,
    or when several stretches would do. A reading whose atom off is better read as a
    word moved or words dropped (:func:`moved_or_dropped`) is none. With
    ``figures_only`` (a short quote), only a figure where the page has another figure
    is an atom off: four terms of a formula "1 + 0.369 0.369 + 1.045" along one reading
    "1 + 0.369 … 0.369 + 1.149", the 1.045 taken from the next line. A short quote with
    a word changed stays too little to say it was taken from there. Linear in the quote
    times the occurrences of its first two atoms.
    """
    n = len(quote_atoms)
    if n < MIN_CHANGED_QUOTE_ATOMS:
        return None
    positions, texts = page.atom_positions, page.atom_texts
    atoms = page.atoms
    found: set[tuple[int, int]] = set()
    for first in (0, 1):  # the first atom may be the one off
        for start in positions.get(quote_atoms[first], ()):
            read = read_along(texts, quote_atoms, start, first,
                              owner=lambda pos: atoms[pos].words)
            if read is None:
                continue
            end, off, at = read
            if off is None:
                return None  # the quote stands, words dropped at most: not this path's
            if figures_only and not _figure_for_figure_at(texts, quote_atoms, off, at):
                continue
            if not moved_or_dropped(page, quote_atoms, (start, end), off, at):
                found.add((start, end))
    return found.pop() if len(found) == 1 else None


def _figure_for_figure_at(texts: Sequence[str], quote: Sequence[str], off: int, at: int
                          ) -> bool:
    """Whether a reading's atom off is a figure of the quote where the page has a figure."""
    return has_digit(quote[off]) and at < len(texts) and has_digit(texts[at])


def read_along(texts: Sequence[str], quote: Sequence[str], start: int, edits: int, *,
               owner: Callable[[int], tuple[int, ...]] | None = None
               ) -> tuple[int, int | None, int] | None:
    """The page stretch that reads as ``quote[edits:]`` from ``start`` with at most one
    atom off in all (``edits`` 1: the first is): where it ends, which atom is off (None
    when none is) and the page position where it would have stood.

    With ``owner`` (the page words of an atom), the one thing off may also be a figure
    of a few atoms where the page has another figure (:func:`figure_for_figure`)."""
    i, j, n = edits, start, len(quote)
    off: int | None = 0 if edits else None
    at = start
    while i < n:
        if j < len(texts) and texts[j] == quote[i]:
            i, j = i + 1, j + 1
            continue
        other = None if edits or owner is None or i == 0 else \
            figure_for_figure(texts, quote, i, j, owner)
        if other is not None:
            edits, off, at = 1, i, j
            i, j = other
            continue
        ahead = next((d for d in range(1, MAX_EDIT_SKIP + 1)
                      if j + d < len(texts) and texts[j + d] == quote[i]), 0)
        if ahead and i > 0:
            j += ahead  # page words the quote dropped
            continue
        if edits:
            return None  # a second atom off: not one word changed
        edits, off, at, i = 1, i, j, i + 1
        if i < n and j + 1 < len(texts) and texts[j] != quote[i] and texts[j + 1] == quote[i]:
            j += 1  # another atom in its place: the page's goes with it
    if j - start > RUN_SPAN_RATIO * n:
        return None
    return j, off, at


def figure_for_figure(texts: Sequence[str], quote: Sequence[str], i: int, j: int,
                      owner: Callable[[int], tuple[int, ...]]) -> tuple[int, int] | None:
    """Where the reading goes on when the quote's figure at atom ``i`` stands where the
    page has another figure, a page word starting at atom ``j``: ``(i, j)`` past both.

    The page's figure is its word's atoms with digits from ``j``; the quote's, the fewest
    atoms with digits (at most MAX_FIGURE_ATOMS) after which the page reads on with the
    rest of the quote (:func:`_goes_on`: "$2.12 12 months" against "$1.00 12 months" is
    "2 12" for "1 00", though after "2" alone the page's next atom is the quote's "12"
    too). One of the two has more than one atom (one for one is a plain atom off).
    """
    if j >= len(texts) or not (has_digit(quote[i]) and has_digit(texts[j])):
        return None
    word = owner(j)
    end = j + 1
    while end < len(texts) and end - j < MAX_FIGURE_ATOMS and owner(end) == word and \
            has_digit(texts[end]):
        end += 1
    for m in range(1, MAX_FIGURE_ATOMS + 1):
        if i + m > len(quote) or not has_digit(quote[i + m - 1]):
            return None
        if m == 1 and end - j == 1:
            continue
        if goes_on(texts, quote, i + m, end):
            return i + m, end
    return None


def goes_on(texts: Sequence[str], quote: Sequence[str], i: int, j: int) -> bool:
    """Whether ``quote[i:]`` reads along the page from ``j`` with nothing off, stepping
    over up to MAX_EDIT_SKIP page atoms between two of its atoms (none before the first).
    """
    if i < len(quote) and (j >= len(texts) or texts[j] != quote[i]):
        return False
    for a in quote[i + 1:]:
        j += 1
        ahead = next((d for d in range(MAX_EDIT_SKIP + 1)
                      if j + d < len(texts) and texts[j + d] == a), None)
        if ahead is None:
            return False
        j += ahead
    return True


def _replaced(texts: Sequence[str], quote: Sequence[str], off: int, at: int) -> bool:
    """Whether a reading's atom off stands where the page has a word of its kind the
    quote does not hold at all, with the quote going on after it: a word replaced, not
    one moved from beside the passage ("the last day" against "the first day … last")."""
    word = quote[off]
    if at + 1 >= len(texts) or off + 1 >= len(quote) or texts[at + 1] != quote[off + 1]:
        return False
    page_word = texts[at]
    return page_word not in quote and len(page_word) >= 2 and len(word) >= 2 and \
        page_word.isalpha() == word.isalpha()


def moved_or_dropped(page: PageWords, quote: Sequence[str], stretch: tuple[int, int],
                     off: int, at: int) -> bool:
    """Whether a reading's atom off (``quote[off]``, missing at page position ``at``) is
    better read as a word the quote moved, or words it dropped, than as one it changed.

    Moved: the word stands inside the stretch read, or right beside it on its line ("2.
    Adoption de l'ordre du jour" quoted "Adoption de 2. du l'ordre jour"). Dropped: the
    word is among the quote's first or last EDGE_ATOMS, and the quote up to it stands
    just before (within EDGE_REACH), or from it on just after ("software bugs introduced
    by user-developed software, and system abuse" quoted "software bugs and system
    abuse": the reading from the second "software" misses "bugs"). A changed word seldom
    stands that near, in that company. (A longer part of the quote standing near is a
    piece of an assembled quote as much as the rest of a changed one: both readings are
    for placement to show.) A figure where the page has another figure is never read as
    dropped: "… include on line 9a" against "… include on line 8a" with a field label
    "9a" on the next line is a figure changed.
    """
    texts, lines, positions = page.atom_texts, page.atom_lines, page.atom_positions
    start, end = stretch
    word = quote[off]
    # A figure of several atoms ("5.7") is moved when it stands so, not when one of its
    # digits does: a row of counts "5 5 10 0 0 1.0 2.0" holds every lone digit.
    opening = _figure_around(quote, off) if has_digit(word) else (word,)
    if not _replaced(texts, quote, off, at) and (
            stands_in(texts, opening, start, end) or
            (start > 0 and texts[start - 1] == word and lines[start - 1] == lines[start]) or
            (end < len(texts) and texts[end] == word and lines[end] == lines[end - 1])):
        return True
    if at < len(texts) and has_digit(word) and has_digit(texts[at]) and \
            texts[at] not in quote[off + 1:off + 2]:
        return False  # a figure in another figure's place ("line 9a" for "line 8a") was
        # changed, whatever copy of it stands near
    head, tail = quote[:off + 1], quote[off:]
    return (len(head) <= EDGE_ATOMS and
            any(at - EDGE_REACH - len(head) <= x <= at - len(head)
                and tuple(texts[x:x + len(head)]) == tuple(head)
                for x in positions.get(head[0], ()))) or \
        (len(tail) <= EDGE_ATOMS and
         any(at < x <= at + EDGE_REACH and tuple(texts[x:x + len(tail)]) == tuple(tail)
             for x in positions.get(tail[0], ())))



def _figure_around(quote: Sequence[str], off: int) -> tuple[str, ...]:
    """The quote's atom ``off`` with a digit atom beside it, the one after it first
    ("5.7" at its "5"), else the one before it ("2.1.3." at its "3"): the part of a
    figure that stands where the figure was moved. A lone digit of a section number
    ("2" of "2.1.2.") stands in the heading "2.1.3." the quote read along, as the
    figure quoted does not."""
    if off + 1 < len(quote) and has_digit(quote[off + 1]):
        return tuple(quote[off:off + 2])
    if off > 0 and has_digit(quote[off - 1]):
        return tuple(quote[off - 1:off + 1])
    return (quote[off],)


def stands_in(texts: Sequence[str], atoms: Sequence[str], start: int, end: int) -> bool:
    """Whether ``atoms`` stand side by side among ``texts[start:end]``."""
    n = len(atoms)
    return any(tuple(texts[k:k + n]) == tuple(atoms) for k in range(start, end - n + 1))


def part_of_a_word(page: PageWords, quote_atoms: Sequence[str]) -> str | None:
    """Why a short quote is no quote of this page's words, if it is a part of a word here.

    A quote atom the page does not hold as an atom but inside one of its atoms ("optimiz"
    in "optimization", "o" in many) is a piece of a word, not a quote of whole words: it
    is not located, and the reason says so (the first such atom, the first word holding
    it in reading order).
    """
    counts, texts = page.atom_counts, page.atom_texts
    for a in quote_atoms:
        if a in counts:
            continue
        holder = next((t for t in texts if a in t), None)
        if holder is not None:
            return (f"'{a}' is only part of a word on this page ('{holder}'); a quote must "
                    "be whole words")
    return None


# Two atoms swapped on the page are a change only at least this many atoms apart, each a
# word of one kind (alignment's MIN_SWAP_DISTANCE, in words, is checked again on the
# stretch by the diff).
MIN_SWAP_ATOMS = 2


def swapped_stretch(page: PageWords, quote_atoms: Sequence[str]) -> tuple[int, int] | None:
    """The one stretch ``[start, end)`` of the page's atoms that reads as the quote but
    for two of its words exchanged (:func:`matcher.swaps.read_swap`), or None.

    Read along the page, not the highlighted lines: an order-free placement may take a
    part of the quote from another copy of boilerplate, and then the highlighted lines
    do not read as the quote at all. Of several readings, the one that reads closest (the
    fewest atoms) is the passage when it is the only one so close: a copy of the
    boilerplate just before the passage, read on across its last word into the next
    heading ("… the laws of [Kentucky.] Washington:"), is no rival of the passage that
    ends "… the laws of Washington." Linear in the quote times the places its first two
    atoms stand.
    """
    n = len(quote_atoms)
    if n < MIN_CHANGED_QUOTE_ATOMS:
        return None
    texts, positions = page.atom_texts, page.atom_positions
    found: set[tuple[int, int]] = set()
    for lead in (0, 1):
        for start in positions.get(quote_atoms[lead], ()):
            if lead and start == 0:
                continue
            read = read_swap(quote_atoms, texts, lead, start, (0, start - 1) if lead else None,
                             gap=MAX_INSIDE_GAP)
            if read is None:
                continue
            a, b, _, _, end = read
            if b - a >= MIN_SWAP_ATOMS and \
                    quote_atoms[a].isalpha() == quote_atoms[b].isalpha():
                found.add((start - lead, end))
    spans = sorted(b - a for a, b in found)
    if not spans or (len(spans) > 1 and spans[0] == spans[1]):
        return None
    return min(found, key=lambda s: s[1] - s[0])
