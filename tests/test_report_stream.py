"""``check --json`` written a claim at a time is byte for byte the report printed whole
(``model_json``, as before): on the demo, on a generated file, and on any report."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.jsonout import model_json
from matcher.report import (
    CheckReport,
    ClaimResult,
    EvidenceResult,
    write_report_json,
)
from tests.simplepdf import paragraph, write_pdf
from viewer.commands.check import check_file

LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss.",
         "Water damage from a continuous leak over fourteen days is excluded."]


def streamed(report: CheckReport) -> str:
    out = io.StringIO()
    write_report_json(report, out)
    return out.getvalue()


def whole(report: CheckReport) -> str:
    return model_json(report) + "\n"  # what `check --json` printed before


def generated(folder: Path) -> Path:
    """Located, differing, not located, rejected and uncited claims, a missing document
    (a file-level problem) and a claim id that reads like the report's own field."""
    write_pdf(folder / "policy.pdf", [[("Declarations page", 72, 80)], paragraph(LINES)])
    claims = [
        {"id": "c1", "text": "Temporary repairs are paid", "evidence": [
            {"document": "policy", "quote": "reasonable cost of temporary repairs"},
            {"document": "policy", "quote": "a continuous leak over fifteen days"}]},
        {"id": '\n  "claims": [],', "text": "odd id\u2028", "evidence": [
            {"document": "policy", "page": 2, "quote": "Mould is covered in full"}]},
        {"id": "c3", "text": "none", "evidence": []},
        {"id": "c4", "text": "gone", "evidence": [{"document": "gone", "quote": "x y z"}]},
        {"id": "c5", "text": "web", "evidence": [{"document": "policy", "quote": "q",
                                                  "rejected": "a web page"}]},
    ]
    path = folder / "answer.cite"
    path.write_text(json.dumps({"version": 1, "documents": [
        {"id": "policy", "path": "policy.pdf"}, {"id": "gone", "path": "gone.pdf"}],
        "claims": claims}), encoding="utf-8")
    return path


def test_the_demo_streams_as_it_printed_whole() -> None:
    demo = Path(str(resources.files("resources") / "demo" / "demo.cite"))
    report = check_file(demo).report
    assert report is not None and len(report.claims) >= 10
    assert streamed(report) == whole(report)
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(demo), "--json",
                           "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == whole(report)  # the command's own stdout, end to end


def test_a_generated_file_streams_as_it_printed_whole(tmp_path: Path) -> None:
    report = check_file(generated(tmp_path)).report
    assert report is not None
    statuses = {e.status for c in report.claims for e in c.evidence}
    assert {"located", "not_located", "rejected"} <= statuses and report.problems
    assert streamed(report) == whole(report)
    assert json.loads(streamed(report)) == report.model_dump(mode="json")


def test_no_claims_streams_as_it_printed_whole() -> None:
    report = CheckReport.build([], ["a problem"])
    assert streamed(report) == whole(report)


texts = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ['"claims": [],', "\n  \"claims\": [],", "]\n}", "\\n",
     "caf\u00e9 \udcff.pdf"])  # a lone surrogate: a path decoded with surrogateescape
REACHED: list[int] = []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(texts, texts, st.lists(texts, max_size=3)), max_size=4),
       st.lists(texts, max_size=2))
def test_any_report_streams_as_it_printed_whole(
        claims: list[tuple[str, str, list[str]]], problems: list[str]) -> None:
    report = CheckReport.build([
        ClaimResult(id=cid or "c", text=text, evidence=[
            EvidenceResult(index=i, status="not_located", reason=r, quote=r, score=i / 3)
            for i, r in enumerate(reasons)]) for cid, text, reasons in claims], problems)
    # A lone surrogate sends model_json to its json.dumps fallback for the whole report,
    # and the stream for that claim alone: floats in exponent form may then be spelled
    # differently (1e-07 against 1e-7), the same values. Otherwise the same bytes.
    assert json.loads(streamed(report)) == json.loads(whole(report))
    if "\udcff" not in repr(report.model_dump()):
        assert streamed(report) == whole(report)
    REACHED.append(len(report.claims))


def test_the_property_reached_its_assertion() -> None:
    test_any_report_streams_as_it_printed_whole()
    assert len(REACHED) >= 30 and any(REACHED) and 0 in REACHED
