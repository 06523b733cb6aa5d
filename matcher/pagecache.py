"""Bounded caches of pages, least recently used first out, sized in bytes.

A :class:`~matcher.words.PageWords` of a text page holds a few hundred words, their lines,
atoms and position tables: tens to hundreds of kilobytes once placement has read it.
Keeping every page of every document of a check (or of a worker's lifetime) makes memory
grow with the sum of the documents; one :class:`PageCache` keeps the pages most recently
asked for, up to a byte budget, so memory grows with what is being looked at.

One cache may serve many documents (a check's, or a batch worker's): keys are
``(owner, page)``, where ``owner`` is any hashable naming the document (a
:class:`~matcher.document.PdfSource` uses a token of its own). Thread-safe.

>>> from matcher.words import PageWords
>>> cache = PageCache(max_bytes=page_bytes(PageWords(0, (), ())) * 2)
>>> for n in range(3):
...     cache.put(("doc", n), PageWords(n, (), ()))
>>> [n for n in range(3) if cache.get(("doc", n)) is not None]
[1, 2]

The same kind of cache (:class:`ByteCache`) keeps pages' packed word arrays
(:mod:`matcher.packedwords`) between the document index's reading of a page and the
reading of its model.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from .packedwords import PackedWords
from .words import PageWords

# The budget of the process-wide cache every PdfSource shares unless given its own: about
# 700 text pages with their placement tables. A check visits its documents in the file's
# order, and the pages an item cites come round again: on benchmarks/bench_check.py's
# 100-document file (2,041 pages, items round-robin over the documents) 64 MB read pages
# again and again (27 s of CPU against 15 s keeping every page, peak RSS 408 against
# 724 MB); 192 MB took 16 s and 529 MB. At 25 documents 64 MB already cost no CPU.
DEFAULT_MAX_BYTES = 192 << 20
# Bytes a page model costs per word: tracemalloc counts 440–480 a word on corpus pages
# (a book, a form, a three-column register) once a placement has read the page (word and
# atom tuples, strings, floats, position tables); 700 with the line and page terms below
# errs high, so the cache holds less than its budget rather than more.
WORD_BYTES = 700
# And per line (its tuple, box and word-index tuple), and for the page's fixed parts.
LINE_BYTES = 300
PAGE_BYTES = 2_000
# The budget of the process-wide cache of packed word arrays: the pages a document index
# has read wait there for the quotes whose candidates they are (a page's model is read
# from them, not from MuPDF again). 62 bytes a word: the 25-document file of
# benchmarks/bench_check.py (532 pages) packs into 12 MB, 100 documents into 47 MB.
DEFAULT_PACKED_BYTES = 32 << 20

Key = tuple[Hashable, int]
V = TypeVar("V")


def page_bytes(words: PageWords) -> int:
    """The estimated memory of one page model (see WORD_BYTES)."""
    return PAGE_BYTES + WORD_BYTES * len(words.words) + LINE_BYTES * len(words.lines)


class ByteCache(Generic[V]):
    """Values by ``(owner, page)``, the least recently used dropped past ``max_bytes``
    (each value weighing ``size(value)`` bytes)."""

    def __init__(self, size: Callable[[V], int], *, max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, not {max_bytes}")
        self.max_bytes = max_bytes
        self._size = size
        self._pages: OrderedDict[Key, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """The estimated bytes held now (never above ``max_bytes`` after a ``put``)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, key: Key) -> V | None:
        """The page stored under ``key`` (now the most recently used), or None."""
        with self._lock:
            got = self._pages.get(key)
            if got is None:
                return None
            self._pages.move_to_end(key)
            return got[0]

    def put(self, key: Key, value: V) -> None:
        """Store ``value`` under ``key``, dropping the least recently used past the budget.

        A value larger than the whole budget is not kept (its caller still has it).
        """
        size = self._size(value)
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return
            self._pages[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _key, (_value, freed) = self._pages.popitem(last=False)
                self._bytes -= freed

    def discard(self, key: Key) -> None:
        """Forget one page (after OCR words were stored for it, say)."""
        self.pop(key)

    def pop(self, key: Key) -> V | None:
        """The value stored under ``key``, forgotten (None if there was none)."""
        with self._lock:
            old = self._pages.pop(key, None)
            if old is None:
                return None
            self._bytes -= old[1]
            return old[0]

    def discard_owner(self, owner: Hashable) -> None:
        """Forget every page of one document (when it is closed)."""
        with self._lock:
            for key in [k for k in self._pages if k[0] == owner]:
                self._bytes -= self._pages.pop(key)[1]


class PageCache(ByteCache[PageWords]):
    """Page models by ``(owner, page)``, the least recently used dropped past ``max_bytes``."""

    def __init__(self, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        super().__init__(page_bytes, max_bytes=max_bytes)


def packed_cache(*, max_bytes: int = DEFAULT_PACKED_BYTES) -> ByteCache[PackedWords]:
    """A cache of pages' packed word arrays, sized by what they hold."""
    return ByteCache(_packed_bytes, max_bytes=max_bytes)


def _packed_bytes(words: PackedWords) -> int:
    return words.nbytes


_SHARED = PageCache()
_SHARED_PACKED = packed_cache()


def shared_cache() -> PageCache:
    """The process-wide cache PdfSources use unless given one."""
    return _SHARED


def shared_packed() -> ByteCache[PackedWords]:
    """The process-wide cache of packed word arrays PdfSources use unless given one."""
    return _SHARED_PACKED
