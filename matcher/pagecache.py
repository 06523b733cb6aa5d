"""A bounded cache of page word models, least recently used first out, sized in bytes.

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
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

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

Key = tuple[Hashable, int]


def page_bytes(words: PageWords) -> int:
    """The estimated memory of one page model (see WORD_BYTES)."""
    return PAGE_BYTES + WORD_BYTES * len(words.words) + LINE_BYTES * len(words.lines)


class PageCache:
    """Page models by ``(owner, page)``, the least recently used dropped past ``max_bytes``."""

    def __init__(self, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, not {max_bytes}")
        self.max_bytes = max_bytes
        self._pages: OrderedDict[Key, tuple[PageWords, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """The estimated bytes held now (never above ``max_bytes`` after a ``put``)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._pages)

    def get(self, key: Key) -> PageWords | None:
        """The page stored under ``key`` (now the most recently used), or None."""
        with self._lock:
            got = self._pages.get(key)
            if got is None:
                return None
            self._pages.move_to_end(key)
            return got[0]

    def put(self, key: Key, words: PageWords) -> None:
        """Store ``words`` under ``key``, dropping the least recently used past the budget.

        A page larger than the whole budget is not kept (its caller still has it).
        """
        size = page_bytes(words)
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return
            self._pages[key] = (words, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _key, (_words, freed) = self._pages.popitem(last=False)
                self._bytes -= freed

    def discard(self, key: Key) -> None:
        """Forget one page (after OCR words were stored for it, say)."""
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def discard_owner(self, owner: Hashable) -> None:
        """Forget every page of one document (when it is closed)."""
        with self._lock:
            for key in [k for k in self._pages if k[0] == owner]:
                self._bytes -= self._pages.pop(key)[1]


_SHARED = PageCache()


def shared_cache() -> PageCache:
    """The process-wide cache PdfSources use unless given one."""
    return _SHARED
