"""Every export carries a claim that misstates its evidence: the CSV's column, the HTML
report's row, the annotated PDF's note and the Web Annotations' body all name the demo's
misstated premium ($952.18 claimed, $925.18 on the page) and only it."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pymupdf

from viewer.export.run import export
from viewer.state.exports import ExportTargets
from viewer.state.files import demo_path

from .helpers import checked

SAID = "The claim says $952.18; its evidence says $925.18"


def test_each_export_names_the_claim_that_differs(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    shutil.copytree(demo_path().parent, folder, ignore=shutil.ignore_patterns("__*"))
    cite = folder / "demo.cite"
    report, citations = checked(cite)
    differs = [c["id"] for c in report["claims"] if c["consistency"]["status"] == "differs"]
    assert differs == ["c15"]
    t = ExportTargets(pdf=tmp_path / "a.pdf", html=tmp_path / "r.html", csv=tmp_path / "r.csv",
                      annotations=tmp_path / "r.jsonld")
    export(report, citations_path=cite, citations=citations, targets=t)

    table = list(csv.DictReader(io.StringIO(t.csv.read_bytes().decode("utf-8-sig"),
                                            newline="")))
    by_claim = {r["claim_id"]: r["claim_consistency"] for r in table}
    assert by_claim["c15"] == f"differs: {SAID}"
    assert by_claim["c16"] == "consistent" and by_claim["c9"] == "unchecked"

    html = t.html.read_text(encoding="utf-8")
    section = html[html.index('id="claim-c15"'):html.index('id="claim-c16"')]
    assert "Claim differs" in section and SAID in section
    assert html.count(SAID) == 1

    with pymupdf.open(t.pdf) as doc:
        notes = [a.info["content"] for page in doc for a in page.annots()]
    assert [n for n in notes if SAID in n] == [
        n for n in notes if n.startswith("Claim c15:")]
    assert any(f"Claim differs: {SAID}" in n for n in notes)

    graph = json.loads(t.annotations.read_text(encoding="utf-8"))
    items = graph.get("items") or graph.get("first", {}).get("items") or []
    bodies = [(b["purpose"], b["value"]) for a in items for b in a["body"]
              if SAID in b["value"]]
    assert bodies == [("assessing", f"Claim differs: {SAID}.")]
