"""Which chunks could hold a quote, found before any alignment: chunk repair in milliseconds.

Repairing a chunk id means asking every other chunk whether it holds the quote. Asked
naively, that folds every chunk again for every quote and runs a fuzzy alignment against
each (the seed's "retry against the whole window"); over a file of a thousand chunks that
is minutes. Here each chunk is folded once per check (:class:`FoldedChunk`, on first
use), and an index of character trigrams says which chunks *can* hold an accepted span,
so :func:`matcher.span.locate_span` runs only against those.

Why no holder is ever missed. ``locate_span`` accepts a span in three ways, each implying
the next: the quote verbatim in the raw text; the folded quote (the *needle*, of length
``L``) verbatim in the folded chunk; or a fuzzy alignment scoring at least
``ACCEPT_SCORE``. That score is rapidfuzz's normalised Indel similarity of the needle
against a window of the folded chunk no longer than the needle, so the two differ by at
most ``d = 2 · (1 − ACCEPT_SCORE/100) · L`` insertions and deletions (``0.1 · L`` at 95).
Each deleted character breaks at most 3 of the needle's ``L − 2`` trigrams and each
insertion at most 2, so at least ``T = L − 2 − 3d`` of them (counted with repetition)
stand unbroken in the window, hence in the chunk. So a chunk is aligned only when the
needle's trigrams it holds at all add up (with the needle's repetitions) to ``T`` or more
— an upper bound of what it shares. A chunk shorter than the needle is aligned inside the
needle instead, and the same argument holds with the chunk's length for ``L``. A needle
too short for ``T`` to be positive is aligned against every chunk.

Counting is done for all chunks at once: each trigram's posting is a bit set of chunk
positions, and the counts are kept bit-sliced (:class:`_BitCounter`), so a quote costs a
few big-integer operations per trigram, not one per chunk.

The filter depends only on ``ACCEPT_SCORE`` and on the alignment being rapidfuzz's
``partial_ratio_alignment``; a stricter verdict (fewer spans accepted) keeps it sound.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence

from .citations import Chunk
from .normalize import Folded, fold, fold_text
from .span import ACCEPT_SCORE

GRAM = 3  # trigrams: selective in prose, and each edit breaks at most three
# Edits an accepted alignment may hide, per needle character (see the module docstring):
# a window W <= L long scores 100 * (1 - d / (L + W)), so d <= (1 - score/100) * 2L.
MAX_EDITS_PER_CHAR = 2 * (1 - ACCEPT_SCORE / 100)
# The trigram index is built when this many quotes have needed repair (see candidates).
INDEX_FROM_QUERY = 2
# Back-maps are stored as C unsigned ints (4 bytes per character) rather than a tuple of
# Python ints (~36 bytes each): a thousand folded 1,500-character chunks take 6 MB, not 54.
_BACK_TYPECODE = "I"


class FoldedChunk:
    """A chunk's folded text and compact back-map, each made on first use and kept.

    Offers what :func:`matcher.span.locate_span` reads of a :class:`Folded` (``text``
    and ``raw_span``), so a quote that matches verbatim never pays for the fold.
    """

    __slots__ = ("_back", "_raw", "_text")

    def __init__(self, raw: str) -> None:
        self._raw = raw
        self._text: str | None = None
        self._back: array[int] | None = None

    def _fold(self) -> tuple[str, array[int]]:
        if self._text is None or self._back is None:
            folded: Folded = fold(self._raw)
            code = _BACK_TYPECODE if len(self._raw) < 2 ** 32 else "Q"
            self._text, self._back = folded.text, array(code, folded.back)
        return self._text, self._back

    @property
    def text(self) -> str:
        """The folded text; its back-map waits until a span in it is mapped back (most
        chunks are only compared: the trigram index reads every one)."""
        if self._text is None:
            self._text = fold_text(self._raw)
        return self._text

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """The raw range of folded ``[start, end)``: ``back[end - 1] + 1`` ends it, as in
        :meth:`matcher.normalize.Folded.raw_span` (``back[end]`` would swallow what the
        fold dropped)."""
        text, back = self._fold()
        if not 0 <= start < end <= len(text):
            raise ValueError(f"folded range [{start}, {end}) outside 0..{len(text)}")
        return back[start], back[end - 1] + 1


def shared_trigrams_needed(length: int) -> int:
    """How many of its trigrams a folded text of ``length`` characters keeps, at least, in
    any window it aligns with at ``ACCEPT_SCORE`` or better (≤ 0: no bound)."""
    max_edits = math.floor(MAX_EDITS_PER_CHAR * length) + 1  # +1: a margin for float rounding
    return (length - GRAM + 1) - GRAM * max_edits


class ChunkIndex:
    """The chunks of one citations file (or context window), each folded at most once,
    and an index of their trigrams, built when a second quote needs repair.

    >>> idx = ChunkIndex([Chunk(id="a", text="Flood is covered by this policy."),
    ...                   Chunk(id="b", text="Theft needs a police report.")])
    >>> needle = fold("Theft needs a police report").text
    >>> [idx.chunks[i].id for i in (idx.candidates(needle), idx.candidates(needle))[1]]
    ['b']

    Building costs one fold and one pass over each chunk's text; a query costs a
    look-up and a bit-set addition per distinct trigram of the quote.
    """

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks: tuple[Chunk, ...] = tuple(chunks)
        # Id → position; the last of two chunks with one id wins, as a dict of them would.
        self._position = {c.id: i for i, c in enumerate(self.chunks)}
        self.folds: tuple[FoldedChunk, ...] = tuple(FoldedChunk(c.text) for c in self.chunks)
        self._postings: dict[str, int] | None = None
        self._lengths: list[int] = []
        self._queries = 0

    def position(self, chunk_id: str) -> int | None:
        """Where the chunk with this id stands in :attr:`chunks`, or ``None``."""
        return self._position.get(chunk_id)

    def candidates(self, needle: str) -> list[int]:
        """Positions in :attr:`chunks`, ascending, of every chunk that could hold an
        accepted span of the folded quote ``needle`` (a superset; see the module)."""
        must_share = shared_trigrams_needed(len(needle))
        self._queries += 1
        # Indexing costs about what aligning against every chunk once does, so a single
        # repair (one quote against a small window) goes without; a second one builds it.
        if must_share <= 0 or (self._postings is None and self._queries < INDEX_FROM_QUERY):
            return list(range(len(self.chunks)))
        postings = self._index()
        grams = Counter(needle[i:i + GRAM] for i in range(len(needle) - GRAM + 1))
        counter = _BitCounter()
        for gram, times in grams.items():
            holders = postings.get(gram)
            if holders:
                counter.add(holders, times)
        found = counter.at_least(must_share)
        # A chunk no longer than the needle is aligned inside the needle instead (rapidfuzz
        # swaps them), so the bound is the chunk's own: its length decides the threshold.
        for pos, size in enumerate(self._lengths):
            if size <= len(needle):
                shares = sum(times for gram, times in grams.items()
                             if postings.get(gram, 0) >> pos & 1)
                if shares >= shared_trigrams_needed(size):
                    found |= 1 << pos
        return list(_bits(found))

    def _index(self) -> dict[str, int]:
        """Trigram → bit set of the chunk positions holding it (built once)."""
        if self._postings is None:
            postings: dict[str, int] = {}
            lengths: list[int] = []
            for pos, folded in enumerate(self.folds):
                text = folded.text
                lengths.append(len(text))
                bit = 1 << pos
                for g in _distinct_grams(text):
                    postings[g] = postings.get(g, 0) | bit
            self._postings, self._lengths = postings, lengths
        return self._postings


class _BitCounter:
    """Counters for many chunks at once, kept bit-sliced: ``planes[j]`` holds bit ``j`` of
    every chunk's count (chunk ``c`` at bit ``c``), so adding to all the chunks of a
    posting is a few operations on whole integers, not one per chunk."""

    __slots__ = ("planes",)

    def __init__(self) -> None:
        self.planes: list[int] = []

    def add(self, members: int, amount: int) -> None:
        """Add ``amount`` (≥ 0) to the count of every chunk in the bit set ``members``."""
        level = 0
        while amount:
            if amount & 1:
                carry, j = members, level
                while carry:  # ripple-carry addition, one plane at a time
                    while j >= len(self.planes):
                        self.planes.append(0)
                    plane = self.planes[j]
                    self.planes[j], carry = plane ^ carry, plane & carry
                    j += 1
            amount >>= 1
            level += 1

    def at_least(self, threshold: int) -> int:
        """The bit set of chunks whose count is ``threshold`` or more."""
        if threshold <= 0:
            raise ValueError("threshold must be positive")
        if threshold.bit_length() > len(self.planes):
            return 0  # no count has that many binary digits
        # From the highest digit down: `above` already exceeds the threshold's prefix,
        # `equal` matches it so far.
        above, equal = 0, -1
        for j in range(len(self.planes) - 1, -1, -1):
            plane = self.planes[j]
            if (threshold >> j) & 1:
                equal &= plane
            else:
                above |= equal & plane
                equal &= ~plane
        # `equal` is finite by now: the threshold has a 1 digit, where it met a plane.
        return above | equal


def _bits(members: int) -> Iterator[int]:
    """Positions of the set bits, ascending."""
    while members:
        low = members & -members
        yield low.bit_length() - 1
        members ^= low


def _distinct_grams(text: str) -> set[str]:
    return {text[i:i + GRAM] for i in range(len(text) - GRAM + 1)}
