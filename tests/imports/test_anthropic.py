"""citeview import anthropic: a Messages API answer with citations, made into a citations
file and checked on real PDFs (hand-written answers in the documented shape)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.imports import answers as A


def citeview(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewer.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def by_documents(tmp_path: Path, answer: dict[str, Any]) -> tuple[Path, dict[str, Path]]:
    docs = A.documents(tmp_path / "docs")
    response = A.save(tmp_path / "answer.json", answer)
    done = citeview("import", "anthropic", response, "--document", docs["policy"],
                    "--document", docs["schedule"], "--document", docs["notes"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "answer.cite")
    return tmp_path / "answer.cite", docs


def checked(cite: Path) -> dict[str, Any]:
    done = citeview("check", cite, "--json")
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def items(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in report["claims"]}


@pytest.fixture
def report(tmp_path: Path) -> dict[str, Any]:
    cite, _docs = by_documents(tmp_path, A.pdf_answer())
    return checked(cite)


def test_a_two_page_range_is_searched_on_both_pages(report: dict[str, Any]) -> None:
    ev = items(report)["b1"]["evidence"][0]
    # cited pages 2-3 (end_page_number 4 is exclusive); the words stand on page 3, with
    # the line break the API keeps in cited_text.
    assert (ev["status"], ev["page"]) == ("located", 3)
    assert "$500" in ev["found_text"] and "windscreen" in ev["found_text"]
    assert ev["reason"].count("outside") == 0


def test_a_citation_outside_its_cited_pages_is_for_review(report: dict[str, Any]) -> None:
    ev = items(report)["b3"]["evidence"][0]
    assert (ev["status"], ev["page"]) == ("review", 4)
    assert ev["reason"].startswith("outside the pages the answer cited (page 1): ")
    assert "hinted" not in ev["reason"]


def test_several_documents_and_a_char_location(report: dict[str, Any]) -> None:
    claims = items(report)
    volvo = claims["b4"]["evidence"][0]
    assert (volvo["status"], volvo["document"], volvo["page"]) == ("located", "schedule", 1)
    notes = claims["b5"]["evidence"][0]
    assert (notes["status"], notes["chunk_id"], notes["document"]) == (
        "located", "notes#text", "notes")
    start, end = notes["char_span"]
    assert A.NOTES[start:end] == A.NOTES_QUOTE
    assert notes["found_text"] == A.NOTES_QUOTE


def test_uncited_whitespace_and_web_blocks(report: dict[str, Any]) -> None:
    claims = items(report)
    # ids from the blocks' positions: b2 was whitespace only and is no claim.
    assert list(claims) == ["b0", "b1", "b3", "b4", "b5", "b6"]
    assert claims["b0"]["uncited"] and claims["b0"]["evidence"] == []
    assert claims["b0"]["text"] == "Based on the policy,"
    web = claims["b6"]["evidence"][0]
    assert web["status"] == "rejected"
    assert "https://example.com/rates" in web["reason"] and "web page" in web["reason"]
    assert report["summary"] == {"located": 3, "review": 1, "not_located": 0,
                                 "rejected": 1, "uncited": 1}


def test_content_blocks_and_a_list_of_responses(tmp_path: Path) -> None:
    first = A.response(A.text("Claims are reported within 30 days.",
                              {"type": "content_block_location",
                               "cited_text": A.HANDBOOK[1], "document_index": 0,
                               "document_title": "handbook", "start_block_index": 1,
                               "end_block_index": 2}))
    second = A.response(A.text("Receipts are kept.", {
        "type": "content_block_location", "cited_text": " ".join(A.HANDBOOK[1:]),
        "document_index": 0, "document_title": "handbook", "start_block_index": 1,
        "end_block_index": 3}), A.text("   "))
    request = {"messages": [{"role": "user", "content": [
        {"type": "document", "title": "handbook", "source": {
            "type": "content", "content": [{"type": "text", "text": t} for t in A.HANDBOOK]}},
        {"type": "text", "text": "How are claims made?"}]}]}
    response = A.save(tmp_path / "answers.json", [first, second])
    done = citeview("import", "anthropic", response, "--request",
                    A.save(tmp_path / "request.json", request), "-o", tmp_path / "out.cite")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "handbook.pdf").read_bytes()[:5] == b"%PDF-"
    claims = items(checked(tmp_path / "out.cite"))
    assert list(claims) == ["r0-b0", "r1-b0"]  # one claim list, ids by response and block
    one, two = claims["r0-b0"]["evidence"][0], claims["r1-b0"]["evidence"][0]
    assert (one["status"], one["chunk_id"]) == ("located", "handbook#block:1")
    assert (two["status"], two["chunk_id"]) == ("located", "handbook#blocks:1-2")
    assert "30 days" in one["found_text"]


def strip_paths(report: dict[str, Any]) -> dict[str, Any]:
    for claim in report["claims"]:
        for ev in claim["evidence"]:
            ev.pop("document_path", None)
    return report


def test_the_request_variant_writes_the_pdfs_and_reports_the_same(tmp_path: Path) -> None:
    cite, docs = by_documents(tmp_path / "a", A.pdf_answer())
    other = tmp_path / "b"
    other.mkdir()
    response = A.save(other / "answer.json", A.pdf_answer())
    request = A.save(other / "request.json", A.request(docs))
    (other / "policy.pdf").write_bytes(b"someone else's file")  # never overwritten
    done = citeview("import", "anthropic", response, "--request", request)
    assert done.returncode == 0, done.stderr
    assert (other / "policy.pdf").read_bytes() == b"someone else's file"
    assert (other / "policy-2.pdf").read_bytes() == docs["policy"].read_bytes()
    assert (other / "schedule.pdf").read_bytes() == docs["schedule"].read_bytes()
    assert (other / "notes.pdf").read_bytes() == (cite.parent / "notes.pdf").read_bytes()
    assert strip_paths(checked(other / "answer.cite")) == strip_paths(checked(cite))
    table_a, table_b = citeview("check", cite), citeview("check", other / "answer.cite")
    assert table_a.stdout == table_b.stdout and "3 located" in table_a.stdout
    # Importing again writes nothing new: every file already holds its bytes.
    before = sorted(p.name for p in other.iterdir())
    again = citeview("import", "anthropic", response, "--request", request)
    assert again.returncode == 0, again.stderr
    assert "wrote" not in again.stderr and "kept" in again.stderr
    assert sorted(p.name for p in other.iterdir()) == before


def test_check_and_export_open_an_answer_directly(tmp_path: Path) -> None:
    cite, docs = by_documents(tmp_path / "a", A.pdf_answer())
    other = tmp_path / "b"
    other.mkdir()
    response = A.save(other / "answer.json", A.pdf_answer())
    args = ["--document", docs["policy"], "--document", docs["schedule"],
            "--document", docs["notes"]]
    direct = citeview("check", response, "--json", *args)
    assert direct.returncode == 0, direct.stderr
    assert strip_paths(json.loads(direct.stdout)) == strip_paths(checked(cite))
    assert (other / "answer.cite").is_file()  # as `citeview import` would have written
    exported = citeview("export", response, "--csv", other / "out.csv", *args)
    assert exported.returncode == 0, exported.stderr
    with (other / "out.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = {r["claim_id"]: r for r in csv.DictReader(fh)}
    assert (rows["b3"]["status"], rows["b3"]["page"]) == ("review", "4")
    assert rows["b1"]["status"] == "located" and rows["b6"]["status"] == "rejected"
    # Without its documents, an answer is named for what it is.
    bare = citeview("check", response)
    assert bare.returncode == 2 and "an answer to import" in bare.stderr
    assert "--document" in bare.stderr


def test_import_help_lists_the_formats() -> None:
    done = citeview("import", "--help")
    assert done.returncode == 0
    assert "anthropic" in done.stdout and "Formats:" in done.stdout


def test_the_bundled_example_is_imported_into_the_data_folder(tmp_path: Path) -> None:
    import os

    root = Path(__file__).resolve().parents[2] / "resources"
    example = root / "anthropic" / "answer.json"
    before = sorted(p.name for p in example.parent.iterdir())
    done = subprocess.run(
        [sys.executable, "-m", "viewer.cli", "check", str(example), "--json",
         "--document", str(root / "demo" / "policy.pdf")], capture_output=True, text=True,
        timeout=120, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    # citeview's own folder stays as it is; the import goes where reviews of it would.
    assert sorted(p.name for p in example.parent.iterdir()) == before
    written = list((tmp_path / "citeview" / "imports").glob("answer-*/answer.cite"))
    assert len(written) == 1 and str(written[0]) in done.stderr
    claims = items(json.loads(done.stdout))
    assert [e["status"] for c in claims.values() for e in c["evidence"]] == [
        "located", "located", "review", "rejected"]


def test_by_title_orders_what_it_can_and_keeps_the_rest_in_order() -> None:
    from viewer.imports.anthropic import by_title

    a, b, c, d = (Path(n) for n in ("x.pdf", "Policy wording.pdf", "y.pdf", "notes.txt"))
    titles = {1: "Policy Wording", 3: "notes", 7: "absent"}
    assert by_title((a, b, c, d), titles) == (a, b, c, d)
    assert by_title((b, d, a, c), titles) == (a, b, c, d)
    assert by_title((d, b), {0: "notes"}) == (d, b)
    assert sorted(by_title((a, b, c), {0: "y", 1: "y"})) == sorted((a, b, c))
