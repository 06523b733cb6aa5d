"""Every hostile file of the shared corpus gets a plain answer, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.document import DocumentError, PdfSource
from matcher.locate import locate_quote

EXPECTED = {
    "empty_zero_bytes.pdf": "empty",
    "invalid_header_only.pdf": "corrupt",
    "fuzzed_unopenable.pdf": "corrupt",
    "encrypted_user_password_test.pdf": "encrypted",
    "encrypted_aes256_r6_user_password.pdf": "encrypted",
}


@pytest.mark.parametrize(("name", "kind"), sorted(EXPECTED.items()))
def test_unusable_files_raise_a_document_error(corpus: Path, name: str, kind: str) -> None:
    with pytest.raises(DocumentError) as info:
        PdfSource(corpus / "bad" / name)
    assert info.value.kind == kind and name in str(info.value)


@pytest.mark.parametrize(("name", "password"), [
    ("encrypted_user_password_test.pdf", "test"),
    ("encrypted_aes256_r6_user_password.pdf", "asdfzxcv")])
def test_encrypted_files_open_with_their_password(corpus: Path, name: str, password: str
                                                  ) -> None:
    with pytest.raises(DocumentError) as info:
        PdfSource(corpus / "bad" / name, password="wrong")
    assert info.value.kind == "bad_password"
    assert PdfSource(corpus / "bad" / name, password=password).page_count >= 1


@pytest.mark.parametrize("name", ["page_tree_cycle.pdf", "needs_repair_broken_xref.pdf"])
def test_damaged_but_openable_files_search_without_crashing(corpus: Path, name: str) -> None:
    src = PdfSource(corpus / "bad" / name)
    p = locate_quote(src, "a quote that is nowhere in this document at all", hints=[0])
    assert p.status == "not_located" and not p.rects
