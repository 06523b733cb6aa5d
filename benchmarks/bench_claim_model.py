#!/usr/bin/env python3
"""Benchmark the window with one claim of very many evidence items (``--items``).

A generated 20-page PDF and one claim quoting its lines; the check runs once on 100 of
them (``citeview check --json``), and its outcomes are repeated to make the report of a
claim with N items — what the window receives from its check process. In a real
offscreen window, each row times, from the report's arrival until every posted event is
handled: the report shown with its claim selected (the claims list, the detail pane, the
review panel). Baseline: the same with 100 items, same run. Each N runs in a child
process, ``--repeat`` times (median). No asserts: a measurement. Usage::

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_claim_model.py [--items 100 1000 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
BASE_ITEMS = 100


def generated(folder: Path) -> tuple[Path, Path]:
    """The PDF, a citations file of one claim with 100 quotes, and its check report."""
    import pymupdf

    doc = pymupdf.open()
    lines = []
    for n in range(20):
        page = doc.new_page()
        for i in range(40):
            text = (f"Item {n}.{i}: coverage of class {i * 13 % 97} for schedule {n} is "
                    f"limited to {n * 40 + i} dollars.")
            page.insert_text((72, 72 + 16 * i), text, fontsize=10)
            lines.append((n + 1, text))
    doc.save(folder / "s.pdf")
    evidence = [{"document": "s", "page": p, "quote": q} for p, q in lines[:BASE_ITEMS]]
    cite = folder / "base.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "s", "path": "s.pdf"}],
                                "claims": [{"id": "c1", "text": "many", "evidence": evidence}]}))
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(cite), "--json",
                           "--quiet"], capture_output=True, text=True, cwd=REPO)
    report = folder / "base.json"
    report.write_text(done.stdout)
    return cite, report


def scaled(folder: Path, cite: Path, report: Path, items: int) -> tuple[Path, Path]:
    """The citations file and report with the one claim's items repeated to ``items``."""
    data, checked = json.loads(cite.read_text()), json.loads(report.read_text())
    ev = data["claims"][0]["evidence"]
    data["claims"][0]["evidence"] = [ev[k % len(ev)] for k in range(items)]
    out_ev = checked["claims"][0]["evidence"]
    checked["claims"][0]["evidence"] = [dict(out_ev[k % len(out_ev)], index=k)
                                        for k in range(items)]
    big_cite, big_report = folder / f"one{items}.cite", folder / f"one{items}.json"
    big_cite.write_text(json.dumps(data))
    big_report.write_text(json.dumps(checked))
    return big_cite, big_report


def child(cite: Path, report_path: Path) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from matcher.citations import load_citations
    from viewer.checker.citations import citations_record
    from viewer.state.records import Report
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        prefs = Preferences(QSettings(str(Path(tmp) / "x.ini"), QSettings.Format.IniFormat))
        window = MainWindow(prefs, interactive=False)
        window.resize(1200, 800)
        window.show()
        app.processEvents()
        citations = citations_record(load_citations(cite), cite)
        report = Report.from_json(json.loads(report_path.read_text()))
        window.session.open_citations(cite.resolve(), citations)
        app.processEvents()
        start = time.perf_counter()
        window.controller._checked(report)  # what the check process's answer does
        app.processEvents()
        took = time.perf_counter() - start
        window.close()
    print(json.dumps({"seconds": took}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, nargs="+", default=[BASE_ITEMS, 1000, 10000])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        child(Path(opts.child[0]), Path(opts.child[1]))
        return
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    with tempfile.TemporaryDirectory(prefix="bench-claim-model-") as tmp:
        folder = Path(tmp)
        cite, report = generated(folder)
        print(f"one claim, N evidence items: report arrival to shown, median of {opts.repeat}")
        print(f"{'items':>7} {'seconds':>9} {'× 100 items':>12}")
        base = None
        for items in dict.fromkeys([BASE_ITEMS, *opts.items]):
            c, r = scaled(folder, cite, report, items)
            times = []
            for _ in range(opts.repeat):
                done = subprocess.run([sys.executable, __file__, "--child", str(c), str(r)],
                                      capture_output=True, text=True, cwd=REPO, env=env,
                                      timeout=900)
                if done.returncode != 0:
                    print(done.stderr[-2000:])
                    raise SystemExit(1)
                times.append(json.loads(done.stdout.splitlines()[-1])["seconds"])
            took = statistics.median(times)
            base = base or took
            print(f"{items:>7} {took:9.3f} {took / base:12.1f}")


if __name__ == "__main__":
    main()
