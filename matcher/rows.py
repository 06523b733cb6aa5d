"""A quote read along one row of a table or form: the row is a run, and so is its figure.

A table's cells are lines of their own to the extractor, often read column by column, so
a quote of one row ("Dwelling (Coverage A) $277,000 $500 $925.18 12 months") is, to the
order-free placement, words gathered from several lines, and a copy of it with the next
row's premium ("… $500 $246.53 12 months") finds every word: "$246.53 12 months" stands a
row below. Read along the row instead, the cells left to right, the quote goes on word
for word but for its figure, where the row has another: that is a figure changed, not a
quote assembled from two rows (an assembled one quotes the other row's label too, and
does not read along one row).
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .alignment import has_digit
from .normalize import atoms as split_atoms
from .stretches import MAX_FIGURE_ATOMS, read_along
from .words import PageWords

if TYPE_CHECKING:
    from .diff import QuoteDiff

# Two lines are one row when their extents across the reading direction overlap by at
# least this share of the thinner one (cells of one row share a baseline; the next row
# is a line height away).
ROW_OVERLAP = 0.5


def row_lines(page: PageWords, line: int) -> list[int]:
    """The lines of the row ``line`` stands in (itself included), in reading order.

    Lines of the same direction whose extents across it overlap (ROW_OVERLAP) are one
    row; they are ordered along the reading direction, which a line of two or more words
    shows (on a page turned 90° the text may run upwards). The page's lines are sorted
    across once per page (:func:`_across_index`), so a row costs a binary search and
    its neighbours.
    """
    me = page.lines[line]
    c0, c1 = me.across()
    starts, order, widest = _across_index(page)[me.vertical]
    lo = bisect.bisect_left(starts, c0 - widest)
    hi = bisect.bisect_right(starts, c1)
    out = []
    for k in order[lo:hi]:
        ln = page.lines[k]
        d0, d1 = ln.across()
        overlap = min(c1, d1) - max(c0, d0)
        if overlap > ROW_OVERLAP * min(c1 - c0, d1 - d0):
            out.append(k)
    sign = _direction(page, out)
    return sorted(out, key=lambda k: (sign * page.lines[k].along()[0], k))


class Placed(Protocol):
    """What :func:`one_row_as_read` reads of a placement."""

    @property
    def diff(self) -> QuoteDiff | None: ...
    @property
    def words(self) -> tuple[int, ...]: ...


def one_row_as_read(page: PageWords, placement: Placed) -> bool:
    """Whether a placement reads word for word (in the page's reading order, the cells
    of a row together) and its words stand in one row: a short quote of a table row that
    the extractor read column by column, not a quote whose figure is another line's."""
    if placement.diff is None or not placement.diff.verbatim or not placement.words:
        return False
    first = page.words[placement.words[0]].line
    row = set(row_lines(page, first))
    return all(page.words[w].line in row for w in placement.words)


_Index = dict[bool, tuple[list[float], list[int], float]]
_INDEXES: dict[int, _Index] = {}  # id(page) → its index, dropped with the page


def _across_index(page: PageWords) -> _Index:
    """Per direction: the text lines' starts across, sorted, their indices, the thickest."""
    key = id(page)
    got = _INDEXES.get(key)
    if got is not None:
        return got
    index: _Index = {}
    for vertical in (False, True):
        lines = sorted((ln.across()[0], k) for k, ln in enumerate(page.lines)
                       if ln.vertical == vertical and not ln.skewed and not ln.watermark
                       and ln.words)
        widest = max((page.lines[k].thickness for _, k in lines), default=0.0)
        index[vertical] = ([a for a, _ in lines], [k for _, k in lines], widest)
    _INDEXES[key] = index
    weakref.finalize(page, _INDEXES.pop, key, None)
    return index


def _direction(page: PageWords, lines: Sequence[int]) -> int:
    """+1 when the text of these lines runs towards growing coordinates, else -1."""
    votes = 0
    for k in lines:
        ws = page.lines[k].words
        if len(ws) < 2:
            continue
        a, b = page.words[ws[0]], page.words[ws[-1]]
        start, end = (a.y0, b.y0) if page.lines[k].vertical else (a.x0, b.x0)
        votes += 1 if end >= start else -1
    return 1 if votes >= 0 else -1


def figure_off_row(page: PageWords, quote_atoms: Sequence[str], words: Sequence[int], *,
                   one_row: bool = False) -> list[int] | None:
    """The words of the one row stretch the quote reads along but for one figure.

    ``words`` are the words a placement highlighted; when they stand on two rows or more
    (or on one, with ``one_row``: a placement shown for review, which may have missed the
    row's own figure), each of those rows is read along, left to right, from where the
    quote's first (or second) atom stands,
    stepping over up to a few words the quote dropped
    (:func:`matcher.stretches.read_along`). A row holding the whole quote but for one
    figure, where it has another figure and nowhere the quote's, is the passage quoted:
    the row's words from the reading's start to its end. None when no row, or more than
    one stretch, reads so.
    """
    rows = rows_of(page, words)
    if len(rows) < (1 if one_row else 2):
        return None
    found: set[tuple[int, ...]] = set()
    for row in rows:
        found |= _figure_readings(*row_atoms(page, row), quote_atoms)
    return list(found.pop()) if len(found) == 1 else None


def exact_row(page: PageWords, quote_atoms: Sequence[str], words: Sequence[int]
              ) -> list[int] | None:
    """The words of the one row stretch, among the rows of a placement's ``words``, that
    is the quote word for word: a row of a table the extractor read column by column,
    whose figures share atoms with the next row's ("$12,000" and "$10,000"), or whose
    cell is the same in every row ("$500"), is the row quoted, not cells gathered from
    several. None if no row or several read so."""
    rows = rows_of(page, words)
    n = len(quote_atoms)
    found: set[tuple[int, ...]] = set()
    for row in rows:
        texts, owners = row_atoms(page, row)
        found |= {tuple(dict.fromkeys(owners[s:s + n])) for s in range(len(texts) - n + 1)
                  if texts[s:s + n] == list(quote_atoms)
                  and (s == 0 or owners[s - 1] != owners[s])
                  and (s + n == len(texts) or owners[s + n] != owners[s + n - 1])}
    return list(found.pop()) if len(found) == 1 else None


def rows_of(page: PageWords, words: Sequence[int]) -> set[tuple[int, ...]]:
    """The rows (:func:`row_lines`) the ``words`` stand in."""
    return {tuple(row_lines(page, ln)) for ln in {page.words[w].line for w in words}}


def row_atoms(page: PageWords, row: Sequence[int]) -> tuple[list[str], list[int]]:
    """A row's atoms, its cells in the row's order, and the page word of each."""
    texts: list[str] = []
    owners: list[int] = []
    for ln in row:
        for w in page.lines[ln].words:
            parts = split_atoms(page.words[w].text)
            texts += parts
            owners += [w] * len(parts)
    return texts, owners


def _figure_readings(texts: Sequence[str], owners: Sequence[int],
                     quote: Sequence[str]) -> set[tuple[int, ...]]:
    """The word stretches of one row that read as ``quote`` but for one figure.

    The reading starts at the quote's first atom, or at its second (the first is the
    one off), or after a figure of several atoms the quote opens with ("5.2 Calling
    Compiled Traces" along the row "6.1 Calling Compiled Traces", "11/14/2015 09/29/2015
    …" along one opening with "09/11/2015"): then at a row word's first atom, the row's
    word before it a figure too.
    """
    out: set[tuple[int, ...]] = set()
    lead = 1
    while lead < min(MAX_FIGURE_ATOMS, len(quote) - 1) and has_digit(quote[lead]):
        lead += 1  # the quote's opening digit atoms, at most a figure's
    firsts = [0, 1, *range(2, lead + 1)] if has_digit(quote[0]) else [0, 1]
    for first in firsts:
        if first >= len(quote):
            break
        for start, a in enumerate(texts):
            if a != quote[first] or (first > 1 and owners[start - 1] == owners[start]):
                continue
            read = read_along(texts, quote, start, first, owner=lambda pos: (owners[pos],))
            if read is None:
                continue
            end, off, at = read
            if first:
                at = start - 1  # the row's word before the reading is the one off
            if off is None or at < 0 or at >= len(texts) or not has_digit(quote[off]) or \
                    not has_digit(texts[at]) or _prints(texts, quote, off):
                continue
            lo = min(start, at)
            out.add(tuple(dict.fromkeys(owners[lo:max(end, at + 1)])))
    return out


def _prints(texts: Sequence[str], quote: Sequence[str], off: int) -> bool:
    """Whether the row prints the quote's atom ``off`` beside one of the quote's atoms
    next to it (the quote may read the row's cells in another order). A lone "5"
    elsewhere in the row — the page number after a contents line "2.1.4. Archival …" —
    is not the quote's "2.1.5."."""
    pairs = {tuple(quote[k:k + 2]) for k in (off - 1, off) if 0 <= k and k + 1 < len(quote)}
    if not pairs:
        return quote[off] in texts
    return any(tuple(texts[k:k + 2]) in pairs for k in range(len(texts) - 1))
