#!/usr/bin/env python3
"""Benchmark a whole check over many documents: ``citeview check`` against a plain peer.

A citations file is built from the corpus PDFs (as ``bench_span.py`` builds its repair
file): chunks cut from their pages (``eval_spans.doc_pieces``), and evidence quoting a
sentence or line run of a chunk, some with typography altered. Of every ten items:

* 0–4 cite a chunk (its pages are the hint); the odd ones cite a wrong chunk of the same
  document, so chunk repair must find the right one;
* 5–9 name only the document, with no page hint: the whole document is searched.

``citeview check FILE --json --quiet`` and ``benchmarks/peer_check.py FILE`` (plain
PyMuPDF + rapidfuzz, words per page, window scoring, chunk repair, no index) run in the
same rounds, alternating, each in a fresh process: median wall time, CPU time (user +
system) and peak RSS (``os.wait4`` of the child), and their ratios. On a machine shared
with other work the wall time mostly measures the others; the CPU time does not.
``--baseline TREE`` runs a second citeview (the code before a change) in the same rounds.
Each tree's modules are compiled to bytecode first, as an installed citeview's are (pip
compiles them; the peer's PyMuPDF and rapidfuzz come compiled): where
PYTHONDONTWRITEBYTECODE is set, every check would otherwise compile its sixty modules
again (0.1 s of CPU).
Then how both grow from 5 to 25 to 100 documents (100: the corpus PDFs reused as copies,
so each is a document of its own).

No asserts: this is a measurement. Usage::

    python benchmarks/bench_check.py [--corpus DIR] [--documents 5,25,100] [--rounds 5]
                                     [--per-document 19] [--seed 1] [--keep DIR]
                                     [--baseline TREE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from eval_spans import doc_pieces, line_runs, sentences, unique_in
from evalcases import alter_typography, corpus_files, ref_fold, require_corpus, sub_rng

from matcher.citations import Chunk

REPO = Path(__file__).resolve().parents[1]
PEER = Path(__file__).resolve().parent / "peer_check.py"
# Pages cut into chunks per document (eval_spans' PAGES_PER_DOC is smaller).
CHUNK_PAGES = 40
# Items a chunk may not hold, for an item to need repair: its first characters.
KEY_CHARS = 40


def check_file(corpus: Path, folder: Path, *, documents: int, per_document: int,
               seed: int) -> Path:
    """Write a citations file over ``documents`` corpus PDFs (copied, so reused ones are
    documents of their own) into ``folder``; return its path."""
    rng = sub_rng(seed, "bench-check")
    base = [(cf, ps) for cf in corpus_files(corpus) if (ps := doc_pieces(cf, seed, CHUNK_PAGES))]
    # Largest first: every size holds the corpus's longest documents, and 100 documents
    # are its PDFs over again (so the largest document stays the same while the sum grows).
    base.sort(key=lambda d: (-_page_count(d[0].path), d[0].name))
    docs: list[dict[str, str]] = []
    chunks: list[Chunk] = []
    by_doc: dict[str, list[Chunk]] = {}
    for k in range(documents):
        cf, pieces = base[k % len(base)]
        doc_id = f"d{k + 1:03d}_{cf.path.stem}"
        target = folder / f"{doc_id}.pdf"
        shutil.copyfile(cf.path, target)
        docs.append({"id": doc_id, "path": target.name})
        own = [Chunk(id=f"{doc_id}#{i}", document=doc_id, text=p.chunk.text,
                     pages=p.chunk.pages) for i, p in enumerate(pieces)]
        chunks += own
        by_doc[doc_id] = own
    passages: dict[str, list[tuple[int, int]]] = {}  # by chunk text: its quotable passages
    folded: dict[str, str] = {}
    claims: list[dict[str, Any]] = []
    want = documents * per_document
    for c in chunks:
        _passages(c.text, passages, rng)
    quotable = [d for d in docs if any(passages[c.text] for c in by_doc[d["id"]])]
    while len(claims) < want:
        n = len(claims)
        doc_id = quotable[n % len(quotable)]["id"]
        own = rng.choice([c for c in by_doc[doc_id] if passages[c.text]])
        a, b = rng.choice(passages[own.text])
        quote = own.text[a:b]
        if n % 3 == 2:
            alt = alter_typography(quote, rng)
            quote = alt[0] if alt is not None else quote
        if n % 10 >= 5:
            ev: dict[str, Any] = {"document": doc_id, "quote": quote}
        else:
            cited = own.id
            if n % 2:
                key = ref_fold(quote)[:KEY_CHARS]
                wrong = [c.id for c in by_doc[doc_id] if c.id != own.id and key not in (
                    folded.get(c.text) or folded.setdefault(c.text, ref_fold(c.text)))]
                if wrong:  # (a document of one chunk has none: the item cites its own)
                    cited = rng.choice(wrong)
            ev = {"chunk_id": cited, "quote": quote}
        claims.append({"id": f"c{n + 1}", "text": f"claim {n + 1}", "evidence": [ev]})
    path = folder / "check.cite"
    path.write_text(json.dumps({
        "version": 1, "documents": docs,
        "chunks": [c.model_dump(exclude_none=True) for c in chunks],
        "claims": claims}), encoding="utf-8")
    return path


def _page_count(path: Path) -> int:
    import pymupdf

    with pymupdf.open(path) as doc:
        return int(doc.page_count)


def _passages(text: str, cache: dict[str, list[tuple[int, int]]], rng: Any
              ) -> list[tuple[int, int]]:
    """The sentences and line runs of a chunk worth quoting (unique in it), once a text."""
    got = cache.get(text)
    if got is None:
        got = cache[text] = [(a, b) for a, b in sentences(text) + line_runs(text, rng)
                             if 40 <= b - a <= 220 and unique_in(text, text[a:b])]
    return got


def describe(path: Path) -> str:
    data = json.loads(path.read_text(encoding="utf-8"))
    pages = sum(_page_count(path.parent / d["path"]) for d in data["documents"])
    evs = [ev for c in data["claims"] for ev in c["evidence"]]
    unhinted = sum(1 for ev in evs if "chunk_id" not in ev and "page" not in ev)
    return (f"{len(evs)} evidence items over {len(data['documents'])} documents "
            f"({pages} pages), {len(data['chunks'])} chunks; {unhinted} "
            f"({100 * unhinted / len(evs):.0f} %) without a page hint, "
            f"{sum(1 for ev in evs if 'chunk_id' in ev) // 2} citing a wrong chunk")


Measure = tuple[float, float, float]  # wall seconds, peak RSS (MB), CPU seconds


def run(argv: Sequence[str], *, stdout: Path | None = None, cwd: Path = REPO) -> Measure:
    """Run a command in a fresh process: wall seconds, peak RSS in MB, and the CPU seconds
    it used (user + system: on a shared machine, what its wall time would be alone)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.DEVNULL, cwd=cwd,
                                env={**os.environ, "CITEVIEW_OCR_STORE": str(
                                    Path(tempfile.gettempdir()) / "bench-check-store")})
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) not in (0, 1, 2):
            raise SystemExit(f"{argv[:3]} failed (status {status})")
        if stdout is not None:
            out.seek(0)
            stdout.write_bytes(out.read())
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def compile_tree(tree: Path) -> None:
    """Write the bytecode of the tree's packages (whatever PYTHONDONTWRITEBYTECODE says)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "matcher", "viewer"], cwd=tree,
                   check=True, stdout=subprocess.DEVNULL)


def citeview(path: Path) -> list[str]:
    return [sys.executable, "-m", "viewer.cli", "check", str(path), "--json", "--quiet"]


def peer(path: Path) -> list[str]:
    return [sys.executable, str(PEER), str(path)]


def measure(path: Path, rounds: int, baseline: Path | None
            ) -> tuple[dict[str, Measure], dict[str, float]]:
    """Median (seconds, MB, CPU seconds) of each checker, alternating round by round;
    ``baseline``: a tree of another citeview (the code before a change) run the same way,
    from there. Also, per checker, the median over the rounds of its CPU time over the
    peer's in the same round: the machine's load drifts less within a round than across
    the run."""
    order = [("citeview", lambda: run(citeview(path))), ("peer", lambda: run(peer(path)))]
    if baseline is not None:
        order.insert(1, ("before", lambda: run(citeview(path), cwd=baseline)))
    got: dict[str, list[Measure]] = {name: [] for name, _ in order}
    for r in range(rounds):
        for name, go in order if r % 2 == 0 else order[::-1]:
            got[name].append(go())
    medians = {k: (statistics.median(t for t, _, _ in v), statistics.median(m for _, m, _ in v),
                   statistics.median(c for _, _, c in v)) for k, v in got.items()}
    paired = {k: statistics.median(c / p[2] for (_, _, c), p in zip(v, got["peer"], strict=True))
              for k, v in got.items() if k != "peer"}
    return medians, paired


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="folder of PDFs (default: ../shared/corpus)")
    ap.add_argument("--documents", default="5,25,100", help="document counts, comma-separated")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per-document", type=int, default=19, help="evidence items a document")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write the files here (and check --json of each) instead "
                                   "of a temporary folder, for a case-by-case comparison")
    ap.add_argument("--baseline", metavar="TREE",
                    help="also run the citeview of this source tree (say, the code before a "
                         "change, from 'git archive'), in the same rounds")
    args = ap.parse_args(argv)
    corpus = require_corpus(args.corpus)
    baseline = Path(args.baseline).resolve() if args.baseline else None
    counts = [int(n) for n in args.documents.split(",")]
    for tree in (REPO, baseline):
        if tree is not None:
            compile_tree(tree)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores; load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} at start; medians of {args.rounds}, fresh processes, alternating")
    rows = []
    for n in counts:
        tmp = Path(args.keep) / f"docs{n}" if args.keep else Path(tempfile.mkdtemp())
        tmp.mkdir(parents=True, exist_ok=True)
        try:
            path = check_file(corpus, tmp, documents=n, per_document=args.per_document,
                              seed=args.seed)
            print(f"\n{n} documents: {describe(path)}")
            if args.keep:
                run(citeview(path), stdout=tmp / "check.json")
                if baseline is not None:
                    run(citeview(path), stdout=tmp / "check.before.json", cwd=baseline)
            res, paired = measure(path, args.rounds, baseline)
            (ct, cm, cc), (pt, pm, pc) = res["citeview"], res["peer"]
            rows.append((n, res["citeview"], res["peer"], res.get("before")))
            print(f"  citeview {ct:6.2f} s (CPU {cc:5.2f} s) {cm:5.0f} MB   peer {pt:6.2f} s "
                  f"(CPU {pc:5.2f} s) {pm:5.0f} MB   ratio time {ct / pt:.2f}×, CPU "
                  f"{cc / pc:.2f}×, peak RSS {cm / pm:.2f}×  (targets ≤ 1.5×)")
            if "before" in res:
                bt, bm, bc = res["before"]
                print(f"  before   {bt:6.2f} s (CPU {bc:5.2f} s) {bm:5.0f} MB   ratio to peer: "
                      f"time {bt / pt:.2f}×, CPU {bc / pc:.2f}×, peak RSS {bm / pm:.2f}×")
            print("  CPU ratio to the peer in each round, median: " + ", ".join(
                f"{k} {v:.2f}×" for k, v in paired.items()))
        finally:
            if not args.keep:
                shutil.rmtree(tmp, ignore_errors=True)
    load = os.getloadavg()
    print(f"\nload average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("\n| documents | citeview wall / CPU / peak RSS | peer wall / CPU / peak RSS "
          "| ratios wall, CPU, RSS | before: ratios wall, CPU, RSS |\n|---|---|---|---|---|")
    for n, (ct, cm, cc), (pt, pm, pc), before in rows:
        was = "" if before is None else (f"{before[0] / pt:.2f}×, {before[2] / pc:.2f}×, "
                                         f"{before[1] / pm:.2f}× ({before[1]:.0f} MB)")
        print(f"| {n} | {ct:.2f} s / {cc:.2f} s / {cm:.0f} MB | {pt:.2f} s / {pc:.2f} s / "
              f"{pm:.0f} MB | {ct / pt:.2f}×, {cc / pc:.2f}×, {cm / pm:.2f}× | {was} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
