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
the same run; the table prints medians and their ratio. No asserts: this is a
measurement, not a test. Usage::

    python benchmarks/bench_span.py [--corpus DIR] [--chunks 200] [--repeat 15] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from eval_spans import CHUNK_SIZE, doc_pieces, line_runs, sentences, unique_in
from evalcases import alter_typography, corpus_files, ref_fold, require_corpus, sub_rng

from matcher.normalize import fold
from matcher.span import locate_span

KINDS = ("exact", "typography", "fuzzy", "absent")


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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="folder of PDFs (default: ../shared/corpus)")
    ap.add_argument("--chunks", type=int, default=200, help="chunks (inputs per kind)")
    ap.add_argument("--repeat", type=int, default=15, help="timed calls per input")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    inputs = build_inputs(require_corpus(args.corpus), args.chunks, args.seed)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
