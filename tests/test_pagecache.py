"""The page cache keeps the most recently used pages within its byte budget."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.pagecache import PageCache, page_bytes
from matcher.words import PageWords, Word


def page(n: int, words: int) -> PageWords:
    row = tuple(Word(10.0 * i, 0.0, 10.0 * i + 8, 10.0, f"w{i}", 0) for i in range(words))
    return PageWords(n, row, ())


_OPS = st.lists(st.tuples(st.sampled_from(["put", "get", "discard"]),
                          st.integers(0, 2), st.integers(0, 9), st.integers(0, 40)),
                max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60_000), _OPS)
def test_the_cache_never_holds_more_than_its_budget_and_drops_the_least_recent(
        budget: int, ops: list[tuple[str, int, int, int]]) -> None:
    cache = PageCache(max_bytes=budget)
    recent: list[tuple[tuple[int, int], int]] = []  # a model of it: (key, bytes), oldest first
    for op, owner, n, words in ops:
        key = (owner, n)
        if op == "put":
            pw = page(n, words)
            cache.put(key, pw)
            recent = [r for r in recent if r[0] != key]
            if page_bytes(pw) <= budget:
                recent.append((key, page_bytes(pw)))
            while sum(b for _, b in recent) > budget:
                recent.pop(0)
        elif op == "get":
            got = cache.get(key)
            held = [r for r in recent if r[0] == key]
            assert (got is not None) == bool(held)
            if held:
                recent = [r for r in recent if r[0] != key] + held
        else:
            cache.discard(key)
            recent = [r for r in recent if r[0] != key]
        assert cache.bytes <= budget
        assert cache.bytes == sum(b for _, b in recent)
        assert len(cache) == len(recent)


def test_discarding_an_owner_forgets_its_pages_only() -> None:
    cache = PageCache(max_bytes=1 << 20)
    for owner in "ab":
        for n in range(3):
            cache.put((owner, n), page(n, 5))
    cache.discard_owner("a")
    assert [cache.get(("a", n)) for n in range(3)] == [None] * 3
    assert all(cache.get(("b", n)) is not None for n in range(3))


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        PageCache(max_bytes=-1)


def test_a_source_reads_evicted_pages_again_alike(tmp_path: Path) -> None:
    """A source with a one-page budget holds at most one page, and a page read again after
    eviction has the same words; closing the source empties its part of the cache."""
    path = tmp_path / "three.pdf"
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 100), f"page {n} flood cover", fontsize=10)
    doc.save(path)
    doc.close()
    with PdfSource(path, cache=PageCache(max_bytes=0)) as uncached:
        one = page_bytes(uncached.page_words(0))
    cache = PageCache(max_bytes=one + one // 2)
    src = PdfSource(path, cache=cache)
    first = [src.page_words(n) for n in range(3)]
    assert len(cache) == 1 and cache.bytes <= cache.max_bytes
    assert [src.page_words(n) for n in range(3)] == first
    assert [w.text for w in first[1].words] == ["page", "1", "flood", "cover"]
    src.close()
    assert len(cache) == 0
