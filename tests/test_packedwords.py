"""Packed word arrays give back the very tuples packed, and a page read for the index is
not read by MuPDF again for its model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.packedwords import pack
from matcher.pagecache import PageCache, packed_cache
from matcher.words import PageWords

_WORDS = st.lists(st.tuples(
    st.floats(allow_nan=False), st.floats(allow_nan=False), st.floats(allow_nan=False),
    st.floats(allow_nan=False), st.text(max_size=12), st.integers(0, 500),
    st.integers(0, 500), st.integers(0, 500)), max_size=40)


@given(_WORDS)
def test_unpacking_gives_back_the_tuples_packed(raw: list[tuple[Any, ...]]) -> None:
    packed = pack(raw)
    assert packed is not None
    assert packed.unpack() == raw
    assert len(packed) == len(raw)


@given(_WORDS)
def test_a_model_read_from_the_packed_columns_is_the_model_of_the_tuples(
        raw: list[tuple[Any, ...]]) -> None:
    packed = pack(raw)
    assert packed is not None
    if raw:
        assert packed.columns() == list(zip(*raw, strict=True))
    assert PageWords.from_raw(3, packed) == PageWords.from_raw(3, raw)


@pytest.mark.parametrize("raw", [
    [(0.0, 0.0, 1.0, 1.0, "short", 0, 0)],                 # seven fields
    [(0.0, 0.0, 1.0, 1.0, b"bytes", 0, 0, 0)],             # not a string
    [(0.0, 0.0, 1.0, 1.0, "big", 1 << 40, 0, 0)],          # no C int holds it
    [(0.0, 0.0, 1.0, "1.0", "text", 0, 0, 0)],             # a coordinate as a string
])
def test_tuples_of_another_kind_are_not_packed(raw: list[tuple[Any, ...]]) -> None:
    assert pack(raw) is None


def test_a_page_indexed_then_modelled_is_extracted_once_with_the_same_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "two.pdf"
    doc = pymupdf.open()
    for n in range(2):
        doc.new_page().insert_text((72, 100), f"page {n} flood cover ex-\ncess", fontsize=10)
    doc.save(path)
    doc.close()
    with PdfSource(path, cache=PageCache(max_bytes=0), packed=packed_cache(max_bytes=0)
                   ) as plain:
        expected = [plain.page_words(n) for n in range(2)]
    reads: list[int] = []
    get_text = pymupdf.Page.get_text

    def counted(page: pymupdf.Page, *args: Any, **kwargs: Any) -> Any:
        reads.append(page.number or 0)
        return get_text(page, *args, **kwargs)

    monkeypatch.setattr(pymupdf.Page, "get_text", counted)
    packed = packed_cache()
    with PdfSource(path, cache=PageCache(max_bytes=0), packed=packed) as src:
        atoms = [src.page_atoms(n)[0] for n in range(2)]
        assert len(packed) == 2
        assert [src.page_words(n) for n in range(2)] == expected
        assert reads == [0, 1]  # the models came from the packed arrays
        assert len(packed) == 0  # and the arrays went with them
        assert atoms == [frozenset(w.atom_counts) for w in expected]
        assert [src.page_words(n) for n in range(2)] == expected  # read again, alike
        assert reads == [0, 1, 0, 1]
