"""The `citeview` command's contract: check --json, locate, schema, and clean failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.simplepdf import paragraph, write_pdf

LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss.",
         "Water damage from a continuous leak over fourteen days is excluded."]


def citeview(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


@pytest.fixture
def cite(tmp_path: Path) -> Path:
    write_pdf(tmp_path / "policy.pdf", [[("Declarations page", 72, 80)], paragraph(LINES)])
    text = "\n".join(LINES)
    data = {
        "version": 1,
        "documents": [{"id": "policy", "path": "policy.pdf"}],
        "chunks": [{"id": "policy#0", "text": "Declarations page", "pages": [1]},
                   {"id": "policy#1", "text": text, "pages": [2]}],
        "claims": [
            {"id": "c1", "text": "Temporary repairs are paid", "evidence": [
                {"chunk_id": "policy#1", "quote": "reasonable cost of temporary repairs"}]},
            {"id": "c2", "text": "Leaks", "evidence": [
                {"chunk_id": "policy#0", "quote": "continuous leak over fourteen days"}]},
            {"id": "c3", "text": "Unknown id", "evidence": [
                {"chunk_id": "policy#9", "quote": "temporary repairs"}]},
            {"id": "c4", "text": "Invented", "evidence": [
                {"document": "policy", "page": 2, "quote": "Mould is covered in full"}]},
            {"id": "c5", "text": "Reasoning only", "evidence": []},
        ],
    }
    path = tmp_path / "answer.cite"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_check_json_follows_the_contract(cite: Path) -> None:
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["summary"] == {"located": 2, "review": 0, "not_located": 1,
                                 "rejected": 1, "uncited": 1, "differs": 0}
    by_claim = {c["id"]: c["evidence"] for c in report["claims"]}
    [c1] = by_claim["c1"]
    assert c1["alternatives"] == [] and c1["other_pages"] == []
    chunk_text = "\n".join(LINES)
    assert c1["status"] == "located" and c1["text_match"] == "exact" and c1["page"] == 2
    assert chunk_text[slice(*c1["char_span"])] == "reasonable cost of temporary repairs"
    assert len(c1["rects"]) == 1 and all(len(r) == 4 for r in c1["rects"])
    [c2] = by_claim["c2"]
    assert c2["repaired_from"] == "policy#0" and c2["chunk_id"] == "policy#1"
    assert c2["status"] == "located"
    [c3] = by_claim["c3"]
    assert c3["status"] == "rejected" and c3["rects"] == [] and c3["page"] is None
    [c4] = by_claim["c4"]
    assert c4["status"] == "not_located" and c4["rects"] == []
    assert by_claim["c5"] == []
    for ev in (e for evs in by_claim.values() for e in evs):
        assert set(ev) >= {"index", "status", "reason", "document", "chunk_id",
                           "repaired_from", "char_span", "text_match", "page", "score",
                           "rects"}


def test_check_table_is_readable(cite: Path) -> None:
    out = citeview("check", str(cite))
    assert out.returncode == 0
    assert "2 located, 0 need review, 1 not located, 1 rejected, 1 uncited" in out.stdout
    assert "not located" in out.stdout.splitlines()[4]  # the status words of the window


def test_missing_document_is_reported_per_evidence(cite: Path) -> None:
    (cite.parent / "policy.pdf").unlink()
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 2
    report = json.loads(out.stdout)
    ev = report["claims"][0]["evidence"][0]
    assert ev["status"] == "not_located" and "document missing" in ev["reason"]
    assert any("policy.pdf" in p for p in report["problems"])
    assert f"document 'policy': {cite.parent / 'policy.pdf'}: file not found" in out.stderr


def test_malformed_file_exits_2_naming_file_and_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cite"
    bad.write_text('{"version": 1, "claims": [{"id": "c1", "evidence": [{}]}]}')
    out = citeview("check", str(bad))
    assert out.returncode == 2
    assert str(bad) in out.stderr and "$.claims[0].evidence[0].quote" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("content", [b"", b"%PDF-1.7\n%%EOF\n", b"\x00garbage" * 50])
def test_unusable_pdfs_exit_2_with_a_message(tmp_path: Path, content: bytes) -> None:
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(content)
    out = citeview("locate", str(pdf), "--quote", "anything")
    assert out.returncode == 2 and str(pdf) in out.stderr
    assert "Traceback" not in out.stderr
    got = json.loads(citeview("locate", str(pdf), "--quote", "anything", "--json").stdout)
    assert got["status"] == "not_located" and got["rects"] == []
    assert got["problems"] == [out.stderr.strip().removeprefix("citeview: ")]


def _locked(tmp_path: Path) -> Path:
    import pymupdf
    doc = pymupdf.open(write_pdf(tmp_path / "plain.pdf", [paragraph(LINES)]))
    doc.save(tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
             user_pw="s3cret", owner_pw="owner")
    return tmp_path / "locked.pdf"


BAD_DOCUMENTS = {
    "missing": (lambda d: d / "absent.pdf", "file not found"),
    "empty": (lambda d: _touch(d / "empty.pdf", b""), "the file is empty (0 bytes)"),
    "not a PDF": (lambda d: _touch(d / "notes.pdf", b"just some notes\n" * 20),
                  "not a PDF"),
    "header only": (lambda d: _touch(d / "header.pdf", b"%PDF-1.7\n%%EOF\n"), "PDF"),
    "a folder": (lambda d: _mkdir(d / "folder.pdf"), "is a folder, not a regular file"),
    "encrypted": (_locked, "the PDF is password-protected"),
}


def _touch(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


def _mkdir(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize("bad", sorted(BAD_DOCUMENTS))
def test_an_unusable_document_still_gets_the_full_report_and_exit_2(cite: Path, bad: str
                                                                    ) -> None:
    make, problem = BAD_DOCUMENTS[bad]
    data = json.loads(cite.read_text())
    broken = make(cite.parent)
    data["documents"].append({"id": "other", "path": str(broken)})
    data["claims"].append({"id": "c6", "evidence": [{"document": "other", "quote": LINES[0]}]})
    for ch in data["chunks"]:
        ch["document"] = "policy"
    cite.write_text(json.dumps(data))
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    report = json.loads(out.stdout)  # the whole report, not a message instead of it
    assert report["summary"]["located"] == 2  # what could be read was checked
    [item] = next(c for c in report["claims"] if c["id"] == "c6")["evidence"]
    assert item["status"] == "not_located" and item["rects"] == []
    assert str(broken) in item["reason"]
    [line] = report["problems"]
    assert line.startswith("document 'other': ") and problem in line
    assert out.stderr.strip() == f"citeview: {line}"


def test_a_listed_document_no_evidence_cites_is_checked_too(cite: Path) -> None:
    data = json.loads(cite.read_text())
    data["documents"].append({"id": "appendix", "path": "appendix.pdf"})
    for ch in data["chunks"]:
        ch["document"] = "policy"
    cite.write_text(json.dumps(data))
    out = citeview("check", str(cite))
    assert out.returncode == 2
    assert "problem: document 'appendix'" in out.stdout and "appendix.pdf" in out.stderr


def test_exit_status_0_needs_every_document_readable(cite: Path) -> None:
    """Rejected and not-located quotes are results, not unusable input: still 0."""
    out = citeview("check", str(cite), "--json")
    report = json.loads(out.stdout)
    assert report["summary"]["rejected"] and report["summary"]["not_located"]
    assert out.returncode == 0 and report["problems"] == [] and out.stderr == ""


def test_a_citations_file_that_cannot_be_used_prints_nothing_on_stdout(tmp_path: Path
                                                                       ) -> None:
    for name, content in (("none.cite", None), ("text.cite", "not json"), ("empty.cite", "{}"),
                          ("dup.cite", json.dumps({"claims": [{"id": "a"}, {"id": "a"}]}))):
        path = tmp_path / name
        if content is not None:
            path.write_text(content)
        out = citeview("check", str(path), "--json")
        assert out.returncode == 2 and out.stdout == "", name
        assert str(path) in out.stderr and "Traceback" not in out.stderr
    assert "at $.claims: Field required" in citeview("check", str(tmp_path / "empty.cite")).stderr
    (tmp_path / "nothing.cite").write_text('{"claims": []}')
    out = citeview("check", str(tmp_path / "nothing.cite"), "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["claims"] == []


def test_locate_json(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", [paragraph(LINES)])
    out = citeview("locate", str(pdf), "--quote", LINES[1], "--page", "1", "--json")
    got = json.loads(out.stdout)
    assert got["status"] == "located" and got["page"] == 1 and len(got["rects"]) == 1
    empty = json.loads(citeview("locate", str(pdf), "--quote", " ", "--json").stdout)
    assert empty["status"] == "not_located" and empty["rects"] == [] and empty["reason"]
    far = json.loads(citeview("locate", str(pdf), "--quote", LINES[1], "--page", "9",
                              "--json").stdout)
    assert far["page"] == 1 and "outside the document" in far["reason"]


def test_a_quote_on_two_pages_names_both_until_a_hint_chooses(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "p.pdf", [paragraph(LINES), paragraph(LINES)])
    both = json.loads(citeview("locate", str(pdf), "--quote", LINES[1], "--json").stdout)
    assert both["status"] == "review" and len(both["rects"]) == 1
    assert {both["page"], *both["other_pages"]} == {1, 2}
    hinted = json.loads(citeview("locate", str(pdf), "--quote", LINES[1], "--page", "2",
                                 "--json").stdout)
    assert hinted["status"] == "located" and hinted["page"] == 2
    assert hinted["other_pages"] == []
    cite = tmp_path / "a.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "d", "path": "p.pdf"}],
                                "claims": [{"id": "c", "evidence": [
                                    {"document": "d", "quote": LINES[1]}]}]}))
    item = json.loads(citeview("check", str(cite), "--json").stdout)["claims"][0]["evidence"][0]
    assert item["status"] == "review" and {item["page"], *item["other_pages"]} == {1, 2}


def test_a_review_placement_lists_the_other_copies_it_stands_for(tmp_path: Path) -> None:
    # A clause printed twice on the page, neither copy beside the sentence quoted with it:
    # both are drawn, and ``alternatives`` names the copy that is not the main one.
    clause = "actions identified as RC in, and in accordance with"
    pdf = write_pdf(tmp_path / "p.pdf", [[
        ("if those actions were performed before the effective date", 330, 100),
        (clause, 72, 300), ("unrelated words fill this line of the page", 72, 313),
        (clause, 72, 500)]])
    cite = tmp_path / "a.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "d", "path": pdf.name}],
                                "claims": [{"id": "c", "evidence": [{"document": "d", "quote":
                                    "if those actions were performed before the effective "
                                    f"date {clause}"}]}]}))
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 0, out.stderr
    [item] = json.loads(out.stdout)["claims"][0]["evidence"]
    assert item["status"] == "review"
    [alt] = item["alternatives"]
    assert alt["page"] == item["page"] == 1
    assert alt["rects"] and all(r in item["rects"] for r in alt["rects"])
    assert len(item["rects"]) == 3  # the sentence and both copies of the clause


def test_encrypted_pdf_needs_a_password(tmp_path: Path) -> None:
    import pymupdf
    pdf = write_pdf(tmp_path / "p.pdf", [paragraph(LINES)])
    doc = pymupdf.open(pdf)
    doc.save(tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
             user_pw="s3cret", owner_pw="owner")
    out = citeview("locate", str(tmp_path / "locked.pdf"), "--quote", LINES[0])
    assert out.returncode == 2 and "password" in out.stderr
    ok = citeview("locate", str(tmp_path / "locked.pdf"), "--quote", LINES[0],
                  "--password", "s3cret", "--json")
    assert json.loads(ok.stdout)["status"] == "located"


def test_schema_version_and_help() -> None:
    schema = json.loads(citeview("schema").stdout)
    assert "claims" in schema["properties"]
    assert citeview("--version").stdout.startswith("citeview ")
    helptext = citeview("--help").stdout
    assert "check" in helptext and "locate" in helptext and "prepare" in helptext


def test_prepare_then_locate_uses_stored_ocr_boxes(tmp_path: Path) -> None:
    from tests.pdfgen import image_only_copy
    lines = ["The insurer will pay the reasonable cost of",
             "temporary repairs made to protect covered",
             "property from further damage after a loss."]
    src = write_pdf(tmp_path / "src.pdf", [paragraph(lines, leading=22)], fontsize=16)
    docs = tmp_path / "scans"
    docs.mkdir()
    scan, truth = image_only_copy(src, docs / "scan.pdf", dpi=200)
    env = {**__import__("os").environ, "CITEVIEW_OCR_STORE": str(tmp_path / "store")}
    run = lambda *a: subprocess.run([sys.executable, "-m", "viewer.cli", *a],  # noqa: E731
                                    capture_output=True, text=True, env=env, timeout=300)
    before = json.loads(run("locate", str(scan), "--quote", lines[1], "--json").stdout)
    assert before["status"] == "not_located" and "citeview prepare" in before["reason"]

    prepared = run("prepare", str(docs), "--dpi", "200")
    assert prepared.returncode == 0, prepared.stderr
    after = json.loads(run("locate", str(scan), "--quote", lines[1], "--json").stdout)
    assert after["status"] == "located" and after["page"] == 1
    [rect] = after["rects"]
    want = [w for w in truth[0] if w[4] in lines[1].split()]
    box = (min(w[0] for w in want), min(w[1] for w in want),
           max(w[2] for w in want), max(w[3] for w in want))
    assert all(abs(a - b) < 6 for a, b in zip(rect, box, strict=True)), (rect, box)


def test_bundled_demo_checks_to_every_outcome() -> None:
    from importlib import resources
    demo = resources.files("resources") / "demo" / "demo.cite"
    out = citeview("check", str(demo), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    statuses = {c["id"]: [e["status"] for e in c["evidence"]] for c in report["claims"]}
    assert statuses["c10"] == []  # uncited
    assert statuses["c9"] == ["not_located"]
    assert statuses["c11"] == ["rejected"]
    repaired = report["claims"][11]["evidence"][0]
    assert repaired["status"] == "located" and repaired["repaired_from"] is not None
    assert all(s == ["located"] for c, s in statuses.items() if c in ("c1", "c2", "c3", "c5"))
    s = report["summary"]
    assert s["uncited"] == 1 and s["rejected"] >= 1 and s["not_located"] >= 1


def test_store_says_what_it_holds(tmp_path: Path) -> None:
    out = citeview("store", "--store", str(tmp_path / "empty"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"OCR store {tmp_path / 'empty'}: 0 documents, 0 pages, 0.0 MB."
    bad = citeview("store", "--forget-older-than", "-3", "--store", str(tmp_path))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
