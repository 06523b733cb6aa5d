"""``citeview export``: what it writes, what it refuses, its exit statuses, and that a
killed export never leaves half a file under an output's name."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from tests.simplepdf import paragraph, write_pdf
from viewer.export.writing import write_atomically
from viewer.state.files import demo_path

from .helpers import write_cite
from .poppler import info


def citeview(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewer.cli", "export", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    folder = tmp_path / "case"
    shutil.copytree(demo_path().parent, folder, ignore=shutil.ignore_patterns("__*"))
    return folder / "demo.cite"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sidecar(path: Path, placement: str = "confirmed", **extra: object) -> Path:
    """A review file as the window writes one (version 1), deciding on the demo's c2."""
    demo = demo_path()
    quote = json.loads(demo.read_text(encoding="utf-8"))["claims"][1]["evidence"][0]["quote"]
    hashes = {"quote_sha256": sha256(quote.encode("utf-8")),
              "document_sha256": sha256((demo.parent / "policy.pdf").read_bytes())}
    path.write_text(json.dumps({"version": 1, "citations": "demo.cite", "evidence": [
        {"claim": "c2", "index": 0, **hashes, "placement": placement, "note": "checked",
         "reviewer": "ana", "at": "2026-12-02T09:00:00Z", **extra}],
        "claims": [{"claim": "c2", "support": "partly", "note": "", "reviewer": "ana",
                    "at": "2026-12-02T09:01:00Z"}], "history": []}), encoding="utf-8")
    return path


def csv_rows(path: Path) -> dict[str, dict[str, str]]:
    reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline=""))
    return {f"{r['claim_id']}#{r['evidence_index']}": r for r in reader}


def test_writes_every_output_and_names_them(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    paths = [out / "a.pdf", out / "r.html", out / "r.csv", out / "r.jsonld"]
    done = citeview(demo, "--pdf", paths[0], "--html", paths[1], "--csv", paths[2],
                    "--annotations", paths[3])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(p) for p in paths[1:] + paths[:1]]
    assert all(p.stat().st_size > 0 for p in paths)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in paths)  # no temp
    assert info(paths[0])["Pages"] == "3"
    assert csv_rows(paths[2])["c2#0"]["placement"] == ""


def test_the_review_beside_the_file_is_used(demo: Path, tmp_path: Path) -> None:
    sidecar(demo.with_name("demo.review.json"))
    out = tmp_path / "r.csv"
    assert citeview(demo, "--csv", out).returncode == 0
    row = csv_rows(out)["c2#0"]
    assert (row["placement"], row["support"], row["reviewer"]) == ("confirmed", "partly", "ana")
    other = sidecar(tmp_path / "other.json", "wrong_place")
    assert citeview(demo, "--review", other, "--csv", out).returncode == 0
    assert csv_rows(out)["c2#0"]["placement"] == "wrong_place"


def test_a_decision_on_a_changed_quote_is_stale(demo: Path, tmp_path: Path) -> None:
    review = sidecar(tmp_path / "r.json", quote_sha256=sha256(b"old"))
    out = tmp_path / "r.csv"
    assert citeview(demo, "--review", review, "--csv", out).returncode == 0
    assert csv_rows(out)["c2#0"]["placement"] == "confirmed (stale)"


@pytest.mark.parametrize("content", ["{not json", '{"version": 2}',
                                     '{"version": 1, "evidence": [{"claim": "c1"}]}'])
def test_an_unusable_review_stops_before_anything_is_written(demo: Path, tmp_path: Path,
                                                             content: str) -> None:
    review = tmp_path / "bad.review.json"
    review.write_text(content, encoding="utf-8")
    out = tmp_path / "r.html"
    done = citeview(demo, "--review", review, "--html", out)
    assert done.returncode == 2 and not out.exists()
    assert str(review) in done.stderr and "Traceback" not in done.stderr
    missing = citeview(demo, "--review", tmp_path / "nowhere.json", "--html", out)
    assert missing.returncode == 2 and "nowhere.json" in missing.stderr


def test_an_input_is_never_overwritten(demo: Path, tmp_path: Path) -> None:
    pdf = demo.with_name("policy.pdf")
    original = pdf.read_bytes()
    link = tmp_path / "link.pdf"
    link.symlink_to(pdf)
    hard = tmp_path / "hard.pdf"
    os.link(pdf, hard)
    for args in (["--pdf", pdf], ["--pdf", link], ["--pdf", hard], ["--html", demo],
                 ["--csv", demo.with_name("demo.cite")], ["--pdf", demo.parent]):
        done = citeview(demo, *args)
        assert done.returncode == 2, args
        assert "is an input" in done.stderr and "Traceback" not in done.stderr
    assert pdf.read_bytes() == original and json.loads(demo.read_text())["claims"]
    same = citeview(demo, "--html", tmp_path / "x.html", "--csv", tmp_path / "x.html")
    assert same.returncode == 2 and "two outputs" in same.stderr


def test_a_device_fifo_or_link_to_one_is_refused_and_left_as_it_is(
        demo: Path, tmp_path: Path) -> None:
    null = os.stat("/dev/null")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    link = tmp_path / "link.html"
    link.symlink_to("/dev/null")
    for option, out, said in (("--csv", Path("/dev/null"), "is a character device"),
                              ("--annotations", fifo, "is a FIFO (named pipe)"),
                              ("--html", link, "is a link to /dev/null")):
        done = citeview(demo, option, out)
        assert done.returncode == 2 and f"{out}: " in done.stderr and said in done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == \
        (null.st_ino, null.st_rdev)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.readlink(link) == "/dev/null"


def test_a_link_to_a_file_is_written_through_keeping_its_mode(demo: Path,
                                                             tmp_path: Path) -> None:
    real = tmp_path / "shared" / "table.csv"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "table.csv"
    link.symlink_to(real)
    done = citeview(demo, "--csv", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and real.read_text(encoding="utf-8-sig").startswith("claim_id")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_usage_mistakes_exit_2(demo: Path, tmp_path: Path) -> None:
    assert citeview(demo).returncode == 2  # nothing asked for
    bad = tmp_path / "bad.cite"
    bad.write_text('{"claims": 3}', encoding="utf-8")
    done = citeview(bad, "--html", tmp_path / "r.html")
    assert done.returncode == 2 and "bad.cite" in done.stderr
    assert not (tmp_path / "r.html").exists()
    nowhere = citeview(demo, "--html", tmp_path / "no" / "such" / "r.html")
    assert nowhere.returncode == 2 and "r.html" in nowhere.stderr


def test_several_documents_and_one_missing(tmp_path: Path) -> None:
    lines = ["The insurer pays the reasonable cost of temporary repairs after a loss.",
             "Water damage from a continuous leak over fourteen days is excluded."]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = write_pdf(tmp_path / "a" / "policy.pdf", [paragraph(lines)])
    b = write_pdf(tmp_path / "b" / "policy.pdf", [paragraph(lines[::-1])])
    cite = write_cite(tmp_path / "two.cite", {"a": a, "b": b, "gone": tmp_path / "gone.pdf"},
                      [("c1", "a", 1, lines[0]), ("c2", "b", 1, lines[1]),
                       ("c3", "gone", 1, lines[1])])
    out = tmp_path / "copies"
    done = citeview(cite, "--pdf", out, "--csv", tmp_path / "r.csv")
    assert done.returncode == 2 and "gone.pdf" in done.stderr
    # One copy per usable document, under its own name (the id first: the names clash).
    assert sorted(p.name for p in out.iterdir()) == ["a-policy.pdf", "b-policy.pdf"]
    with pymupdf.open(out / "b-policy.pdf") as doc:
        page = doc[0]
        assert [a.info["id"] for a in page.annots()] == ["citeview:c2#0"]
    assert csv_rows(tmp_path / "r.csv")["c3#0"]["status"] == "not_located"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    target.write_bytes(b"old report")

    def broken(fh: io.BufferedWriter) -> None:
        fh.write(b"half of a new rep")
        raise RuntimeError("disk pulled out")

    with pytest.raises(RuntimeError):
        write_atomically(target, broken)  # type: ignore[arg-type]
    assert target.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_a_killed_export_leaves_no_half_file(tmp_path: Path) -> None:
    """Killed at moments spread over its run, an export leaves under the output's name
    either nothing or a whole PDF: never part of one."""
    lines = [f"Line {i} of the schedule names coverage item number {i * 7} in full."
             for i in range(40)]
    pdf = write_pdf(tmp_path / "big.pdf", [paragraph(lines) for _ in range(120)])
    cite = write_cite(tmp_path / "big.cite", {"doc": pdf},
                      [(f"c{i}", "doc", i + 1, lines[i % 40]) for i in range(120)])
    start = time.monotonic()
    full = citeview(cite, "--pdf", tmp_path / "whole.pdf")
    assert full.returncode == 0, full.stderr
    took = time.monotonic() - start
    seen = set()
    killed = 0  # exports the kill stopped before they ended (the test's reach)
    for k in range(8):
        out = tmp_path / f"killed{k}.pdf"
        proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "export", str(cite),
                                 "--pdf", str(out), "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(took * (k + 1) / 9)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        killed += proc.returncode == -signal.SIGKILL
        if out.exists():
            seen.add("whole")
            assert info(out)["Pages"] == "120"
            with pymupdf.open(out) as doc:
                assert doc.page_count == 120
        else:
            seen.add("none")
    # Both outcomes are fine (half a file never is, checked above); the kills must have
    # landed while exports were running, or nothing was tested.
    assert killed >= 1, f"every export ended before its kill: {seen}"


def test_one_output_that_cannot_be_written_stops_them_all(demo: Path, tmp_path: Path
                                                          ) -> None:
    """Checked before any work: a read-only file, a folder that does not exist, a FIFO —
    the others are not written either, and stdout (the list of files written) is empty."""
    kept = tmp_path / "kept.html"
    kept.write_text("the report from before")
    kept.chmod(0o444)
    fifo = tmp_path / "pipe.jsonld"
    os.mkfifo(fifo)
    for bad, said in ((kept, "is read-only"), (tmp_path / "no" / "r.jsonld",
                                              "a folder on the path does not exist"),
                      (fifo, "is a FIFO")):
        option = "--html" if bad.suffix == ".html" else "--annotations"
        csv_out, pdf_out = tmp_path / "r.csv", tmp_path / "copy.pdf"
        done = citeview(demo, "--csv", csv_out, "--pdf", pdf_out, option, bad)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert f"{bad}: " in done.stderr and said in done.stderr
        assert "nothing was written" in done.stderr and "Traceback" not in done.stderr
        assert not csv_out.exists() and not pdf_out.exists()
    assert kept.read_text() == "the report from before"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_disk_that_fills_up_mid_export_leaves_every_output_as_it_was(
        demo: Path, tmp_path: Path) -> None:
    """Past the checks, the HTML report fills a small disk: the CSV table, already whole
    in its temporary file on another disk, is not put in place either."""
    from tests.viewer.fsutil import full_disk

    csv_out = tmp_path / "r.csv"
    csv_out.write_text("old table")
    with full_disk(tmp_path / "small", size_kb=64) as small:
        html = small / "r.html"  # the demo's report with its pictures is ~300 KB
        done = citeview(demo, "--csv", csv_out, "--html", html)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert "the disk is full" in done.stderr and "nothing was written" in done.stderr
        assert not html.exists() and os.listdir(small) == []
    assert csv_out.read_text() == "old table"
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_web_annotation_sources_are_relative_unless_absolute_is_asked(demo: Path,
                                                                     tmp_path: Path) -> None:
    out = tmp_path / "out" / "r.jsonld"
    out.parent.mkdir()
    for extra, expected in (((), "../case/policy.pdf"),
                            (("--absolute-sources",), demo.with_name("policy.pdf").as_uri())):
        done = citeview(demo, "--annotations", out, *extra)
        assert done.returncode == 0, done.stderr
        data = json.loads(out.read_text(encoding="utf-8"))
        sources = {a["target"]["source"]["id"] if isinstance(a["target"], dict) else
                   a["target"][0]["source"]["id"] for a in data["first"]["items"]}
        assert sources == {expected}


def hostile_pdf(path: Path, lines: list[str]) -> Path:
    """A PDF with scripts everywhere a reader runs them: on opening (OpenAction and the
    named scripts), on showing the page (its additional actions) and on a click (an
    annotation's action)."""
    write_pdf(path, [paragraph(lines)])
    doc = pymupdf.open(path)
    catalog, page = doc.pdf_catalog(), doc[0]
    doc.xref_set_key(catalog, "OpenAction", "<</S/JavaScript/JS(app.alert\\(1\\))>>")
    script = doc.get_new_xref()
    doc.update_object(script, "<</S/JavaScript/JS(app.alert\\(2\\))>>")
    names = doc.get_new_xref()
    doc.update_object(names, f"<</Names[(boot) {script} 0 R]>>")
    doc.xref_set_key(catalog, "Names", f"<</JavaScript {names} 0 R>>")
    doc.xref_set_key(page.xref, "AA", "<</O<</S/JavaScript/JS(app.alert\\(3\\))>>>>")
    note = page.add_text_annot((300, 300), "click me")
    doc.xref_set_key(note.xref, "A", "<</S/Launch/F(/bin/sh)>>")
    doc.save(path.with_suffix(".tmp.pdf"))
    doc.close()
    path.with_suffix(".tmp.pdf").replace(path)
    return path


def scripts_in(path: Path) -> list[str]:
    """Every script or launch a reader would find in ``path``, by PyMuPDF and by poppler."""
    found = []
    with pymupdf.open(path) as doc:
        for xref in range(1, doc.xref_length()):
            text = doc.xref_object(xref, compressed=True)
            if ("/JS" in text and "/JS null" not in text) or "/Launch" in text \
                    or "/AA<<" in text or ("/AA " in text and "/AA null" not in text):
                found.append(text)
    js = subprocess.run(["pdfinfo", "-js", str(path)], capture_output=True, text=True)
    found += [ln for ln in js.stdout.splitlines() if "app.alert" in ln]
    return found


def test_the_annotated_copy_runs_none_of_the_originals_scripts(tmp_path: Path) -> None:
    lines = [f"Clause {i}: the insurer pays the reasonable cost of repairs item {i}."
             for i in range(12)]
    pdf = hostile_pdf(tmp_path / "hostile.pdf", lines)
    assert len(scripts_in(pdf)) >= 4  # the check can fail: the original has them
    original = pdf.read_bytes()
    cite = write_cite(tmp_path / "h.cite", {"doc": pdf}, [("c1", "doc", 1, lines[3])])
    copy = tmp_path / "copy.pdf"
    done = citeview(cite, "--pdf", copy)
    assert done.returncode == 0, done.stderr
    assert scripts_in(copy) == []
    assert copy.read_bytes().startswith(original)  # an update after the original's bytes
    with pymupdf.open(copy) as doc:
        assert [a.info["id"] for a in doc[0].annots() if a.info["id"].startswith("citeview")]
