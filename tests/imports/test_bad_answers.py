"""An answer, request or document that cannot be imported: exit 2, the file, the JSON path
and what is wrong on stderr, and nothing written."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.imports import answers as A
from tests.imports.test_anthropic import citeview
from viewer.imports.names import safe_stem, unique


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def refused(folder: Path, *args: str | Path) -> str:
    """Run an import that must fail; its stderr. Nothing may have been written."""
    before = files(folder)
    done = citeview("import", "anthropic", *args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert files(folder) == before
    return done.stderr


def cited(doc: int, start: int, end: int) -> dict[str, Any]:
    return A.response(A.text("claim", A.page("Declarations", doc, "policy", start, end)))


def raw(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    "not JSON": (lambda d: raw(d / "x.json", '{"type": "message",'), "$", "not valid JSON"),
    "not a response": (lambda d: A.save(d / "x.json", {"type": "completion", "content": []}),
                       "$.type", "not a Messages API response"),
    "no content": (lambda d: A.save(d / "x.json", {"type": "message"}), "$.content",
                   "missing or not a list"),
    "a document_index with no document": (
        lambda d: A.save(d / "x.json", cited(3, 1, 2)),
        "$.content[0].citations[0].document_index", "document 3 was not given"),
    "a page range past the end": (
        lambda d: A.save(d / "x.json", cited(0, 4, 6)),
        "$.content[0].citations[0].end_page_number", "run past the end of document 0"),
    "an empty page range": (lambda d: A.save(d / "x.json", cited(0, 2, 2)),
                            "$.content[0].citations[0]", "name no page"),
    "a char span past the text": (
        lambda d: A.save(d / "x.json", A.response(A.text("c", {
            "type": "char_location", "cited_text": "x", "document_index": 2,
            "start_char_index": 0, "end_char_index": 10_000}))),
        "$.content[0].citations[0]", "is not a range of the document's"),
    "a citation without cited_text": (
        lambda d: A.save(d / "x.json", A.response(A.text("c", {
            "type": "page_location", "document_index": 0, "start_page_number": 1,
            "end_page_number": 2}))), "$.content[0].citations[0].cited_text", "missing"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_bad_answer_is_named_with_its_json_path(tmp_path: Path, case: str) -> None:
    docs = A.documents(tmp_path / "docs")
    make, where, what = CASES[case]
    made = make(tmp_path)
    err = refused(tmp_path, made, "--document", docs["policy"], "--document",
                  docs["schedule"], "--document", docs["notes"])
    assert str(made) in err
    assert f"at {where}: " in err and what in err


def request_with(docs: dict[str, Path], block: dict[str, Any]) -> dict[str, Any]:
    return A.request(docs, extra=[{"type": "document", "title": "extra", **block}])


@pytest.mark.parametrize(("source", "what"), [
    ({"type": "base64", "media_type": "application/pdf",
      "data": base64.b64encode(b"<html>not a pdf</html>").decode()},
     "the base64 data is not a usable PDF: not a PDF"),
    ({"type": "base64", "media_type": "application/pdf", "data": "@@@"}, "not valid base64"),
    ({"type": "url", "url": "https://example.com/policy.pdf"},
     "https://example.com/policy.pdf) is not available offline"),
    ({"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
     "a file of the Files API (file_011CNha8iCJcU1wXNR6q4V8w) is not available offline"),
])
def test_a_bad_request_is_named_with_its_json_path(tmp_path: Path, source: dict[str, Any],
                                                   what: str) -> None:
    docs = A.documents(tmp_path / "docs")
    request = A.save(tmp_path / "request.json", request_with(docs, {"source": source}))
    response = A.save(tmp_path / "answer.json", A.pdf_answer())
    err = refused(tmp_path, response, "--request", request)
    assert str(request) in err and "not a valid request to import" in err
    assert "at $.messages[0].content[3].source" in err and what in err
    if source["type"] in ("url", "file"):
        assert "--document" in err  # what to give instead


def test_an_existing_different_output_is_never_overwritten(tmp_path: Path) -> None:
    docs = A.documents(tmp_path / "docs")
    response = A.save(tmp_path / "answer.json", A.pdf_answer())
    (tmp_path / "answer.cite").write_text("{}", encoding="utf-8")
    err = refused(tmp_path, response, "--document", docs["policy"], "--document",
                  docs["schedule"], "--document", docs["notes"])
    assert "answer.cite: exists and holds something else" in err


def test_a_document_that_is_no_pdf_nor_text(tmp_path: Path) -> None:
    docs = A.documents(tmp_path / "docs")
    junk = tmp_path / "docs" / "junk.bin"
    junk.write_bytes(bytes(range(256)))
    response = A.save(tmp_path / "answer.json", A.pdf_answer())
    err = refused(tmp_path, response, "--document", docs["policy"], "--document", junk)
    assert str(junk) in err and "at --document 2: neither a PDF nor a UTF-8 text file" in err


SEEN = {"examples": 0}


@given(st.lists(st.text(max_size=120), min_size=1, max_size=6))
def test_safe_names_are_plain_file_names(titles: list[str]) -> None:
    stems = unique([safe_stem(t) or "document" for t in titles])
    SEEN["examples"] += 1
    assert len({s.lower() for s in stems}) == len(stems)
    for s in stems:
        assert s and "/" not in s and "\\" not in s and not s.startswith(".")
        assert len(s.encode("utf-8")) <= 90 and "\x00" not in s


def test_the_property_ran() -> None:
    test_safe_names_are_plain_file_names()
    assert SEEN["examples"] >= 50
