"""A figure read against its own run: the quote's figure where its passage prints another.

Read along its passage, words it dropped stepped over, a quote may come to its figure
where the passage prints another figure: "contractor. TTY users should call
1-800-633-4227." against "contractor, call 1-800-MEDICARE (1-800-633-4227). TTY users /
should call 1-877-486-2048.", or a table row "12/24/2015 01/04/2016 03/31/2016 Brea 6 …"
whose own third date is 01/05/2016, a company's name dropped after it. Every word stands
on the page — the quote's figure a line up, or in another row — so the order-free
placement finds them all; read in order, the figure replaces the passage's own.

The quote's words beside its figure (at least MIN_CONTEXT_ATOMS atoms) must stand beside
the page's figure, on its line (or in its row); the rest of the quote must read on in
order from there, with a few words dropped on the way (MAX_INSIDE_GAP atoms, and once up
to a line's worth, MAX_DROPPED_ATOMS). It is no figure replaced, but a quote with words
dropped, assembled, or read in another order, where the quote reads along the run with
only a few words dropped; where its figure stands with those same neighbours elsewhere
("figure 6 to paragraph", one half of an assembled quote, beside "figure 5 to
paragraph"); or where its figure stands just by the page's (the quote dropped "… or"
with the other), just outside the reading, or in it beside one of its quoted neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .alignment import MAX_INSIDE_GAP, has_digit
from .normalize import atoms as split_atoms
from .rows import row_atoms, rows_of
from .stretches import goes_on, stands_in
from .words import PageWords

# The quote's atoms beside its figure that must stand beside the page's figure.
MIN_CONTEXT_ATOMS = 2
# One stretch of up to this many atoms (about a line) may be dropped along the reading;
# elsewhere no more than MAX_INSIDE_GAP between two quoted atoms.
MAX_DROPPED_ATOMS = 12
# The quote's figure standing within this many atoms of the page's is a quote that
# dropped the page's ("call 1-877-486-2048 or 1-800-633-4227" quoted "call
# 1-800-633-4227").
NEAR_ATOMS = 3


class _Reading(NamedTuple):
    """A run of the page to read along: its atoms, and each atom's page word."""

    texts: Sequence[str]
    owners: Sequence[int]
    lines: Sequence[int]  # the line of each atom; one row counts as one line


def figure_replaced(page: PageWords, quote: str, quote_atoms: Sequence[str],
                    words: Sequence[int]) -> tuple[int, ...] | None:
    """The page words of the one reading of ``quote`` along the page, or along a row of
    a placement's ``words``, that has a figure of the quote where the run prints another
    figure (the run's figure among the words, in the run's order).

    ``quote_atoms`` are the quote's atoms as the page spells them; a quote whose words
    do not split into them one for one is not read (None). The page is read in its
    reading order, and each row the placement touches is read
    left to right (cells of a table row are lines of their own); a reading must touch a
    placed line. None when no reading, or more than one, finds a replaced figure.
    """
    owner = _quote_owners(quote, quote_atoms)
    if owner is None or not any(has_digit(a) for a in quote_atoms):
        return None
    lines = {page.words[w].line for w in words}
    readings = [_page_reading(page)]
    readings += [_row_reading(page, row) for row in rows_of(page, words) if len(row) > 1]
    found = {r for reading in readings for r in _replacements(reading, quote_atoms, owner)
             if any(page.words[w].line in lines for w in r)}
    return found.pop() if len(found) == 1 else None


def _quote_owners(quote: str, quote_atoms: Sequence[str]) -> list[int] | None:
    """The quote's word of each of its atoms, when its words split into them one for one."""
    owner: list[int] = []
    pos = 0
    for k, word in enumerate(quote.split()):
        parts = split_atoms(word)
        if tuple(quote_atoms[pos:pos + len(parts)]) != tuple(parts):
            return None
        owner += [k] * len(parts)
        pos += len(parts)
    return owner if pos == len(quote_atoms) else None


def _page_reading(page: PageWords) -> _Reading:
    """The page's atoms in reading order."""
    return _Reading(page.atom_texts, [a.words[0] for a in page.atoms], page.atom_lines)


def _row_reading(page: PageWords, row: Sequence[int]) -> _Reading:
    """A row's atoms, its cells left to right, all on one line."""
    texts, owners = row_atoms(page, row)
    return _Reading(texts, owners, [row[0]] * len(texts))


def _figures(owner: Sequence[int], atoms: Sequence[str]) -> list[tuple[int, int]]:
    """The ``(start, end)`` atom spans of the words holding a digit."""
    spans: list[tuple[int, int]] = []
    start = 0
    for k in range(1, len(owner) + 1):
        if k == len(owner) or owner[k] != owner[start]:
            if any(has_digit(a) for a in atoms[start:k]):
                spans.append((start, k))
            start = k
    return spans


def _replacements(reading: _Reading, qa: Sequence[str], owner: Sequence[int]
                  ) -> list[tuple[int, ...]]:
    """The words of each reading of the quote along ``reading`` with one of its figures
    where the reading has another figure."""
    texts, owners, lines = reading
    out: list[tuple[int, ...]] = []
    if _reads_whole(texts, qa):
        return out  # the quote stands in order, a few words dropped at most: as quoted
    page_figures = _figures(owners, texts)
    for fa, fb in _figures(owner, qa):
        figure = tuple(qa[fa:fb])
        for g, ge in page_figures:
            if tuple(texts[g:ge]) == figure:
                continue
            k = _common(qa, fa - 1, -1, texts, g - 1, lines, lines[g])
            m = _common(qa, fb, 1, texts, ge, lines, lines[ge - 1])
            if k + m < MIN_CONTEXT_ATOMS or stands_in(texts, qa[fa - k:fb + m], 0, len(texts)):
                continue  # too little beside it, or the quote's figure stands so, its
                # neighbours beside it: a piece of an assembled quote
            read = _read_rest(reading, qa, (fa - k, fb + m), (g - k, ge + m))
            if read is None or _in_place(texts, qa, (fa, fb), (g, ge), read):
                continue
            out.append(tuple(dict.fromkeys(owners[p] for p in sorted(read[2]))))
    return out


def _reads_whole(texts: Sequence[str], qa: Sequence[str]) -> bool:
    """Whether the quote reads along ``texts`` in order from a place its first atom
    stands, up to MAX_INSIDE_GAP atoms dropped between two of its atoms."""
    return any(goes_on(texts, qa, 0, j) for j in range(len(texts)) if texts[j] == qa[0])


def _common(qa: Sequence[str], i: int, step: int, texts: Sequence[str], j: int,
            lines: Sequence[int], line: int) -> int:
    """How many quote atoms from ``i`` stand at the page's from ``j``, both read ``step``
    by ``step``, on ``line``."""
    k = 0
    while 0 <= i < len(qa) and 0 <= j < len(texts) and lines[j] == line and texts[j] == qa[i]:
        k, i, j = k + 1, i + step, j + step
    return k


def _read_rest(reading: _Reading, qa: Sequence[str], quoted: tuple[int, int],
               placed: tuple[int, int]) -> tuple[int, int, set[int]] | None:
    """The quote before ``quoted[0]`` read backwards from the page's ``placed[0]``, and
    after ``quoted[1]`` forwards from ``placed[1]``: ``(first, end, positions taken)``,
    or None where it does not read on so (one long gap in all, MAX_DROPPED_ATOMS)."""
    texts = reading.texts
    taken = set(range(placed[0], placed[1]))
    long_gap = [False]

    def walk(qs: range, j: int, step: int) -> int | None:
        for i in qs:
            d = next((d for d in range(MAX_DROPPED_ATOMS + 1)
                      if 0 <= j + step * d < len(texts) and texts[j + step * d] == qa[i]),
                     None)
            if d is None or (d > MAX_INSIDE_GAP and long_gap[0]):
                return None
            long_gap[0] = long_gap[0] or d > MAX_INSIDE_GAP
            taken.add(j + step * d)
            j += step * (d + 1)
        return j

    first = walk(range(quoted[0] - 1, -1, -1), placed[0] - 1, -1)
    end = None if first is None else walk(range(quoted[1], len(qa)), placed[1], 1)
    if first is None or end is None:
        return None
    return first + 1, end, taken


def _in_place(texts: Sequence[str], qa: Sequence[str], quoted: tuple[int, int],
              placed: tuple[int, int], read: tuple[int, int, set[int]]) -> bool:
    """Whether the quote's figure stands near the page's, or in the reading beside one of
    the atoms the quote has beside it: words dropped, or an order changed, not a
    figure replaced."""
    fa, fb = quoted
    g, ge = placed
    lo, hi, _ = read
    figure = tuple(qa[fa:fb])
    n = len(figure)
    before = qa[fa - 1] if fa > 0 else None
    after = qa[fb] if fb < len(qa) else None
    first = max(0, min(lo, g) - NEAR_ATOMS - n)
    for s in range(first, min(len(texts), max(hi, ge) + NEAR_ATOMS) - n + 1):
        if tuple(texts[s:s + n]) != figure:
            continue
        near = not lo <= s < hi or g - NEAR_ATOMS - n <= s <= ge + NEAR_ATOMS
        beside = (before is not None and s > 0 and texts[s - 1] == before) or \
            (after is not None and s + n < len(texts) and texts[s + n] == after)
        if near or beside:
            return True
    return False
