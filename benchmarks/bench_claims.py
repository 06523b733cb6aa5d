#!/usr/bin/env python3
"""What the claim check (issue 22: a claim's figures, dates and negations against its
evidence) adds to ``citeview check``'s time, on the chunk-repair benchmark file.

The file is :func:`bench_span.repair_file`'s (1,000 corpus chunks of 25 PDFs, 500 evidence
items, half citing a wrong chunk), with one change: its claims say "claim N", which holds
no figure, so each claim's text is made its quote instead — every claim then has the
figures, dates and negations of a line or two of a real page to read, the heaviest
honest case. ``check_citations`` runs on it in this process, alternately as it is and
with the claim step replaced by a constant (the baseline: the same check without it),
``--rounds`` times each after a warm-up of each (who goes first alternates); printed are
the medians of the process's CPU time (which other work on a shared machine inflates far
less than wall time) and of wall time, their ratios (target ≤ 1.05), and the claim step
alone (its calls summed within one check).

    python benchmarks/bench_claims.py [--corpus DIR] [--rounds 3] [--scale 1.0] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent),
                str(Path(__file__).resolve().parents[1] / "scripts"),
                str(Path(__file__).resolve().parents[1])]

import bench_span  # noqa: E402
from evalcases import require_corpus  # noqa: E402

import matcher.check as check_module  # noqa: E402
from matcher.citations import load_citations  # noqa: E402
from matcher.report import ConsistencyResult  # noqa: E402

TARGET_RATIO = 1.05


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    corpus = require_corpus(args.corpus)
    data = bench_span.repair_file(corpus, chunks=max(4, round(1000 * args.scale)),
                                  items=max(2, round(500 * args.scale)), seed=args.seed)
    for claim in data["claims"]:
        claim["text"] = claim["evidence"][0]["quote"]
    real = check_module.claim_consistency
    spent: list[float] = []  # the claim step's CPU seconds, call by call

    def timed(text: str, results: list) -> ConsistencyResult:  # type: ignore[type-arg]
        c0 = time.process_time()
        out = real(text, results)
        spent.append(time.process_time() - c0)
        return out

    def constant(text: str, results: list) -> ConsistencyResult:  # type: ignore[type-arg]
        return ConsistencyResult()

    with tempfile.TemporaryDirectory(prefix="bench-claims-") as tmp:
        cite = Path(tmp) / "repair.cite"
        cite.write_text(json.dumps(data), encoding="utf-8")
        cf = load_citations(cite)
        wall: dict[str, list[float]] = {"with": [], "without": []}
        cpu: dict[str, list[float]] = {"with": [], "without": []}
        step: list[float] = []
        differs = 0
        runs = [("with", timed), ("without", constant)]
        for round_ in range(args.rounds + 1):  # the first round of each is a warm-up
            for name, fn in runs if round_ % 2 else runs[::-1]:  # alternate who goes first
                spent.clear()
                check_module.claim_consistency = fn  # type: ignore[assignment]
                try:
                    t0, c0 = time.perf_counter(), time.process_time()
                    report = check_module.check_citations(cf, cite)
                    seconds, cpu_s = time.perf_counter() - t0, time.process_time() - c0
                finally:
                    check_module.claim_consistency = real
                if round_:
                    wall[name].append(seconds)
                    cpu[name].append(cpu_s)
                    if name == "with":
                        step.append(sum(spent))
                        differs = report.summary.differs
    print(f"check of the chunk-repair file ({len(data['claims'])} claims, their texts the "
          f"quotes), median of {args.rounds}, the two alternating in one process:")
    for label, table in (("CPU time of the process", cpu), ("wall time", wall)):
        w, wo = statistics.median(table["with"]), statistics.median(table["without"])
        print(f"  {label}: with the claim check {w:.3f} s, without (baseline) {wo:.3f} s, "
              f"ratio {w / wo:.3f} (target ≤ {TARGET_RATIO})")
    with_cpu = statistics.median(cpu["with"])
    print(f"  the claim step alone (CPU, summed over its calls): "
          f"{statistics.median(step) * 1000:.1f} ms = {statistics.median(step) / with_cpu:.1%} "
          f"of the check's CPU time; {differs} claims differ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
