"""Hostile and careless input to ``citeview check`` / ``locate``: plain messages, exit 0 or
2, stdout that always parses, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from tests.simplepdf import paragraph, write_pdf

LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss."]


def citeview(*args: str, env: dict[str, str] | None = None, prefix: tuple[str, ...] = (),
             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "viewer.cli", *args],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def without_privileges() -> tuple[str, ...]:
    """A command prefix under which file permissions apply (root bypasses them): root
    with every capability dropped via setpriv; nothing for other users."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return ("setpriv", "--bounding-set", "-all", "--inh-caps", "-all")


def cite_file(folder: Path, pdf_path: str, quote: str = LINES[1], **extra: object) -> Path:
    path = folder / "answer.cite"
    path.write_text(json.dumps({"version": 1, "documents": [{"id": "d", "path": pdf_path}],
                                "claims": [{"id": "c1", "evidence": [{"quote": quote}]}],
                                **extra}), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- stdout


def pdf_with_a_font_lacking_its_descriptor(path: Path, line: str) -> Path:
    """A page with a readable line and a second, Type0 font whose CID font has no
    /FontDescriptor: MuPDF reports "missing font descriptor" whenever the page is read."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), line, fontname="helv", fontsize=11)
    cid = doc.get_new_xref()
    doc.update_object(cid, "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Broken "
                           "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) "
                           "/Supplement 0 >> >>")
    font = doc.get_new_xref()
    doc.update_object(font, "<< /Type /Font /Subtype /Type0 /BaseFont /Broken /Encoding "
                            f"/Identity-H /DescendantFonts [{cid} 0 R] >>")
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "Font/FBroken", f"{font} 0 R")
    extra = doc.get_new_xref()
    doc.update_object(extra, "<< >>")
    doc.update_stream(extra, b"BT /FBroken 12 Tf 72 300 Td <0041> Tj ET")
    old = doc.xref_get_key(page.xref, "Contents")[1].strip("[]")
    doc.xref_set_key(page.xref, "Contents", f"[{old} {extra} 0 R]")
    doc.save(path)
    return path


def test_mupdf_complaints_never_reach_stdout(tmp_path: Path) -> None:
    pdf = pdf_with_a_font_lacking_its_descriptor(tmp_path / "font.pdf", LINES[0])
    raw = subprocess.run([sys.executable, "-c", "import pymupdf, sys; "
                          "pymupdf.open(sys.argv[1])[0].get_text('words')", str(pdf)],
                         capture_output=True, text=True, timeout=60)
    assert "missing font descriptor" in raw.stdout  # the trap: PyMuPDF prints on stdout

    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "CITEVIEW_OCR_STORE": str(tmp_path / "s")}
    cite = cite_file(tmp_path, "font.pdf", quote=LINES[0])
    for args in (("check", str(cite), "--json"),
                 ("locate", str(pdf), "--quote", LINES[0], "--json")):
        out = citeview(*args, env=env)
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)  # stdout is the JSON and nothing else
        status = got["status"] if "status" in got else got["claims"][0]["evidence"][0]["status"]
        assert status == "located"
        assert "missing font descriptor" not in out.stderr
        verbose = citeview(*args, "--verbose", env=env)
        json.loads(verbose.stdout)
        assert "MuPDF: syntax error: missing font descriptor" in verbose.stderr
    log = tmp_path / "state" / "citeview" / "log" / "citeview.log"
    assert log.read_text(encoding="utf-8").count("missing font descriptor") >= 2


# --------------------------------------------------------------------------- loading


def test_the_seed_emit_answer_output_loads_as_it_is(tmp_path: Path) -> None:
    """Claims without ids, chunk ids of the form PATH#…, two documents."""
    folder = tmp_path / "pricing"
    folder.mkdir()
    write_pdf(folder / "2025-q3-rate-card.pdf", [paragraph(LINES)])
    write_pdf(tmp_path / "other.pdf", [paragraph(["Nothing to see on this page at all."])])
    chunk_id = "pricing/2025-q3-rate-card.pdf#tok:1200"
    data = {
        "documents": [{"id": "rates", "path": "pricing/2025-q3-rate-card.pdf"},
                      {"id": "other", "path": "other.pdf"}],
        "chunks": [{"id": chunk_id, "text": " ".join(LINES)}],
        # What the emit_answer tool returns, pasted unchanged:
        "claims": [
            {"text": "Temporary repairs are paid.",
             "evidence": [{"chunk_id": chunk_id, "quote": LINES[1]}]},
            {"text": "Nothing supports this.", "evidence": []},
        ],
    }
    cite = tmp_path / "answer.json"
    cite.write_text(json.dumps(data))
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [(c["id"], c["id_assigned"]) for c in report["claims"]] == [("c1", True),
                                                                       ("c2", True)]
    [item] = report["claims"][0]["evidence"]
    assert item["status"] == "located" and item["document"] == "rates"
    assert "2 claim(s) without an id were given ids in file order: c1, c2" in out.stderr


@pytest.mark.parametrize(("special", "said"), [("fifo", "is a FIFO (named pipe)"),
                                               ("/dev/zero", "is a character device")])
def test_citations_that_are_not_regular_files_are_refused_at_once(tmp_path: Path,
                                                                  special: str, said: str
                                                                  ) -> None:
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "answer.cite"
        os.mkfifo(path)
    out = citeview("check", str(path), timeout=30)  # a FIFO used to hang forever
    assert out.returncode == 2 and said in out.stderr and out.stdout == ""


def test_a_citations_file_over_the_size_limit_is_refused_plainly(tmp_path: Path) -> None:
    write_pdf(tmp_path / "p.pdf", [paragraph(LINES)])
    cite = cite_file(tmp_path, "p.pdf", padding="x" * 20_000)
    out = citeview("check", str(cite), "--max-size", "0.01")
    assert out.returncode == 2 and "larger than the limit of 0.01 MB" in out.stderr
    assert "--max-size" in out.stderr
    env_out = citeview("check", str(cite), env={"CITEVIEW_MAX_CITATIONS_MB": "0.01"})
    assert env_out.returncode == 2 and "CITEVIEW_MAX_CITATIONS_MB" in env_out.stderr
    assert citeview("check", str(cite), "--max-size", "1").returncode == 0


def test_a_pdf_handed_to_check_is_recognised_by_its_content(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "policy.cite", [paragraph(LINES)])  # a PDF, misnamed
    out = citeview("check", str(pdf))
    assert out.returncode == 2 and "is a PDF, not a citations file" in out.stderr


@pytest.mark.parametrize(("text", "path", "said"), [
    ('{"claims": ' + "[" * 1000 + "]" * 1000 + "}", "$", "nested more than"),
    ('{"claims": [], "x": ' + "[" * 150 + "]" * 150 + "}", "$.x", "nested more than"),
    ('{"claims": [{"id": "c1", "evidence": [{"quote": "a\\ud800b"}]}]}',
     "$.claims[0].evidence[0].quote", "lone surrogate (\\ud800)"),
    ('{"version": true, "claims": []}', "$.version", "version true is not supported"),
    ('{"version": 1.0, "claims": []}', "$.version", "version 1.0 is not supported"),
])
def test_malformed_json_is_a_message_naming_the_path(tmp_path: Path, text: str, path: str,
                                                     said: str) -> None:
    cite = tmp_path / "bad.cite"
    cite.write_text(text)
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert f"at {path}" in out.stderr and said in out.stderr


# --------------------------------------------------------------------------- documents


def test_document_paths_the_system_refuses_are_named_with_their_cause(tmp_path: Path) -> None:
    write_pdf(tmp_path / "real.pdf", [paragraph(LINES)])
    (tmp_path / "loop.pdf").symlink_to(tmp_path / "loop.pdf")
    cases = {
        "x" * 300 + ".pdf": "a name in the path is too long",
        "real.pdf/inner.pdf": "a part of the path is a file, not a folder",
        "loop.pdf": "the path is a loop of symbolic links",
        "~nosuchuser-citeview/x.pdf": "file not found",
    }
    for doc_path, said in cases.items():
        cite = cite_file(tmp_path, doc_path)
        for args in (("check", str(cite), "--json"),
                     ("locate", str(tmp_path / doc_path), "--quote", "x", "--json")):
            out = citeview(*args)
            assert out.returncode == 2 and "Traceback" not in out.stderr, (doc_path, out.stderr)
            assert said in out.stderr, (doc_path, out.stderr)
            json.loads(out.stdout)


def test_permission_problems_name_the_cause(tmp_path: Path) -> None:
    prefix = without_privileges()
    shut = tmp_path / "shut"
    shut.mkdir()
    write_pdf(shut / "inside.pdf", [paragraph(LINES)])
    unreadable = write_pdf(tmp_path / "unreadable.pdf", [paragraph(LINES)])
    unreadable.chmod(0)
    shut.chmod(0o600)  # no search permission: nothing inside can be reached
    unreadable_cite = tmp_path / "unreadable.cite"
    unreadable_cite.write_text("{}")
    unreadable_cite.chmod(0)
    try:
        for doc in (shut / "inside.pdf", unreadable):
            out = citeview("check", str(cite_file(tmp_path, str(doc))), "--json", prefix=prefix)
            assert out.returncode == 2, out.stderr
            assert "permission denied" in out.stderr and "not a readable PDF" not in out.stderr
            [item] = json.loads(out.stdout)["claims"][0]["evidence"]
            assert "permission denied" in item["reason"]
        out = citeview("check", str(unreadable_cite), prefix=prefix)
        assert out.returncode == 2 and "permission denied" in out.stderr
    finally:
        shut.chmod(0o700)
