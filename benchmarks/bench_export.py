#!/usr/bin/env python3
"""Benchmark ``citeview export``: each output's time against the check of the same file.

Two files: the bundled demo (3 pages, 12 evidence items), and a generated 300-page PDF
with 200 citations (one quoted line on each of 200 pages, with a review that decides a
quarter of them). For each, in the same process and the same run:

* the baseline, ``check``: reading the citations file and checking every quote (what
  ``citeview check`` does before it prints);
* each output alone — the annotated PDF, the HTML report (pictures included), the CSV
  table, the W3C Web Annotations — given the checked report, as ``citeview export``
  does after its check.

Each is repeated ``--repeat`` times after one warm-up; the table prints medians and their
ratio to the check. A whole ``citeview export`` of one output costs the check plus that
output. No asserts: this is a measurement, not a test. Usage::

    python benchmarks/bench_export.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from matcher.check import check_citations  # noqa: E402
from matcher.citations import load_citations  # noqa: E402
from viewer.checker.server import citations_record  # noqa: E402
from viewer.export.run import export  # noqa: E402
from viewer.state.exports import ExportTargets  # noqa: E402
from viewer.state.files import demo_path  # noqa: E402

PAGES, CITATIONS = 300, 200
OUTPUTS = ("pdf", "html", "csv", "annotations")
SUFFIX = {"pdf": ".pdf", "html": ".html", "csv": ".csv", "annotations": ".jsonld"}


def generated(folder: Path) -> Path:
    """A 300-page PDF of numbered schedule lines and 200 citations of lines on it."""
    doc = pymupdf.open()
    for n in range(PAGES):
        page = doc.new_page()
        for i in range(40):
            page.insert_text((72, 72 + 16 * i), f"Item {n}.{i}: coverage of class {i * 13 % 97}"
                             f" for schedule {n} is limited to {n * 40 + i} dollars.",
                             fontsize=10)
    pdf = folder / "schedule.pdf"
    doc.save(pdf)
    claims = []
    for k in range(CITATIONS):
        n, i = k * PAGES // CITATIONS, (k * 7) % 40
        quote = (f"Item {n}.{i}: coverage of class {i * 13 % 97} for schedule {n} is "
                 f"limited to {n * 40 + i} dollars.")
        claims.append({"id": f"c{k}", "text": f"Schedule {n} limits item {i}.",
                       "evidence": [{"document": "schedule", "page": n + 1, "quote": quote}]})
    cite = folder / "schedule.cite"
    cite.write_text(json.dumps({"version": 1, "claims": claims,
                                "documents": [{"id": "schedule", "path": "schedule.pdf"}]}))
    return cite


def reviewed(report: dict, every: int = 4) -> dict:
    """A quarter of the items confirmed by a reviewer, as ``check --review`` adds them."""
    for k, claim in enumerate(report["claims"]):
        claim["support"] = None
        for ev in claim["evidence"]:
            ev["decision"] = {"placement": "confirmed", "page": ev["page"], "rects": ev["rects"],
                              "note": "", "reviewer": "bench", "at": "2026-12-01T13:00:00Z",
                              "stale": False} if k % every == 0 and ev["rects"] else None
    return report


def median_time(work: Callable[[], object], repeat: int) -> float:
    work()  # warm-up: imports, caches
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, cite: Path, out: Path, repeat: int) -> None:
    cf = load_citations(cite)
    citations = citations_record(cf, cite)
    report = reviewed(check_citations(cf, cite).model_dump(mode="json"))
    base = median_time(lambda: check_citations(load_citations(cite), cite), repeat)
    print(f"\n{name}: {sum(len(c['evidence']) for c in report['claims'])} evidence items")
    print(f"  {'step':<12} {'median s':>9} {'× check':>8}")
    print(f"  {'check':<12} {base:9.3f} {1.0:8.2f}   (baseline)")
    for kind in OUTPUTS:
        target = ExportTargets(**{kind: out / f"{name}{SUFFIX[kind]}"})
        took = median_time(lambda t=target: export(report, citations_path=cite,
                                                    citations=citations, targets=t), repeat)
        print(f"  {kind:<12} {took:9.3f} {took / base:8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copytree(demo_path().parent, folder / "demo",
                        ignore=shutil.ignore_patterns("__*"))
        (folder / "big").mkdir()
        big = generated(folder / "big")
        print(f"median of {opts.repeat} runs each, after one warm-up; same process")
        measure("demo", folder / "demo" / "demo.cite", folder, opts.repeat)
        measure(f"{PAGES} pages, {CITATIONS} citations", big, folder, opts.repeat)


if __name__ == "__main__":
    main()
