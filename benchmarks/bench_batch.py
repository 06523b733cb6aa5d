"""Batch benchmark: many citations files checked one process each, or by ``citeview batch``.

    python benchmarks/bench_batch.py [--files 200] [--seed 25]

Writes ``--files`` citations files over PDFs of the shared corpus (tests/batch_corpus.py:
quotes from each PDF's own text, some changed or invented; document sets repeat, as a
day's answers repeat a few policies), then times, in one run on this machine:

1. the baseline: ``citeview check --json FILE`` for each file, one after the other (what
   a pipeline without batch does);
2. ``citeview batch --workers 1`` and ``--workers 2`` over the same files (fresh results
   file each: every file is checked), the local cluster's start and stop included;
3. what a ``check`` process spends before checking anything (an empty citations file),
   the share of the baseline that batch never pays again;
4. a rerun of the batch into its results file (nothing to check: the resume cost);
5. from the batch's own progress line, its checking rate once the cluster is up, so the
   cluster's start-up (a scheduler and worker processes importing PyMuPDF) is told apart.

It prints the times, files/s and the ratios against the baseline measured in the same run
(the machine is shared: absolute times vary, ratios measured together hold better), and
checks that the batch's reports equal the baseline's. Nothing here asserts speed.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
BIN = Path(sys.executable).parent
CORPUS = REPO.parent / "shared" / "corpus"


def timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    from tests.batch_corpus import write_citations_files

    with tempfile.TemporaryDirectory(prefix="citeview-bench-batch-") as tmp:
        folder = Path(tmp) / "answers"
        files = write_citations_files(folder, CORPUS, args.files, seed=args.seed)
        citeview = str(BIN / "citeview")

        empty = Path(tmp) / "empty.cite"
        empty.write_text('{"claims": []}')
        startup = statistics.median(timed([citeview, "check", "--json", str(empty)])[0]
                                    for _ in range(5))

        reports: dict[str, object] = {}
        start = time.perf_counter()
        for path in files:
            done = subprocess.run([citeview, "check", "--json", "--quiet", str(path)],
                                  capture_output=True, text=True)
            reports[str(path)] = json.loads(done.stdout)
        sequential = time.perf_counter() - start

        runs: dict[int, float] = {}
        rates: dict[int, float] = {}
        for workers in (1, 2):
            out = Path(tmp) / f"results-{workers}.jsonl"
            runs[workers], done = timed([citeview, "batch", str(folder), "--out", str(out),
                                         "--workers", str(workers)])
            # The progress line's rate counts from the cluster's start: checking alone.
            rates[workers] = float(re.findall(r"([0-9.]+) files/s", done.stderr)[-1])
            lines = [json.loads(x) for x in out.read_text().splitlines()]
            same = sum(reports[x["citations"]] == x["report"] for x in lines)
            if done.returncode != 0 or same != len(files):
                print(f"batch --workers {workers}: exit {done.returncode}, {same} of "
                      f"{len(files)} reports equal check --json\n{done.stderr}")
                return 1
        rerun, _ = timed([citeview, "batch", str(folder), "--out",
                          str(Path(tmp) / "results-2.jsonl"), "--workers", "2", "--quiet"])

    n = len(files)
    print(f"{n} citations files over {CORPUS} (seed {args.seed}); every batch report equal "
          "to check --json's")
    print(f"{'run':34} {'seconds':>8} {'files/s':>8} {'× baseline':>10}")
    rows = [("check per file, sequential (base)", sequential),
            ("batch --workers 1", runs[1]), ("batch --workers 2", runs[2]),
            ("batch rerun (all skipped)", rerun)]
    for name, t in rows:
        print(f"{name:34} {t:8.1f} {n / t:8.2f} {t / sequential:10.2f}")
    for workers in (1, 2):
        up = runs[workers] - n / rates[workers]
        print(f"batch --workers {workers}: checking {rates[workers]:.2f} files/s once the "
              f"cluster is up; start-up and stop {up:.1f} s of {runs[workers]:.1f} s")
    print(f"check process start-up (empty file, median of 5): {startup:.2f} s = "
          f"{startup * n / sequential:.0%} of the baseline")
    print(f"workers 2 vs 1: {runs[1] / runs[2]:.2f}x the throughput end to end, "
          f"{rates[2] / rates[1]:.2f}x once the cluster is up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
