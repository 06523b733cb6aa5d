"""Find in the document, as plain data: the hits of one search and which one is current.

The check process searches (:mod:`viewer.checker.find`) and streams :class:`FindHit`
records back a page at a time; :class:`FindResults` collects them in page order as they
arrive, keeps the current hit, and says in words how far the search has got. No Qt, so
a unit test drives it directly.

>>> results = FindResults()
>>> results.start("limit", document="a.pdf", pages=3, start_page=1)
>>> results.add([FindHit(2, ((1.0, 2.0, 3.0, 4.0),), "the", "limit", "of")])
>>> results.add([FindHit(0, ((1.0, 2.0, 3.0, 4.0),), "no", "limit", "here")])
>>> [h.page for h in results.hits], results.current_hit().page
([0, 2], 2)
>>> results.finish(2)
>>> results.status_text()
'2 of 2 matches'
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from matcher.vocabulary import Rect

# A search stops collecting after this many hits: a one-letter query on 500 pages would
# otherwise send tens of thousands, and no one steps through more than a few hundred.
MAX_HITS = 5000

FindState = Literal["idle", "running", "done", "stopped", "failed"]


@dataclass(frozen=True, slots=True)
class FindHit:
    """One place the search text stands: its page, one rectangle per line, and context."""

    page: int  # 0-based
    rects: tuple[Rect, ...]  # words space (as evidence rectangles), one per line
    before: str  # a few words before the hit, as printed
    text: str  # the words the hit covers, as printed
    after: str


class FindResults:
    """The hits of the current search, in page order, and which one is current."""

    def __init__(self) -> None:
        self.query = ""
        self.document: str | None = None
        self.hits: list[FindHit] = []
        self.current = -1
        self.state: FindState = "idle"
        self.pages = 0  # how many pages the document has
        self.searched = 0  # how many of them the search has read
        self.message = ""  # why a search failed
        self.start_page = 0
        self.version = 0  # grows whenever the list of hits changes
        self._pages: list[int] = []  # hit pages, parallel to ``hits`` (for bisect)
        self._listeners: list[Callable[[], None]] = []

    # -- listening ----------------------------------------------------------------------
    def connect(self, callback: Callable[[], None]) -> None:
        self._listeners.append(callback)

    def _changed(self) -> None:
        for callback in list(self._listeners):
            callback()

    # -- a search -----------------------------------------------------------------------
    def start(self, query: str, *, document: str | None, pages: int, start_page: int = 0
              ) -> None:
        """Forget the last search and begin one for ``query`` from ``start_page``."""
        self.query, self.document, self.pages = query, document, pages
        self.start_page = max(0, start_page)
        self.hits, self._pages, self.current = [], [], -1
        self.version += 1
        self.searched, self.message = 0, ""
        self.state = "running" if query.strip() else "idle"
        self._changed()

    def clear(self) -> None:
        self.start("", document=None, pages=0)

    def add(self, hits: Iterable[FindHit]) -> None:
        """Take hits as they arrive (any page order; each page's own hits in order)."""
        added = False
        for hit in hits:
            if len(self.hits) >= MAX_HITS:
                break
            # After every hit already on this page: a page's hits arrive together.
            at = bisect.bisect_right(self._pages, hit.page)
            self.hits.insert(at, hit)
            self._pages.insert(at, hit.page)
            if self.current >= at:
                self.current += 1
            added = True
        if added:
            self.version += 1
            self._choose_current()
            self._changed()

    def progress(self, searched: int, pages: int) -> None:
        self.searched, self.pages = searched, pages
        self._changed()

    def finish(self, _total: int | None = None) -> None:
        self.state = "done"
        self.searched = self.pages
        self._choose_current(final=True)
        self._changed()

    def stop(self) -> None:
        """The person stopped the search: the hits found so far stay."""
        if self.state == "running":
            self.state = "stopped"
            self._changed()

    def fail(self, message: str) -> None:
        self.state, self.message = "failed", message
        self._changed()

    def _choose_current(self, *, final: bool = False) -> None:
        """The first hit at or after the page the search started from, once one is known
        (the search reads from there on, then wraps round)."""
        if self.current >= 0 or not self.hits:
            return
        at = bisect.bisect_left(self._pages, self.start_page)
        if at < len(self.hits):
            self.current = at
        elif final or self.searched >= self.pages:
            self.current = 0  # nothing after the start page: wrap to the first hit

    # -- stepping -----------------------------------------------------------------------
    @property
    def full(self) -> bool:
        return len(self.hits) >= MAX_HITS

    def current_hit(self) -> FindHit | None:
        return self.hits[self.current] if 0 <= self.current < len(self.hits) else None

    def step(self, delta: int) -> FindHit | None:
        """Make the hit ``delta`` away current (wrapping round); None when there is none."""
        if not self.hits:
            return None
        if self.current < 0:
            self.current = 0 if delta > 0 else len(self.hits) - 1
        else:
            self.current = (self.current + delta) % len(self.hits)
        self._changed()
        return self.hits[self.current]

    def choose(self, index: int) -> FindHit | None:
        if not 0 <= index < len(self.hits):
            return None
        self.current = index
        self._changed()
        return self.hits[index]

    def by_page(self) -> dict[int, list[Rect]]:
        """Every hit's rectangles per 0-based page (what the find marks paint)."""
        out: dict[int, list[Rect]] = {}
        for hit in self.hits:
            out.setdefault(hit.page, []).extend(hit.rects)
        return out

    # -- words ----------------------------------------------------------------------------
    def status_text(self) -> str:
        """Where the search stands, in a few words ("3 of 17 matches")."""
        n = len(self.hits)
        if self.state == "idle":
            return ""
        if self.state == "failed":
            return f"Search failed: {self.message}"
        count = f"{n:,} match{'es' if n != 1 else ''}"
        if self.full:
            count = f"the first {MAX_HITS:,} matches"
        if self.state == "running":
            return f"Searching… {count} so far (page {self.searched} of {self.pages})"
        if n == 0:
            tail = "" if self.state == "done" else \
                f" in the {self.searched} pages searched"
            return f"No matches{tail}"
        position = f"{self.current + 1:,} of " if self.current >= 0 else ""
        if self.state == "stopped":
            return f"{position}{count} (stopped after {self.searched} of {self.pages} pages)"
        return f"{position}{count}"
