"""Find text on a document's pages: the check process's side of the window's find bar.

A page's words are folded the way the matcher folds quotes (:func:`matcher.normalize.
fold_char`: case, accents, curly quotes, dashes, ligatures), joined into one string with a
space between words and lines, and a word hyphenated at a line end is joined to its
second half, as :mod:`matcher.words` reads it. The query is folded the same way, so
"Sub-scription" typed with a plain hyphen finds "sub­-\\nscription" across the line
break, and a hit may span lines. Every folded character remembers its word, so a hit is
the word boxes it covers: one rectangle per line, in the same words space as evidence.

Folded pages are kept per document (:class:`FoldedPages`), so the second search of a
document reads no PDF at all. Runs in the check process; no Qt.
"""

from __future__ import annotations

import operator
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matcher.document import PageText, PdfSource
from matcher.normalize import fold
from matcher.ocr.store import OcrStore
from matcher.vocabulary import Rect
from matcher.words import PageWords

from ..state.find import MAX_HITS, FindHit
from ..state.selection import union
from .find_sketch import LINE_END_HYPHENS, PageSketch, fold_word, may_hold, sketch_page

# Documents whose folded pages are kept: the one shown and the one before it.
KEPT_DOCUMENTS = 2
# Words of context shown on each side of a hit in the hit list.
CONTEXT_WORDS = 6
_BOX = operator.itemgetter(slice(0, 4))
_LINE = operator.attrgetter("line")
_TEXT = operator.attrgetter("text")
# A word that ends a line in one of LINE_END_HYPHENS continues on the next line when that
# starts with a lowercase letter (matcher.words joins the same way).


@dataclass(frozen=True, slots=True)
class FoldedPage:
    """One page's words folded into one string; ``owner[i]`` is the word of character i
    (-1 for the space between words)."""

    text: str
    owner: array[int]
    boxes: tuple[Rect, ...]  # per word
    lines: tuple[int, ...]  # per word, its line
    words: tuple[str, ...]  # per word, as printed


def fold_page(page: PageWords) -> FoldedPage:
    """Fold ``page``'s words into one searchable string (see the module docstring).

    One Python step per word for the usual word (ASCII, no space in it: folding lowers
    its case and nothing else that a search compares); others go through the matcher's
    fold character by character. Linear in the page's characters.
    """
    parts: list[str] = []
    owner = array("i")
    words = page.words
    space = False  # a space goes before the next word (none at the start, none after "sub-")
    for li, line in enumerate(page.lines):
        if line.skewed:
            continue  # a diagonal watermark: no axis-aligned box would fit a hit on it
        last = len(line.words) - 1
        for k, wi in enumerate(line.words):
            text = words[wi].text
            joins = k == last and text.endswith(LINE_END_HYPHENS) and _continues(page, li)
            if joins:
                text = text.rstrip("".join(LINE_END_HYPHENS))
            folded = fold_word(text)
            if folded:
                if space:
                    parts.append(" ")
                    owner.append(-1)
                parts.append(folded)
                owner.extend([wi] * len(folded))
            space = bool(parts) and not joins
    # Each word's box (its first four fields, w.rect), line and text, read in C.
    return FoldedPage("".join(parts), owner, tuple(map(_BOX, words)), tuple(map(_LINE, words)),
                      tuple(map(_TEXT, words)))


def _continues(page: PageWords, li: int) -> bool:
    """Whether the line after ``li`` starts with a lowercase letter (a word's second half)."""
    following = page.lines[li + 1:li + 2]
    if not following or following[0].skewed:
        return False
    first = page.words[following[0].words[0]].text
    return first[:1].islower()


def fold_query(query: str) -> str:
    """The query as it is compared: folded, whitespace collapsed and trimmed."""
    return fold(query).text


def find_on_page(page: FoldedPage, number: int, needle: str) -> list[FindHit]:
    """Every non-overlapping place ``needle`` (folded) stands on ``page``, in order."""
    hits: list[FindHit] = []
    if not needle:
        return hits
    at = page.text.find(needle)
    while at >= 0:
        end = at + len(needle)
        covered = sorted({w for w in page.owner[at:end] if w >= 0})
        if covered:
            hits.append(_hit(page, number, covered))
        at = page.text.find(needle, end)
    return hits


def _hit(page: FoldedPage, number: int, covered: list[int]) -> FindHit:
    rects: list[Rect] = []
    by_line: dict[int, list[int]] = {}
    for w in covered:
        by_line.setdefault(page.lines[w], []).append(w)
    for ws in by_line.values():
        rects.append(union(page.boxes[w] for w in ws))
    first, last = covered[0], covered[-1]
    before = " ".join(page.words[max(0, first - CONTEXT_WORDS):first])
    after = " ".join(page.words[last + 1:last + 1 + CONTEXT_WORDS])
    return FindHit(number, tuple(rects), before,
                   " ".join(page.words[first:last + 1]), after)


def search_order(pages: int, start: int) -> Iterator[int]:
    """Pages from ``start`` to the end, then from the first back to ``start``: the hits
    nearest where the reader is arrive first."""
    start = min(max(start, 0), max(pages - 1, 0))
    yield from range(start, pages)
    yield from range(0, start)


@dataclass
class KeptDocument:
    """What is kept of one document between searches: its page count, its folded pages
    and the sketches of the pages no search has needed to fold."""

    page_count: int | None = None
    pages: dict[int, FoldedPage] = field(default_factory=dict)
    # Pages not folded yet: their sketch (None: only the full model tells), see find_sketch.
    sketches: dict[int, PageSketch | None] = field(default_factory=dict)


class FoldedPages:
    """Folded pages per document, kept for the next search; a changed file starts over."""

    def __init__(self) -> None:
        self._docs: OrderedDict[tuple[str, int, int], KeptDocument] = OrderedDict()

    def document(self, path: Path) -> KeptDocument:
        """What is kept for ``path`` as it is now (by size and modification time)."""
        st = path.stat()
        key = (str(path), st.st_size, st.st_mtime_ns)
        kept = self._docs.get(key)
        if kept is None:
            self.forget(path)
            kept = self._docs[key] = KeptDocument()
            while len(self._docs) > KEPT_DOCUMENTS:
                self._docs.popitem(last=False)
        self._docs.move_to_end(key)
        return kept

    def forget(self, path: Path) -> None:
        """Drop what is kept for ``path`` (a page of it was just recognised)."""
        for key in [k for k in self._docs if k[0] == str(path)]:
            del self._docs[key]


# A page's words, built from its word tuples when the caller has read them already.
Words = Callable[[int, "RawWords | None"], PageWords]
RawWords = list[Any]
# A page's text layer as MuPDF reads it, or None when its words come from elsewhere.
Raw = Callable[[int], "PageText | None"]


def search(kept: KeptDocument, page_count: int, words: Words, query: str, *,
           raw: Raw | None = None, start: int = 0, stop: Callable[[], bool] = lambda: False
           ) -> Iterator[tuple[int, list[FindHit]]]:
    """Search ``query`` page by page from ``start`` (wrapping round), folding pages not
    yet in ``kept.pages`` with ``words(n, …)``; yields ``(pages read, hits on that page)``
    and ends early once ``stop()`` is true. With ``raw``, a page not folded yet is first
    sketched from its plain text, and folded only if the query may stand on it
    (:mod:`.find_sketch`): the same hits, most pages read at MuPDF's speed."""
    needle = fold_query(query)
    pages, sketches = kept.pages, kept.sketches
    for done, n in enumerate(search_order(page_count, start), 1):
        if stop():
            return
        page = pages.get(n)
        if page is None:
            tuples = None
            if raw is not None and n not in sketches:
                layer = raw(n)
                sketches[n] = sketch = sketch_page(None if layer is None else layer.text)
                if sketch is None or may_hold(sketch, needle):
                    tuples = None if layer is None else layer.words()  # the same reading
            else:
                sketch = sketches.get(n)
            if sketch is not None and not may_hold(sketch, needle):
                yield done, []
                continue
            page = pages[n] = fold_page(words(n, tuples))
            sketches.pop(n, None)
        yield done, find_on_page(page, n, needle)


# Hits found on later pages are sent together at most this often (seconds); the first
# ones go at once, so the window shows the first hit as soon as it is found.
SEND_EVERY_S = 0.1

Send = Callable[[tuple[FindHit, ...]], None]
Progress = Callable[[int, int], None]


def find_in_document(folded: FoldedPages, path: Path, query: str, *, start: int = 0,
                     password: str | None = None, send: Send, progress: Progress,
                     stop: Callable[[], bool]) -> int:
    """Search ``path`` for ``query``, sending hits as they are found; returns the number
    of pages read (fewer than the document's when ``stop()`` turned true). Raises
    :class:`~matcher.document.DocumentError` when the PDF cannot be opened."""
    kept = folded.document(path)
    source: PdfSource | None = None

    def opened() -> PdfSource:
        nonlocal source
        if source is None:
            source = PdfSource(path, password=password, ocr=OcrStore.default())
        return source

    batch: list[FindHit] = []
    sent_any, last_sent, read, total_hits = False, time.monotonic(), 0, 0
    try:
        if kept.page_count is None:
            kept.page_count = opened().page_count
        count = kept.page_count
        for read, hits in search(kept, count, lambda n, tuples: opened().page_words(
                                     n, raw=tuples), query, raw=lambda n: opened().text_layer(n),
                                 start=start, stop=stop):
            hits = hits[:max(0, MAX_HITS - total_hits)]
            total_hits += len(hits)
            batch += hits
            now = time.monotonic()
            if batch and (not sent_any or now - last_sent >= SEND_EVERY_S):
                send(tuple(batch))
                batch, sent_any, last_sent = [], True, now
            if read % 10 == 0 or read == count:
                progress(read, count)
            if total_hits >= MAX_HITS:
                break
        if batch:
            send(tuple(batch))
    finally:
        if source is not None:
            source.close()
    return read
