#!/usr/bin/env python3
"""Benchmark quote → span: median time to locate one quote in a ~1,500-character chunk.

Chunks are cut from the corpus PDFs' page texts (as ``scripts/eval_spans.py`` cuts them).
For each chunk one passage is taken and turned into four quotes:

* ``exact``       the passage verbatim (``str.find`` succeeds);
* ``typography``  curly quotes, dashes, NBSP, soft hyphens, ligatures, case… changed
                  (identical after normalisation);
* ``fuzzy``       two letters deleted or replaced (only the fuzzy alignment finds it);
* ``absent``      a sentence from another document (the fuzzy search runs and fails).

``matcher.span.locate_span`` is timed beside plain ``str.find`` on the same inputs, in
the same run; the table prints medians and their ratio.

Then chunk repair at scale (``--parts repair,check,large``):

* ``repair`` — a citations file of 1,000 corpus chunks over 25 documents and 500 evidence
  items, half of them citing the wrong chunk (verbatim or typography-altered quotes that
  another chunk holds). :func:`matcher.attribution.attribute` with a shared
  :class:`matcher.chunk_index.ChunkIndex` against :func:`reference_attribution`, a plain
  implementation of the same contract written here (each chunk folded once, then the quote
  tried against every chunk), each in a fresh process: median time, peak memory above the
  loaded file (RSS, and Python's allocations by tracemalloc in a separate pass), and
  whether the two agree item for item.
* ``check`` — ``citeview check --json`` on that file, page placement included: wall time
  and the process's peak RSS.
* ``large`` — ``citeview check --json`` on 20,000 claims over a generated 350-page PDF:
  wall time and peak RSS.

No asserts: this is a measurement, not a test. Usage::

    python benchmarks/bench_span.py [--corpus DIR] [--chunks 200] [--repeat 15] [--seed 1]
                                    [--parts span,repair,check,large] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from eval_spans import CHUNK_SIZE, doc_pieces, line_runs, sentences, unique_in
from evalcases import (
    alter_typography,
    corpus_files,
    parse_kinds,
    ref_fold,
    require_corpus,
    sub_rng,
)

from matcher.attribution import attribute
from matcher.chunk_index import ChunkIndex
from matcher.citations import Chunk, load_citations
from matcher.normalize import Folded, fold
from matcher.span import SpanMatch, locate_span

KINDS = ("exact", "typography", "fuzzy", "absent")
PARTS = ("span", "repair", "check", "large")
REPO = Path(__file__).resolve().parents[1]


def build_inputs(corpus: Path, n_chunks: int, seed: int) -> dict[str, list[tuple[str, str]]]:
    """(chunk text, quote) pairs per kind, from full-size chunks spread over the documents."""
    rng = sub_rng(seed, "bench-span")
    pieces = [p.chunk.text for cf in corpus_files(corpus) for p in doc_pieces(cf, seed, 12)]
    full = [t for t in pieces if len(t) >= 0.9 * CHUNK_SIZE]
    rng.shuffle(full)
    out: dict[str, list[tuple[str, str]]] = {k: [] for k in KINDS}
    donors = list(pieces)
    for text in full:
        if len(out["exact"]) >= n_chunks:
            break
        cands = [(s, e) for s, e in sentences(text) + line_runs(text, rng)
                 if 60 <= e - s <= 220 and unique_in(text, text[s:e])]
        if not cands:
            continue
        s, e = rng.choice(cands)
        quote = text[s:e]
        alt = alter_typography(quote, rng)
        fuzzy = _misspell(quote, rng)
        absent = _foreign(text, donors, rng)
        if alt is None or fuzzy is None or absent is None:
            continue
        out["exact"].append((text, quote))
        out["typography"].append((text, alt[0]))
        out["fuzzy"].append((text, fuzzy))
        out["absent"].append((text, absent))
    return out


def _misspell(quote: str, rng) -> str | None:  # type: ignore[no-untyped-def]
    """Two letters deleted or replaced, away from the ends."""
    letters = [i for i, c in enumerate(quote) if c.isalpha() and 5 < i < len(quote) - 5]
    if len(letters) < 10:
        return None
    chars = list(quote)
    for i in sorted(rng.sample(letters, 2), reverse=True):
        if rng.random() < 0.5:
            del chars[i]
        else:
            chars[i] = "x" if chars[i] != "x" else "q"
    out = "".join(chars)
    return out if ref_fold(out) != ref_fold(quote) else None


def _foreign(text: str, donors: Sequence[str], rng) -> str | None:  # type: ignore[no-untyped-def]
    for _ in range(10):
        donor = rng.choice(donors)
        cands = [(s, e) for s, e in sentences(donor) if 60 <= e - s <= 220]
        if cands:
            s, e = rng.choice(cands)
            q = " ".join(donor[s:e].split())
            if ref_fold(q) not in ref_fold(text):
                return q
    return None


def median_ns(fn: Callable[[str, str], object], inputs: Sequence[tuple[str, str]],
              repeat: int) -> float:
    """Median over inputs of each input's median call time, in nanoseconds."""
    per_input = []
    for text, quote in inputs:
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            fn(text, quote)
            runs.append(time.perf_counter_ns() - t0)
        per_input.append(statistics.median(runs))
    return statistics.median(per_input)


# --------------------------------------------------------------------------- repair

Answer = tuple[str, str | None, str | None, tuple[int, int] | None, str | None]


def repair_file(corpus: Path, *, chunks: int = 1000, items: int = 500, documents: int = 25,
                seed: int = 1) -> dict[str, Any]:
    """A citations file: ``chunks`` corpus chunks of ``documents`` PDFs, ``items`` evidence
    items, every other one citing a wrong chunk of the same document that lacks the quote."""
    rng = sub_rng(seed, "bench-repair")
    per_doc = [(cf, doc_pieces(cf, seed, 400)) for cf in corpus_files(corpus)]
    per_doc = sorted((d for d in per_doc if d[1]), key=lambda d: -len(d[1]))[:documents]
    picked: list[Chunk] = []
    queues = [list(ps) for _cf, ps in per_doc]
    while len(picked) < chunks and any(queues):  # round-robin over the documents
        for q in queues:
            if q and len(picked) < chunks:
                picked.append(q.pop(0).chunk)
    by_doc: dict[str | None, list[Chunk]] = {}
    for c in picked:
        by_doc.setdefault(c.document, []).append(c)
    claims: list[dict[str, Any]] = []
    while len(claims) < items:
        own = rng.choice(picked)
        cands = [(a, b) for a, b in sentences(own.text) + line_runs(own.text, rng)
                 if 40 <= b - a <= 220 and unique_in(own.text, own.text[a:b])]
        if not cands:
            continue
        a, b = rng.choice(cands)
        quote = own.text[a:b]
        if len(claims) % 4 >= 2:
            alt = alter_typography(quote, rng)
            quote = alt[0] if alt is not None else quote
        cited = own.id
        if len(claims) % 2:  # needs repair: cite a sibling that does not hold the quote
            key = ref_fold(quote)
            wrong = [c.id for c in by_doc[own.document]
                     if c.id != own.id and key[:40] not in ref_fold(c.text)]
            if not wrong:
                continue
            cited = rng.choice(wrong)
        claims.append({"id": f"c{len(claims) + 1}", "text": f"claim {len(claims) + 1}",
                       "evidence": [{"chunk_id": cited, "quote": quote}]})
    return {"version": 1,
            "documents": [{"id": cf.path.stem, "path": str(cf.path)} for cf, _ in per_doc],
            "chunks": [c.model_dump(exclude_none=True) for c in picked],
            "claims": claims}


def reference_attribution(chunks: Sequence[Chunk], items: Sequence[tuple[str, str]]
                          ) -> list[Answer]:
    """The repair contract done plainly, the baseline: each chunk folded once (on first
    need), the quote tried against its own chunk, then against every other chunk in file
    order; exactly one holder repairs the id, two or more reject it."""
    by_id = {c.id: c for c in chunks}
    folds: dict[str, Folded] = {}

    def span(c: Chunk, quote: str, needle: str) -> SpanMatch | None:
        if quote in c.text:
            return locate_span(c.text, quote)
        f = folds.get(c.id)
        if f is None:
            f = folds[c.id] = fold(c.text)
        return locate_span(c.text, quote, chunk_fold=f, quote_fold=needle)

    out: list[Answer] = []
    for chunk_id, quote in items:
        own = by_id.get(chunk_id)
        if own is None or not quote.strip():
            out.append(("rejected", None, None, None, None))
            continue
        needle = fold(quote).text
        m = span(own, quote, needle)
        if m is not None and m.accepted:
            out.append(("located", chunk_id, None, (m.start, m.end), m.kind))
            continue
        holders = [(c, h) for c in chunks if c.id != chunk_id
                   for h in [span(c, quote, needle)] if h is not None and h.accepted]
        if len(holders) == 1:
            c, h = holders[0]
            out.append(("located", c.id, chunk_id, (h.start, h.end), h.kind))
        elif holders:
            out.append(("rejected", None, None, None, None))
        elif m is not None:
            out.append(("review", chunk_id, None, (m.start, m.end), m.kind))
        else:
            out.append(("not_located", chunk_id, None, None, None))
    return out


def indexed_attribution(chunks: Sequence[Chunk], items: Sequence[tuple[str, str]]
                        ) -> list[Answer]:
    """What ``citeview check`` does: one :class:`ChunkIndex` shared by every item."""
    index = ChunkIndex(chunks)
    out: list[Answer] = []
    for chunk_id, quote in items:
        a = attribute(index, chunk_id, quote)
        if a.outcome == "rejected":
            out.append(("rejected", None, None, None, None))
            continue
        sp = a.span
        out.append((a.outcome, a.chunk_id, a.repaired_from,
                    (sp.start, sp.end) if sp else None, sp.kind if sp else None))
    return out


IMPLEMENTATIONS = {"reference": reference_attribution, "chunk_index": indexed_attribution}


def repair_child(kind: str, path: Path, rounds: int, mode: str) -> None:
    """In a fresh process: load the file, run one implementation, print a JSON line."""
    if mode == "tracemalloc":
        import tracemalloc
    import resource

    import psutil

    cf = load_citations(path)
    items = [(ev.chunk_id or "", ev.quote) for c in cf.claims for ev in c.evidence]
    run = IMPLEMENTATIONS[kind]
    before = psutil.Process().memory_info().rss
    result: dict[str, Any] = {}
    if mode == "tracemalloc":
        tracemalloc.start()
        run(cf.chunks, items)
        result["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    else:
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            answers = run(cf.chunks, items)
            times.append(time.perf_counter() - t0)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        result = {"seconds": statistics.median(times), "times": times,
                  "rss_before_mb": before / 2**20, "rss_peak_mb": peak / 2**20,
                  "answers": answers}
    print(json.dumps(result))


def _child_json(*args: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=True, cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def bench_repair(path: Path, rounds: int) -> None:
    """Reference against the chunk index, each in fresh processes, the same file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    n_items = sum(len(c["evidence"]) for c in data["claims"])
    wrong = sum(1 for c in data["claims"] if int(c["id"][1:]) % 2 == 0)
    print(f"\nchunk repair: {len(data['chunks'])} chunks, {len(data['documents'])} documents, "
          f"{n_items} evidence items ({wrong} cite a wrong chunk); a fresh process each, "
          f"median of {rounds} rounds; memory: peak above the loaded file")
    res = {}
    for kind in IMPLEMENTATIONS:
        timed = _child_json("--_repair", kind, str(path), "--rounds", str(rounds), "--_mode", "rss")
        traced = _child_json("--_repair", kind, str(path), "--rounds", "1", "--_mode",
                             "tracemalloc")
        res[kind] = {**timed, **traced}
    ref, ours = res["reference"], res["chunk_index"]
    print(f"{'':<14}{'time':>10}{'RSS +peak':>12}{'tracemalloc':>14}")
    for kind, r in res.items():
        grow = max(0.0, r["rss_peak_mb"] - r["rss_before_mb"])
        print(f"{kind:<14}{r['seconds']:>8.2f} s{grow:>9.1f} MB{r['traced_peak_mb']:>11.1f} MB")
    grow_ref = max(0.1, ref["rss_peak_mb"] - ref["rss_before_mb"])
    grow_ours = max(0.0, ours["rss_peak_mb"] - ours["rss_before_mb"])
    print(f"ratio chunk_index / reference: time {ours['seconds'] / ref['seconds']:.3f}×, "
          f"RSS growth {grow_ours / grow_ref:.2f}×, "
          f"traced {ours['traced_peak_mb'] / ref['traced_peak_mb']:.2f}×  (target ≤ 1.5×)")
    same = sum(a == b for a, b in zip(ref["answers"], ours["answers"], strict=True))
    outcomes: dict[str, int] = {}
    for a in ours["answers"]:
        key = a[0] + (" (repaired)" if a[2] else "")
        outcomes[key] = outcomes.get(key, 0) + 1
    print(f"same answer as the reference: {same} / {len(ref['answers'])}; outcomes: "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))


# --------------------------------------------------------------------------- whole checks


def run_check(path: Path, store: Path) -> tuple[float, float, dict[str, Any]]:
    """``citeview check PATH --json``: wall seconds, peak RSS (MB) and the summary."""
    env = {**os.environ, "CITEVIEW_OCR_STORE": str(store)}
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "check", str(path),
                                 "--json", "--quiet"], stdout=out, stderr=subprocess.DEVNULL,
                                cwd=REPO, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        report = json.loads(out.read())
    return seconds, usage.ru_maxrss / 1024, report["summary"]


def large_file(folder: Path, *, pages: int = 350, claims: int = 20_000, seed: int = 1) -> Path:
    """A generated ``pages``-page PDF (45 lines of made-up words a page) and a citations
    file of ``claims`` claims, each quoting one or two of its lines with a page hint."""
    import pymupdf

    rng = random.Random(seed)
    syllables = "ba co de fi gu ha ji ko la me ni po ra se ti vu wa xe yo zu an er in ol us"
    vocab = sorted({"".join(rng.choice(syllables.split()) for _ in range(rng.randint(1, 4)))
                    for _ in range(4000)})
    doc = pymupdf.open()
    lines: list[list[str]] = []
    for _ in range(pages):
        page = doc.new_page()
        text = [" ".join(rng.choice(vocab) for _ in range(rng.randint(6, 10)))
                for _ in range(45)]
        for i, ln in enumerate(text):
            page.insert_text((50, 60 + i * 15), ln, fontsize=10, fontname="helv")
        lines.append(text)
    pdf = folder / "large.pdf"
    doc.save(pdf)
    doc.close()
    out = []
    for k in range(claims):
        p, i = rng.randrange(pages), rng.randrange(44)
        quote = lines[p][i] + ("\n" + lines[p][i + 1] if k % 3 == 0 else "")
        out.append({"id": f"c{k + 1}", "evidence": [{"page": p + 1, "quote": quote}]})
    cite = folder / "large.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "d", "path": "large.pdf"}],
                                "claims": out}), encoding="utf-8")
    return cite


def bench_span(args: argparse.Namespace, corpus: Path) -> None:
    inputs = build_inputs(corpus, args.chunks, args.seed)
    n = len(inputs["exact"])
    sizes = [len(t) for t, _ in inputs["exact"]]
    qlens = [len(q) for _, q in inputs["exact"]]
    print(f"{n} chunks of {min(sizes)}–{max(sizes)} chars (median {statistics.median(sizes):.0f}); "
          f"quotes {min(qlens)}–{max(qlens)} chars; each input timed {args.repeat}×, "
          "median of per-input medians")
    print()
    print(f"{'quote':<12}{'locate_span':>14}{'str.find':>12}{'ratio':>10}   outcome of locate_span")
    for kind in KINDS:
        data = inputs[kind]
        ours = median_ns(locate_span, data, args.repeat)
        base = median_ns(lambda t, q: t.find(q), data, args.repeat)
        kinds: dict[str, int] = {}
        for text, quote in data:
            m = locate_span(text, quote)
            key = m.kind if m is not None else "none"
            kinds[key] = kinds.get(key, 0) + 1
        outcome = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        print(f"{kind:<12}{ours / 1e3:>11.1f} µs{base / 1e3:>9.2f} µs{ours / base:>9.0f}×"
              f"   {outcome}")
    chunks = inputs["exact"]
    folding = median_ns(lambda t, q: fold(t), chunks, args.repeat)
    print(f"\nof which fold(chunk), the normalisation every non-verbatim quote pays first: "
          f"{folding / 1e3:.1f} µs")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="folder of PDFs (default: ../shared/corpus)")
    ap.add_argument("--chunks", type=int, default=200, help="chunks (inputs per kind)")
    ap.add_argument("--repeat", type=int, default=15, help="timed calls per input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    ap.add_argument("--rounds", type=int, default=3, help="timed rounds of the repair part")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply the repair and large files' sizes (smoke tests: 0.01)")
    ap.add_argument("--_repair", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--_mode", default="rss", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._repair:
        repair_child(args._repair[0], Path(args._repair[1]), args.rounds, args._mode)
        return 0
    parts = parse_kinds(ap, args.parts, PARTS)
    corpus = require_corpus(args.corpus)
    if "span" in parts:
        bench_span(args, corpus)
    with tempfile.TemporaryDirectory(prefix="bench-span-") as tmp:
        folder, store = Path(tmp), Path(tmp) / "store"
        if "repair" in parts or "check" in parts:
            cite = folder / "repair.cite"
            data = repair_file(corpus, chunks=max(4, round(1000 * args.scale)),
                               items=max(2, round(500 * args.scale)), seed=args.seed)
            cite.write_text(json.dumps(data), encoding="utf-8")
            if "repair" in parts:
                bench_repair(cite, args.rounds)
            if "check" in parts:
                seconds, peak, summary = run_check(cite, store)
                print("\nciteview check --json on that file (placement included): "
                      f"{seconds:.2f} s (target < 10 s), peak RSS {peak:.0f} MB; {summary}")
        if "large" in parts:
            pages, claims = max(2, round(350 * args.scale)), max(2, round(20_000 * args.scale))
            cite = large_file(folder, pages=pages, claims=claims, seed=args.seed)
            seconds, peak, summary = run_check(cite, store)
            print(f"\nciteview check --json on {claims:,} claims over a {pages}-page PDF: "
                  f"{seconds:.2f} s, peak RSS {peak:.0f} MB; {summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
