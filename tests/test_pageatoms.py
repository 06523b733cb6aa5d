"""The index's cheap page atoms are the full model's atoms, or it says it cannot tell.

The document index reads each page through :func:`matcher.pageatoms.raw_atom_set`; a
page it misreads would be a page an unhinted quote is never looked for on. So: over
generated word arrays (hyphens at line ends, lines set at an angle, punctuation, accents)
and over real PDFs, the set is exactly the atoms of ``PageWords.from_raw`` or None.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.locate import DocumentIndex
from matcher.normalize import atoms
from matcher.pageatoms import raw_atom_set
from matcher.pagecache import PageCache
from matcher.words import PageWords

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

_TEXTS = st.sampled_from([
    "policy", "Flood", "sub-", "scription", "ex-", "Smith-", "Jones", "-", "—", "1,000",
    "£250", "naïve", "ﬁre", "don’t", "(a)", "Über", "co-op", "\u00ad", "de\u00ad", "x",
    "保险", "CAFÉ", "end.", "re\u2010", "insured", "cover", "A", "b",
])


@st.composite
def pages(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    """Word tuples of a page: lines of words, some level, some climbing, some far apart."""
    out: list[tuple[Any, ...]] = []
    y = 50.0
    for line in range(draw(st.integers(1, 6))):
        n = draw(st.integers(1, 6))
        size = draw(st.sampled_from([6.0, 10.0, 24.0]))
        climb = draw(st.sampled_from([0.0, 0.0, 0.3, 2.0, 9.0, -5.0]))
        x = 40.0
        for k in range(n):
            text = draw(_TEXTS)
            width = size * 0.5 * max(len(text), 1)
            gap = draw(st.sampled_from([size * 0.3, size * 0.3, size * 5]))
            top = y + climb * k
            out.append((x, top, x + width, top + size, text, 0, line, k))
            x += width + gap
        y += size * 1.5 + max(climb * n, 0.0)
    return out


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages())
def test_cheap_atoms_are_the_full_models_atoms_or_none(raw: list[tuple[Any, ...]]) -> None:
    found = raw_atom_set(raw)
    assume(found is not None)
    assert found == set(PageWords.from_raw(0, raw).atom_counts)
    _REACHED["equal"] += 1


_REACHED = {"equal": 0, "held": 0}


def test_the_property_reached_its_assertion() -> None:
    """Most generated pages are read cheaply (the None escape is not the usual answer)."""
    if _REACHED["equal"] == 0:
        test_cheap_atoms_are_the_full_models_atoms_or_none()
    assert _REACHED["equal"] >= 60


def test_pages_only_the_full_model_reads_say_so() -> None:
    joined = [(40, 50, 60, 60, "sub-", 0, 0, 0), (40, 65, 90, 75, "scription", 0, 1, 0)]
    assert raw_atom_set(joined) == {"subscription"} == set(
        PageWords.from_raw(0, joined).atom_counts)
    climbing = [(40.0 + 30 * k, 50.0 + 20 * k, 60.0 + 30 * k, 60.0 + 20 * k, w, 0, 0, k)
                for k, w in enumerate("COPY COPY COPY".split())]
    assert raw_atom_set(climbing) is None
    inside_out = [(60, 50, 40, 60, "policy", 0, 0, 0)]
    assert raw_atom_set(inside_out) is None
    assert raw_atom_set([(math.nan, 50, 60, 60, "policy", 0, 0, 0)]) is None
    assert raw_atom_set([]) == frozenset()


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_corpus_pages_read_cheaply_are_read_exactly() -> None:
    cheap = 0
    for path in sorted(CORPUS.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            for n in range(min(doc.page_count, 12)):
                raw = doc.load_page(n).get_text("words", sort=False)
                found = raw_atom_set(raw)
                if found is not None:
                    cheap += 1
                    assert found == set(PageWords.from_raw(n, raw).atom_counts), (path.name, n)
    assert cheap >= 100


@st.composite
def documents(draw: st.DrawFn) -> list[list[str]]:
    """Pages of lines of words, drawn from a small vocabulary so pages share words."""
    words = st.sampled_from("flood fire policy sub- scription insured £250 cover "
                            "storm naïve excluded Theft".split())
    return [[" ".join(draw(st.lists(words, min_size=1, max_size=7)))
             for _ in range(draw(st.integers(1, 5)))] for _ in range(draw(st.integers(1, 5)))]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(documents(), st.data())
def test_the_index_never_drops_a_page_that_holds_the_quote(
        tmp_path: Path, doc_lines: list[list[str]], data: st.DataObject) -> None:
    """Built through the cheap reader, the index lists every page holding all of a quote's
    atoms (a line of that page, say), and exactly the pages full models would list."""
    path = tmp_path / "doc.pdf"
    doc = pymupdf.open()
    for lines in doc_lines:
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((72, 100 + 14 * i), line, fontsize=10)
    doc.save(path)
    doc.close()
    with PdfSource(path, cache=PageCache(max_bytes=0)) as src:
        idx = DocumentIndex(src)
        full: dict[str, set[int]] = {}
        for n in range(src.page_count):
            for atom in src.page_words(n).atom_counts:
                full.setdefault(atom, set()).add(n)
        assert {a: set(p) for a, p in idx.pages_of.items()} == full
        n = data.draw(st.integers(0, len(doc_lines) - 1))
        i = data.draw(st.integers(0, len(doc_lines[n]) - 1))
        quote = doc_lines[n][i]
        # (A line ending "sub-" is read joined to the next line's first word, by design:
        # neither that line nor the one after it holds its words apart.)
        joined = quote.endswith("-") or (i > 0 and doc_lines[n][i - 1].endswith("-"))
        if atoms(quote) and not joined:
            assert n in idx.pages_with_all(atoms(quote))
            _REACHED["held"] += 1


def test_the_index_property_reached_its_assertion(tmp_path: Path) -> None:
    if _REACHED["held"] == 0:
        test_the_index_never_drops_a_page_that_holds_the_quote(tmp_path)
    assert _REACHED["held"] >= 10
