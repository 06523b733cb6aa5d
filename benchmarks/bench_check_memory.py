#!/usr/bin/env python3
"""Benchmark ``citeview check``'s memory against the size of the citations file.

A citations file of ``--claims`` claims, each with one short quote of a document that is
missing (so no page is searched: what is measured is reading, validating, reporting and
printing, not matching), is checked by ``citeview check --json`` in a child process; the
table prints its peak resident memory (``ru_maxrss``), the file's size, and their ratio
(the target is at most 10× the file plus the documents' working set: here no document),
next to the baseline of the same run: a child that only starts Python and imports what
the check imports. With ``--before REV`` each size is also checked by the code of that
git revision (extracted to a temporary folder and run from there), in the same run, each
size's rows one after the other. ``--megabytes`` adds rows of files of about that size
(64: the default size cap), as many claims as fill it. No asserts: a measurement. Usage::

    python benchmarks/bench_check_memory.py [--claims 10000 100000] [--megabytes 64]
        [--before REV]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IMPORTS_ONLY = "import matcher.check, matcher.citations, viewer.commands.check"


def citations(folder: Path, claims: int) -> Path:
    """A file of ``claims`` claims, written a claim at a time: this process stays small,
    for a child's ``ru_maxrss`` counts the pages it shared with it when forked."""
    path = folder / f"c{claims}.cite"
    with path.open("w", encoding="utf-8") as out:  # json.dumps' bytes of the whole
        out.write('{"version": 1, "documents": [{"id": "gone", "path": "gone.pdf"}], '
                  '"claims": [')
        for k in range(claims):
            out.write((", " if k else "") + json.dumps(
                {"id": f"c{k}", "text": f"Claim {k} says the limit is {k} dollars.",
                 "evidence": [{"document": "gone", "page": 1,
                               "quote": f"the limit is {k} dollars"}]}))
        out.write("]}")
    return path


def claims_filling(folder: Path, megabytes: float) -> int:
    """How many claims make a file of at most ``megabytes`` MB (10^6 bytes), near it."""
    n = int(megabytes * 1e6 / 160)
    for _ in range(3):  # a claim's size grows with its number's digits: converge
        path = citations(folder, n)
        size = path.stat().st_size
        path.unlink()
        n = int(n * megabytes * 1e6 / size * 0.9995)
    return n


def peak_mb(args: list[str], *, cwd: Path = REPO) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of a child process running ``args`` in ``cwd`` (whose
    packages ``python -m`` imports first).

    ``ru_maxrss`` of RUSAGE_CHILDREN is the largest child so far, so each run is measured
    in a fresh grandchild that reports its own."""
    start = time.perf_counter()
    probe = ("import resource, runpy, sys; sys.argv = sys.argv[1:]; "
             "import atexit; atexit.register(lambda: print(resource.getrusage("
             "resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)); "
             "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)")
    done = subprocess.run([args[0], "-c", probe, *args[2:]] if args[1] == "-m" else args,
                          cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=3600)
    took = time.perf_counter() - start
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    if args[1] == "-m" and last.isdigit():
        return int(last) / 1024, took
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, took


def extracted(rev: str, folder: Path) -> Path:
    """The tree of git revision ``rev``, written to ``folder``."""
    archive = subprocess.run(["git", "archive", rev, "matcher", "viewer", "resources"],
                             cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--megabytes", type=float, nargs="*", default=[],
                    help="also rows of files of about this many MB (64: the size cap)")
    ap.add_argument("--before", metavar="REV", default=None,
                    help="also measure the code of this git revision, same run")
    opts = ap.parse_args()
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: measure smallest first.
    base, _ = peak_mb([sys.executable, "-c", IMPORTS_ONLY])
    print(f"baseline (Python and the check's imports): {base:.0f} MB peak RSS")
    print(f"{'code':>10} {'claims':>8} {'file MB':>8} {'peak MB':>8} {'× file':>7} "
          f"{'above base × file':>18} {'s':>6}")
    with tempfile.TemporaryDirectory(prefix="bench-check-mem-") as tmp:
        trees = [("this tree", REPO)]
        if opts.before is not None:
            old = Path(tmp) / "before"
            old.mkdir()
            trees.insert(0, (opts.before[:10], extracted(opts.before, old)))
        sizes = opts.claims + [claims_filling(Path(tmp), mb) for mb in opts.megabytes]
        for n in sorted(sizes):
            cite = citations(Path(tmp), n)
            size = cite.stat().st_size / 1e6
            for name, tree in trees:
                peak, took = peak_mb([sys.executable, "-m", "viewer.cli", "check", str(cite),
                                      "--json", "--quiet", "--max-size", "1000"], cwd=tree)
                print(f"{name:>10} {n:>8} {size:8.1f} {peak:8.0f} {peak / size:7.1f} "
                      f"{(peak - base) / size:18.1f} {took:6.1f}", flush=True)


if __name__ == "__main__":
    main()
