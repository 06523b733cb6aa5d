"""A page's word tuples kept in flat arrays, from the index's reading to the model's.

The document index reads every page's ``get_text("words")`` tuples and keeps only their
atoms; a page that later becomes a candidate for an unhinted quote was read by MuPDF
again for its model (2–3 ms a page, most of it MuPDF's text extraction). Kept as
tuples, the words cost about 270 bytes each (a tuple, four floats, a string); packed
here into C arrays and one string, about 60, so the pages an index has just read can
wait in a small cache (:data:`matcher.pagecache.shared_packed`) for the quotes that need
their models, without memory growing with the documents.

>>> raw = [(1.0, 2.0, 3.0, 4.0, "Flood", 0, 0, 0), (5.0, 2.0, 9.5, 4.0, "cover", 0, 0, 1)]
>>> pack(raw).unpack() == raw
True
>>> pack(raw).columns() == list(zip(*raw))
True
"""

from __future__ import annotations

import itertools
import sys
from array import array
from collections.abc import Sequence
from typing import Any

# Array type codes: the four coordinates as C doubles (a Python float is one, so nothing
# is rounded); block, line and word numbers as C ints; each word's end in the text.
_COORD = "d"
_NUMBER = "i"
_END = "L"


class PackedWords:
    """One page's ``(x0, y0, x1, y1, text, block, line, word)`` tuples, packed."""

    __slots__ = ("_columns", "_ends", "_text")

    def __init__(self, columns: tuple[array[float] | array[int], ...], text: str,
                 ends: array[int]) -> None:
        self._columns = columns
        self._text = text
        self._ends = ends

    def __len__(self) -> int:
        return len(self._ends)

    @property
    def nbytes(self) -> int:
        """The memory it holds: its arrays' items and its string (within a few dozen bytes)."""
        arrays = (*self._columns, self._ends)
        return sum(a.itemsize * len(a) for a in arrays) + sys.getsizeof(self._text)

    def unpack(self) -> list[tuple[Any, ...]]:
        """The word tuples again, equal to the ones packed."""
        x0, y0, x1, y1, texts, block, line, word = self.columns()
        return list(zip(x0, y0, x1, y1, texts, block, line, word, strict=True))

    def columns(self) -> list[tuple[Any, ...]]:
        """The tuples' eight fields as columns, as ``list(zip(*self.unpack()))`` gives them
        (what a page model reads, without making a tuple per word first)."""
        ends = self._ends
        texts = tuple(map(self._text.__getitem__, map(slice, itertools.chain((0,), ends), ends)))
        x0, y0, x1, y1, block, line, word = map(tuple, self._columns)
        return [x0, y0, x1, y1, texts, block, line, word]


def pack(raw: Sequence[Sequence[Any]]) -> PackedWords | None:
    """``raw``'s word tuples packed, or None when they are not PyMuPDF's plain kind (eight
    fields: four numbers, a string and three small ints), which are kept as they are."""
    try:
        cols = list(zip(*raw, strict=True)) or [()] * 8
        if len(cols) != 8:
            return None
        # A coordinate that is an int comes back a float: the page model reads it so.
        coords = tuple(array(_COORD, c) for c in cols[:4])
        numbers = tuple(array(_NUMBER, c) for c in cols[5:])
        texts: tuple[str, ...] = cols[4]
        text = "".join(texts)
    except (TypeError, ValueError, OverflowError):  # (not a number, a string, an int)
        return None
    ends = array(_END, itertools.accumulate(map(len, texts)))
    return PackedWords((*coords, *numbers), text, ends)
