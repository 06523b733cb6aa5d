"""An answer about a real book from the shared corpus (352 pages), its cited_text taken
from the page as the API takes it (the PDF's own line breaks, curly quotes, ligatures):
a two-page range whose words are on its second page, a citation whose words stand
outside its range, and the request variant carrying the book in base64."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from tests.imports import answers as A
from tests.imports.test_anthropic import citeview, items, strip_paths

BOOK = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / \
    "text_free_culture_book.pdf"
pytestmark = pytest.mark.skipif(not BOOK.is_file(), reason=f"corpus PDF absent: {BOOK}")


def passage(page: int, first: int, count: int) -> str:
    """Lines ``first`` … of 1-based ``page`` as the text layer has them, joined by the
    line breaks cited_text keeps."""
    with pymupdf.open(BOOK) as doc:
        lines = doc[page - 1].get_text().splitlines()
    return "\n".join(lines[first:first + count])


def answer() -> dict[str, Any]:
    second = passage(41, 3, 4)  # on page 41 of the range 40–41
    outside = passage(120, 5, 3)  # on page 120, cited as 10–11
    return A.response(
        A.text("Comics in America are bound by legal limits.",
               A.page(second, 0, "Free Culture", 40, 42)),
        A.text("Elsewhere the book argues further.",
               A.page(outside, 0, "Free Culture", 10, 12)))


def test_a_real_book_by_document_and_by_request(tmp_path: Path) -> None:
    first = tmp_path / "a"
    first.mkdir()
    response = A.save(first / "answer.json", answer())
    by_doc = citeview("check", response, "--json", "--document", BOOK)
    assert by_doc.returncode == 0, by_doc.stderr
    claims = items(json.loads(by_doc.stdout))
    two_pages = claims["b0"]["evidence"][0]
    assert (two_pages["status"], two_pages["page"]) == ("located", 41)
    away = claims["b1"]["evidence"][0]
    assert (away["status"], away["page"]) == ("review", 120)
    assert away["reason"].startswith("outside the pages the answer cited (pages 10–11)")

    second = tmp_path / "b"
    second.mkdir()
    request = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [
        {"role": "user", "content": [
            {"type": "document", "title": "Free Culture", "citations": {"enabled": True},
             "source": {"type": "base64", "media_type": "application/pdf",
                        "data": base64.b64encode(BOOK.read_bytes()).decode("ascii")}},
            {"type": "text", "text": "What does the book say about comics?"}]}]}
    by_request = citeview("check", A.save(second / "answer.json", answer()), "--json",
                          "--request", A.save(second / "request.json", request))
    assert by_request.returncode == 0, by_request.stderr
    assert (second / "Free-Culture.pdf").read_bytes() == BOOK.read_bytes()
    assert strip_paths(json.loads(by_request.stdout)) == strip_paths(json.loads(by_doc.stdout))
