"""Where a quote stands on a page word for word: whole, in exact pieces, or but for one word.

These are the exact paths of placement, over the page's atoms in reading order: a short
quote is placed only where it stands whole; a quote the order-free way does not locate may
be a few exact stretches (an assembled quote of short halves) or one stretch with one word
off (a figure changed, a "not" inserted). Each returns atom stretches ``(start, end)``;
:mod:`matcher.placement` turns them into placements.
"""

from __future__ import annotations

from collections.abc import Sequence

from .pagemodel import RUN_SPAN_RATIO
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
    quote that stands on the page word for word. Linear in the quote times the
    occurrences of its atoms.
    """
    texts, positions = page.atom_texts, page.atom_positions
    pieces: list[tuple[int, int]] = []
    i, n = 0, len(quote_atoms)
    while i < n:
        if len(pieces) == MAX_PIECES:
            return []
        starts = positions.get(quote_atoms[i], [])
        k = 1
        while starts and i + k < n:
            nxt = [s for s in starts if s + k < len(texts) and texts[s + k] == quote_atoms[i + k]]
            if not nxt:
                break
            starts, k = nxt, k + 1
        if len(starts) != 1 or k < MIN_PIECE_ATOMS:
            return []
        end = starts[0] + k
        if i + k < n and edited_after(texts, end, quote_atoms[i + k:i + k + 3]):
            return []
        pieces.append((starts[0], end))
        i += k
    return pieces


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


def one_word_off(page: PageWords, quote_atoms: Sequence[str]) -> tuple[int, int] | None:
    """The one stretch ``[start, end)`` of the page's atoms the quote is but for one atom.

    The quote read along the page from each place its first (or second) atom stands,
    stepping over up to MAX_EDIT_SKIP page atoms it dropped, with exactly one atom the
    page does not have there (a "not" inserted) or has another in place of (a figure
    changed). None when the quote stands whole, is shorter than MIN_CHANGED_QUOTE_ATOMS,
    or when several stretches would do. Linear in the quote times the occurrences of its
    first two atoms.
    """
    n = len(quote_atoms)
    if n < MIN_CHANGED_QUOTE_ATOMS:
        return None
    positions, texts = page.atom_positions, page.atom_texts
    found: set[tuple[int, int]] = set()
    for first in (0, 1):  # the first atom may be the one off
        for start in positions.get(quote_atoms[first], ()):
            if first and quote_atoms[0] in texts[max(0, start - MAX_EDIT_SKIP - 1):start]:
                continue  # it stands just before: words dropped, not changed
            read = read_along(texts, quote_atoms, start, first)
            if read is None:
                continue
            end, edits = read
            if not edits:
                return None  # the quote stands, words dropped at most: not this path's
            found.add((start, end))
    return found.pop() if len(found) == 1 else None


def read_along(texts: Sequence[str], quote: Sequence[str], start: int, edits: int
                ) -> tuple[int, int] | None:
    """Where the page stretch ends that reads as ``quote[edits:]`` from ``start``, with at
    most one atom off in all (``edits`` already spent on the first), and how many were."""
    i, j, n = edits, start, len(quote)
    while i < n:
        if j < len(texts) and texts[j] == quote[i]:
            i, j = i + 1, j + 1
            continue
        ahead = next((d for d in range(1, MAX_EDIT_SKIP + 1)
                      if j + d < len(texts) and texts[j + d] == quote[i]), 0)
        if ahead and i > 0:
            j += ahead  # page words the quote dropped
            continue
        if edits:
            return None  # a second atom off: not one word changed
        edits, i = 1, i + 1
        if i < n and j + 1 < len(texts) and texts[j] != quote[i] and texts[j + 1] == quote[i]:
            j += 1  # another atom in its place: the page's goes with it
    if j - start > RUN_SPAN_RATIO * n:
        return None
    return j, edits
