"""A page's distinct atoms read from MuPDF's word array: the document index's input.

:class:`~matcher.words.PageWords` builds a word, a line and an atom object for every word
of a page, which placement needs and an index of atom → pages does not. :func:`raw_atom_set`
reads the same set straight from PyMuPDF's ``get_text("words")`` tuples with C-level
passes over their columns and one regular-expression scan of the page's text (a word
hyphenated at a line end is joined to the next line's first word as words.py joins it),
and returns None when only the full model can tell the atoms exactly:

* a word ending in a hyphen where a column gap may cut its line;
* a line that may be set at an angle (a watermark's words are not the page's atoms);
* a box turned inside out, a coordinate that is not a number, a word with no visible
  text, or a line met again after another (words.py drops, or regroups, those words).

For every other page the set is exactly ``PageWords.from_raw(…).atom_counts.keys()``
(tests/test_pageatoms.py checks both, over the corpus and generated pages), so an index
built from it chooses the pages the full models would have chosen. What it saves is
memory more than time: by CPU time both readings cost about 0.6 ms a page of the corpus
book, against MuPDF's 1.2 ms for extracting the words, and the model is not built.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .normalize import _DASHES, _DROP, _QUOTES, ATOM_PATTERN, atoms
from .words import _HYPHENS, COLUMN_GAP_HEIGHTS

# What normalize.fold_char makes of typographic quotes, dashes and invisible characters,
# as a table for str.translate: a word that is ASCII after it is folded by lowering.
_PUNCTUATION = str.maketrans({**_QUOTES, **dict.fromkeys(_DASHES, "-"),
                              **dict.fromkeys(_DROP, "")})
# A line whose words' doubled centres spread across it by no more than this many times
# its thinnest word cannot be set at an angle: words.py's _shape calls a line skewed only
# when that spread exceeds twice twice the thinnest word (``2 * height``).
_LEVEL_SPREAD = 4.0


def raw_atom_set(raw: Sequence[Sequence[Any]]) -> frozenset[str] | None:
    """The distinct atoms of a page's word tuples, or None when only the full model knows.

    ``raw``: PyMuPDF-style ``(x0, y0, x1, y1, text, block, line, word)`` tuples.

    >>> sorted(raw_atom_set([(0, 0, 30, 10, "WORLD", 0, 0, 0), (32, 0, 50, 10, "ex-", 0, 0, 1),
    ...                      (0, 12, 30, 22, "cess", 0, 1, 0)]))
    ['excess', 'world']
    """
    if not raw:
        return frozenset()
    cols = list(zip(*raw, strict=False))
    x0, y0, x1, y1, texts = cols[0], cols[1], cols[2], cols[3], cols[4]
    if any(map(operator.lt, x1, x0)) or any(map(operator.lt, y1, y0)) or \
            any(map(math.isnan, itertools.chain(x0, y0, x1, y1))) or \
            not all(map(str.strip, map(str, texts))):
        return None  # words.py drops such words, and its lines close up around them
    keys = list(zip(cols[5], cols[6], strict=True))
    runs = [(key, len(list(group))) for key, group in itertools.groupby(keys)]
    if len({key for key, _ in runs}) < len(runs):
        return None  # a line met again after another: words.py regroups it
    page = " ".join(map(str, texts))
    ends = list(itertools.accumulate(n for _, n in runs))
    # Most lines are printed level to the point: only a line where some word's centre
    # differs from the one before it needs the measure of _level.
    cy = tuple(map(operator.add, y0, y1))
    moved = itertools.compress(itertools.count(1), map(
        operator.and_, map(operator.eq, keys, keys[1:]), map(operator.ne, cy, cy[1:])))
    # A line's key stands for it (no key comes back after another line, above): the lines
    # holding a moved word are told in C, then put in order.
    lines_moved = set(map(keys.__getitem__, moved))
    if lines_moved:
        order = {key: k for k, (key, _) in enumerate(runs)}
        for k in sorted(map(order.__getitem__, lines_moved)):
            if not _level(x0, y0, x1, y1, ends[k - 1] if k else 0, ends[k]):
                return None
    if "-" not in page and "\u00ad" not in page and "\u2010" not in page:
        hyphened: Iterable[int] = ()  # (no word can end in one of _HYPHENS)
    else:
        hyphened = itertools.compress(itertools.count(), map(
            operator.methodcaller("endswith", _HYPHENS), map(str.rstrip, map(str, texts))))
    joins: list[tuple[str, str]] = []
    targets: set[int] = set()
    for i in hyphened:
        join = _line_end_join(i, texts, ends, x0, x1, y0, y1)
        if join is None or i in targets:
            return None  # (a word joined to the line before and carrying on: rare)
        if join:
            joins.append(join[:2])
            targets.add(join[2])
    if page.isascii():
        found = ATOM_PATTERN.findall(page.lower())
    else:
        # Fold only the words that need folding; the rest take the ASCII path (as atoms()).
        # Only the words that are not ASCII are translated (str.translate goes through
        # its table one character at a time): an ASCII word's atoms are the same either
        # way, as the one ASCII character the table changes (`) stands between atoms.
        words = list(map(str, texts))
        folded = " ".join(itertools.filterfalse(str.isascii, words)).translate(
            _PUNCTUATION).split(" ")
        plain = itertools.chain(filter(str.isascii, words), filter(str.isascii, folded))
        found = ATOM_PATTERN.findall(" ".join(plain).lower()) + \
            atoms(" ".join(itertools.filterfalse(str.isascii, folded)))
    if not joins:
        return frozenset(found)
    counts = Counter(found)
    for head, tail in joins:  # "sub-" ending a line, "scription" starting the next
        counts[head] -= 1
        counts[tail] -= 1
        counts[head + tail] += 1
    return frozenset(a for a, k in counts.items() if k > 0)


def _level(x0: Sequence[float], y0: Sequence[float], x1: Sequence[float],
           y1: Sequence[float], start: int, end: int) -> bool:
    """Whether the words ``start…end`` of one line cannot form a skewed line (nor can any
    run of them): their doubled centres' spread across the page stays within
    _LEVEL_SPREAD times the thinnest word."""
    cy = tuple(map(operator.add, y0[start:end], y1[start:end]))
    thin = min(min(map(operator.sub, y1[start:end], y0[start:end])),
               min(map(operator.sub, x1[start:end], x0[start:end])))
    return max(cy) - min(cy) <= _LEVEL_SPREAD * thin


def _line_end_join(i: int, texts: Sequence[Any], ends: Sequence[int], x0: Sequence[float],
                   x1: Sequence[float], y0: Sequence[float], y1: Sequence[float]
                   ) -> tuple[str, str, int] | tuple[()] | None:
    """What word ``i``, ending in a hyphen, does to the page's atoms as words.py reads them:
    ``(head, tail, j)`` when its last atom joins the first of the next line's first word
    (word ``j``, which starts in lower case), ``()`` when nothing joins, None when a column
    gap near it could cut a line there (only the full model knows then)."""
    parts = atoms(str(texts[i]))
    k = bisect.bisect_right(ends, i)
    start, end = (ends[k - 1] if k else 0), ends[k]
    if not _uncut(start, end, i, x0, x1, y0, y1):
        return None
    if i != end - 1 or not parts:
        return ()  # not the last word of its line (or no atom to carry)
    for j in range(end, len(texts)):  # the carry goes to the next word with an atom
        nxt = atoms(str(texts[j]))
        if not nxt:
            continue
        k = bisect.bisect_right(ends, j)
        line_start = ends[k - 1] if k else 0
        if j != line_start:
            if not _uncut(line_start, ends[k], j - 1, x0, x1, y0, y1):
                return None
            return ()  # not the first word of its line: the carried atom stands alone
        return (parts[-1], nxt[0], j) if str(texts[j])[:1].islower() else ()
    return ()


def _uncut(start: int, end: int, i: int, x0: Sequence[float], x1: Sequence[float],
           y0: Sequence[float], y1: Sequence[float]) -> bool:
    """Whether no column gap (words.py's COLUMN_GAP_HEIGHTS) follows word ``i`` of the line
    ``start…end``."""
    if i >= end - 1:
        return True
    limit = COLUMN_GAP_HEIGHTS * max(map(operator.sub, y1[start:end], y0[start:end]))
    return x0[i + 1] - x1[i] <= limit
