"""The chunk text around a quote, used to tell apart copies of it on the page.

When an evidence item names a chunk that holds the quote, the words just before and after
the quote in that chunk are what the quote was taken beside. A page copy with those words
around it is the one quoted (as web annotations anchor by prefix and suffix): a name
printed twice on a form, a line of boilerplate repeated down a column, the same heading
on two pages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .normalize import atoms as split_atoms
from .words import PageWords

# Atoms of context read on each side of the quote, in the chunk and on the page.
CONTEXT_ATOMS = 8
# A context atom counts fully when it stands on the page at most RARE_COUNT times, and
# COMMON_WEIGHT when more often ("the" beside one copy and not another is coincidence).
RARE_COUNT = 3
COMMON_WEIGHT = 0.25
# The copy chosen by its context must agree with the chunk by at least this much more
# than any other copy: one rare word of the context beside it that the others lack.
CONTEXT_MARGIN = 1.0


@dataclass(frozen=True, slots=True)
class QuoteContext:
    """Up to CONTEXT_ATOMS atoms before and after the quote in its chunk."""

    before: tuple[str, ...]
    after: tuple[str, ...]

    @classmethod
    def around(cls, text: str, start: int, end: int) -> QuoteContext:
        """The context of ``text[start:end]`` (a chunk's raw text and a char span)."""
        before = split_atoms(text[max(0, start - 30 * CONTEXT_ATOMS):start])
        after = split_atoms(text[end:end + 30 * CONTEXT_ATOMS])
        return cls(tuple(before[-CONTEXT_ATOMS:]), tuple(after[:CONTEXT_ATOMS]))

    def agreement(self, page: PageWords, first: int, last: int) -> float:
        """How much of the context stands around page atoms ``first…last`` (order-free),
        each atom weighted by how rare it is on the page."""
        texts, counts = page.atom_texts, page.atom_counts
        before = Counter(texts[max(0, first - CONTEXT_ATOMS):first]) & Counter(self.before)
        after = Counter(texts[last + 1:last + 1 + CONTEXT_ATOMS]) & Counter(self.after)
        return sum(k * (1.0 if counts.get(a, 0) <= RARE_COUNT else COMMON_WEIGHT)
                   for a, k in (before + after).items())

    def choose_among(self, places: Sequence[tuple[PageWords, Sequence[int]]]) -> int | None:
        """The index of the place (a page and its highlighted words) its context picks."""
        return _clear_winner([self.agreement(page, *_atom_span(page, words))
                              for page, words in places])

    def choose(self, page: PageWords, copies: Sequence[tuple[int, int]]) -> int | None:
        """The index of the copy (first, last page atom) its context picks out, or None."""
        if len(copies) < 2 or not (self.before or self.after):
            return None
        return _clear_winner([self.agreement(page, a, b) for a, b in copies])


def _clear_winner(scores: Sequence[float]) -> int | None:
    """The index of the top score if it beats every other by CONTEXT_MARGIN, else None."""
    if len(scores) < 2:
        return None
    best = max(range(len(scores)), key=scores.__getitem__)
    rest = max(s for k, s in enumerate(scores) if k != best)
    return best if scores[best] - rest >= CONTEXT_MARGIN else None


def _atom_span(page: PageWords, words: Sequence[int]) -> tuple[int, int]:
    """The first and last page atom positions read from ``words``."""
    mine = set(words)
    spots = [pos for pos, a in enumerate(page.atoms) if mine.intersection(a.words)]
    return (spots[0], spots[-1]) if spots else (0, -1)

