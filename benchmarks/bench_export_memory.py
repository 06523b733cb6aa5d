#!/usr/bin/env python3
"""Benchmark the HTML export's memory: streamed to disk against built whole in memory.

A generated PDF with one quoted line per page, at two sizes (``--items``). For each size,
three child processes, each measured by its peak resident memory (``ru_maxrss``):

* ``check`` — the baseline: reading the citations file and checking every quote, as
  ``citeview export`` does before it writes anything;
* ``streamed`` — the check, then the HTML report as the export writes it now, a picture
  at a time straight to its temporary file;
* ``whole`` — the check, then the report as it was written before: every item's picture
  rendered first and held, the whole page built as one string, then written.

The table prints each peak, the memory above the check, and per item; streamed should
stay flat as the items grow (one page picture), whole grows with them. Each child runs
``--repeat`` times and the median peak is printed. No asserts: a measurement. Usage::

    python benchmarks/bench_export_memory.py [--items 100 400] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def generated(folder: Path, items: int) -> Path:
    """A PDF of ``items`` pages of numbered schedule lines and one citation per page."""
    import pymupdf

    doc = pymupdf.open()
    for n in range(items):
        page = doc.new_page()
        for i in range(40):
            page.insert_text((72, 72 + 16 * i), f"Item {n}.{i}: coverage of class "
                             f"{i * 13 % 97} for schedule {n} is limited to {n * 40 + i} "
                             "dollars.", fontsize=10)
    doc.save(folder / "schedule.pdf")
    claims = []
    for n in range(items):
        i = (n * 7) % 40
        quote = (f"Item {n}.{i}: coverage of class {i * 13 % 97} for schedule {n} is "
                 f"limited to {n * 40 + i} dollars.")
        claims.append({"id": f"c{n}", "text": f"Schedule {n} limits item {i}.",
                       "evidence": [{"document": "schedule", "page": n + 1, "quote": quote}]})
    cite = folder / "schedule.cite"
    cite.write_text(json.dumps({"version": 1, "claims": claims,
                                "documents": [{"id": "schedule", "path": "schedule.pdf"}]}))
    return cite


def child(mode: str, cite: Path, out: Path) -> None:
    """Run one mode and print its peak memory (MB) and time (s) as JSON."""
    from matcher.check import check_citations
    from matcher.citations import load_citations
    from viewer.checker.server import citations_record
    from viewer.export import run
    from viewer.export.html_report import html_report
    from viewer.export.writing import write_bytes
    from viewer.state.exports import ExportTargets

    start = time.perf_counter()
    cf = load_citations(cite)
    report = check_citations(cf, cite).model_dump(mode="json")
    citations = citations_record(cf, cite)
    if mode == "streamed":
        run.export(report, citations_path=cite, citations=citations,
                   targets=ExportTargets(html=out))
    elif mode == "whole":  # the previous code's shape, from the same parts
        review = run.read_review(report, citations)
        docs = run._Documents({d.id: d.path for d in citations.documents}, {}, None)
        step = run._Steps(None, None)
        paint = run._painter(docs, step)
        pictures = {i.key: png for c in review.claims for i in c.items
                    if (png := paint(c, i)) is not None}
        facts = [run._facts(d, p, docs) for d, p in docs.paths.items()]
        text = html_report(review, citations_path=cite, documents=facts, pictures=pictures,
                           found={}, exported_at="2026-12-02T00:00:00Z")
        write_bytes(out, text.encode("utf-8"))
        docs.close()
    took = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"peak_mb": peak_mb, "seconds": took}))


def measure(mode: str, cite: Path, out: Path, repeat: int) -> tuple[float, float]:
    peaks, times = [], []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, __file__, "--child", mode, str(cite), str(out)],
                              capture_output=True, text=True, check=True, cwd=REPO)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        peaks.append(got["peak_mb"])
        times.append(got["seconds"])
    return statistics.median(peaks), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, nargs="+", default=[100, 400])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--child", nargs=3, metavar=("MODE", "CITE", "OUT"), help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        mode, cite, out = opts.child
        child(mode, Path(cite), Path(out))
        return
    print(f"peak resident memory, median of {opts.repeat} child run(s) each; baseline: "
          "the check alone, same run")
    print(f"{'items':>6} {'mode':<9} {'peak MB':>8} {'above check':>12} {'KB/item':>8} "
          f"{'s':>6} {'HTML MB':>8}")
    for items in opts.items:
        with tempfile.TemporaryDirectory(prefix="bench-export-mem-") as tmp:
            cite = generated(Path(tmp), items)
            base = 0.0
            for mode in ("check", "streamed", "whole"):
                out = Path(tmp) / f"{mode}.html"
                peak, took = measure(mode, cite, out, opts.repeat)
                base = peak if mode == "check" else base
                size = out.stat().st_size / 1e6 if out.exists() else 0.0
                above = peak - base
                print(f"{items:>6} {mode:<9} {peak:8.1f} {above:12.1f} "
                      f"{above * 1024 / items:8.1f} {took:6.1f} {size:8.1f}")


if __name__ == "__main__":
    main()
