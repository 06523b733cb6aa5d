#!/usr/bin/env python3
"""Benchmark page placement on a real multi-hundred-page PDF, against PyMuPDF's search_for.

1. One quote on a hinted page: ``locate_quote(source, q, hints=[p])`` against
   ``page.search_for(q)`` on the same page — cold (page words not cached / page not
   loaded) and warm (words cached / page loaded, its TextPage reused). Then where the
   cold time goes, step by step, timed separately on a second open of the document.
2. 200 quotes with no page hint over the whole document, index build included (the
   index is built once, on the first quote that needs it, as ``citeview check`` does),
   against ``search_for`` over every page for each quote. The baseline is timed on a
   subset of the quotes and scaled; the output says so.
3. Peak memory of (2), measured in a fresh child process: the peak RSS above the RSS
   before the document was opened (psutil + ``resource.getrusage``), and Python's own
   allocations (tracemalloc, in a separate pass because tracing slows the run).

Quotes are verbatim 1–2 line runs of prose (``search_for`` can only find verbatim text),
sampled with a fixed seed. No asserts: this prints medians and ratios. Usage::

    python benchmarks/bench_placement.py [--pdf PATH] [--quotes 200] [--baseline-quotes 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import pymupdf
from evalcases import (
    DEFAULT_CORPUS,
    is_prose_line,
    paragraphs,
    quote_tokens,
    starts_mid_word,
    sub_rng,
)

from matcher.document import PdfSource
from matcher.locate import DocumentIndex, locate_quote
from matcher.placement import place_on_page
from matcher.words import PageWords

DEFAULT_PDF = DEFAULT_CORPUS / "text_free_culture_book.pdf"
HINTED_QUOTES = 60


def sample_quotes(pdf: Path, n: int, seed: int) -> list[tuple[int, str]]:
    """``n`` (page, quote) pairs: verbatim runs of 1–2 prose lines on distinct random pages."""
    rng = sub_rng(seed, "bench-placement")
    src = PdfSource(pdf)
    try:
        pages = list(range(src.page_count))
        rng.shuffle(pages)
        out: list[tuple[int, str]] = []
        for p in pages * 3:
            if len(out) >= n:
                break
            pw = src.page_words(p)
            runs = [para[i:i + k] for para in paragraphs(pw) for k in (1, 2)
                    for i in range(len(para) - k + 1)
                    if all(is_prose_line(pw, li, min_words=5) for li in para[i:i + k])
                    and not starts_mid_word(pw, para[i])
                    and not quote_tokens(pw, para[i:i + k])[0][-1].endswith("-")]
            if runs:
                out.append((p, " ".join(quote_tokens(pw, rng.choice(runs))[0])))
        return out
    finally:
        src.close()


def _ms(ns: float) -> str:
    return f"{ns / 1e6:8.2f} ms"


def hinted(pdf: Path, quotes: Sequence[tuple[int, str]]) -> None:
    src = PdfSource(pdf)
    doc = pymupdf.open(pdf)
    cold_ours, warm_ours, pure, cold_base, warm_base = [], [], [], [], []
    placed_right = 0
    for p, q in quotes:
        src.forget_page(p)
        t0 = time.perf_counter_ns()
        res = locate_quote(src, q, hints=[p])
        cold_ours.append(time.perf_counter_ns() - t0)
        placed_right += res.page == p and res.status == "located"
        t0 = time.perf_counter_ns()
        locate_quote(src, q, hints=[p])
        warm_ours.append(time.perf_counter_ns() - t0)
        pw = src.page_words(p)
        t0 = time.perf_counter_ns()
        place_on_page(pw, q)
        pure.append(time.perf_counter_ns() - t0)

        t0 = time.perf_counter_ns()
        page = doc.load_page(p)
        page.search_for(q)
        cold_base.append(time.perf_counter_ns() - t0)
        tp = page.get_textpage()
        t0 = time.perf_counter_ns()
        page.search_for(q, textpage=tp)
        warm_base.append(time.perf_counter_ns() - t0)
    doc.close()
    src.close()
    m = statistics.median
    print(f"1. one quote on its hinted page ({len(quotes)} quotes; {placed_right} located on "
          "that page), medians:")
    print(f"   cold  locate_quote (page words extracted)   {_ms(m(cold_ours))}   "
          f"search_for (page loaded, new TextPage) {_ms(m(cold_base))}   "
          f"ratio {m(cold_ours) / m(cold_base):5.2f}×")
    print(f"   warm  locate_quote (page words cached)      {_ms(m(warm_ours))}   "
          f"search_for (TextPage reused)           {_ms(m(warm_base))}   "
          f"ratio {m(warm_ours) / m(warm_base):5.2f}×")
    print(f"         place_on_page alone (words in hand)   {_ms(m(pure))}")
    cold_steps(pdf, quotes)


def cold_steps(pdf: Path, quotes: Sequence[tuple[int, str]]) -> None:
    """Medians of the steps of a cold ``locate_quote`` on a hinted page, each timed alone."""
    steps: dict[str, list[int]] = {"load": [], "extract": [], "from_raw": [], "atoms": [],
                                   "place": []}

    def timed(step: str, t0: int) -> int:
        t1 = time.perf_counter_ns()
        steps[step].append(t1 - t0)
        return t1

    doc = pymupdf.open(pdf)
    for p, q in quotes:
        t = time.perf_counter_ns()
        page = doc.load_page(p)
        t = timed("load", t)
        raw = page.get_text("words", sort=False)
        t = timed("extract", t)
        pw = PageWords.from_raw(p, raw, meta={"rotation": page.rotation})
        t = timed("from_raw", t)
        for table in ("atom_counts", "atoms", "line_atoms", "atom_positions"):
            getattr(pw, table)  # built on first use, as placement asks for them
        t = timed("atoms", t)
        place_on_page(pw, q)
        timed("place", t)
    doc.close()
    m = {step: _ms(statistics.median(ns)).strip() for step, ns in steps.items()}
    print(f"         cold, step by step: load_page {m['load']}, get_text(\"words\") "
          f"{m['extract']}, PageWords.from_raw {m['from_raw']}, atom tables {m['atoms']}, "
          f"place_on_page {m['place']}")


def unhinted(pdf: Path, quotes: Sequence[tuple[int, str]], baseline_n: int) -> None:
    src = PdfSource(pdf)
    built: list[DocumentIndex] = []
    build_ns = [0]

    def index() -> DocumentIndex:
        if not built:
            t0 = time.perf_counter_ns()
            built.append(DocumentIndex(src))
            build_ns[0] = time.perf_counter_ns() - t0
        return built[0]

    per: list[int] = []
    right = 0
    t_all = time.perf_counter_ns()
    for p, q in quotes:
        t0 = time.perf_counter_ns()
        res = locate_quote(src, q, index=index)
        per.append(time.perf_counter_ns() - t0)
        right += res.page == p and res.placed
    total = time.perf_counter_ns() - t_all
    src.close()

    # The default call (no index passed) — what a caller gets who does not keep one.
    src = PdfSource(pdf)
    default_ns = []
    for _p, q in quotes[:3]:
        t0 = time.perf_counter_ns()
        locate_quote(src, q)
        default_ns.append(time.perf_counter_ns() - t0)
    src.close()

    doc = pymupdf.open(pdf)
    pages = [doc.load_page(n) for n in range(doc.page_count)]
    subset = quotes[:baseline_n]
    t0 = time.perf_counter_ns()
    for _p, q in subset:
        for page in pages:
            page.search_for(q)
    base_sub = time.perf_counter_ns() - t0
    base_total = base_sub * len(quotes) / len(subset)
    t0 = time.perf_counter_ns()
    tps = [page.get_textpage() for page in pages]
    tp_build = time.perf_counter_ns() - t0
    t0 = time.perf_counter_ns()
    for _p, q in subset:
        for page, tp in zip(pages, tps, strict=True):
            page.search_for(q, textpage=tp)
    tp_sub = time.perf_counter_ns() - t0
    tp_total = tp_build + tp_sub * len(quotes) / len(subset)
    doc.close()

    n = len(quotes)
    print(f"2. {n} quotes, no page hint, whole document ({len(pages)} pages):")
    print(f"   locate_quote, index built once (included)   total {total / 1e9:7.2f} s   "
          f"median/quote {_ms(statistics.median(per))}   (index build {build_ns[0] / 1e6:.0f} ms;"
          f" {right}/{n} placed on the source page)")
    print(f"   search_for over every page, per quote       total {base_total / 1e9:7.2f} s   "
          f"(timed on {len(subset)} quotes × {len(pages)} pages, scaled ×{n / len(subset):g})")
    print(f"   search_for, TextPages made once (included) total {tp_total / 1e9:7.2f} s   "
          f"(TextPages {tp_build / 1e6:.0f} ms; searches timed on {len(subset)} quotes, scaled)")
    print(f"   ratio locate_quote / search_for: {total / base_total:.3f}×  "
          f"(vs cached TextPages: {total / tp_total:.3f}×)")
    print(f"   locate_quote without index= (the index kept per source): "
          f"median {_ms(statistics.median(default_ns))} per quote")


def memory(pdf: Path, quotes_file: Path) -> None:
    """Run (2) in fresh child processes and report their peak memory."""
    for mode in ("rss", "tracemalloc"):
        out = subprocess.run([sys.executable, __file__, "--_child", mode, "--pdf", str(pdf),
                              "--_quotes", str(quotes_file)],
                             capture_output=True, text=True, check=True)
        data = json.loads(out.stdout.strip().splitlines()[-1])
        if mode == "rss":
            print(f"3. peak memory of (2), fresh process: RSS {data['before_mb']:.0f} MB before "
                  f"opening the PDF, peak {data['peak_mb']:.0f} MB → "
                  f"+{data['peak_mb'] - data['before_mb']:.0f} MB "
                  f"(after: {data['after_mb']:.0f} MB)")
        else:
            print(f"   Python allocations (tracemalloc): peak {data['peak_mb']:.1f} MB, still held "
                  f"at the end {data['current_mb']:.1f} MB (MuPDF's own C memory is not traced)")


def child(mode: str, pdf: Path, quotes_file: Path) -> None:
    quotes = [tuple(x) for x in json.loads(quotes_file.read_text())]
    if mode == "tracemalloc":
        import tracemalloc

        tracemalloc.start()
    import psutil

    proc = psutil.Process()
    before = proc.memory_info().rss
    src = PdfSource(pdf)
    built: list[DocumentIndex] = []

    def index() -> DocumentIndex:
        if not built:
            built.append(DocumentIndex(src))
        return built[0]

    for _p, q in quotes:
        locate_quote(src, q, index=index)  # type: ignore[arg-type]
    after = proc.memory_info().rss
    result: dict[str, float] = {}
    if mode == "tracemalloc":
        current, peak = tracemalloc.get_traced_memory()
        result = {"peak_mb": peak / 2**20, "current_mb": current / 2**20}
    else:
        import resource

        # ru_maxrss is the process's peak resident set, in KiB on Linux.
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        result = {"before_mb": before / 2**20, "peak_mb": peak / 2**20, "after_mb": after / 2**20}
    print(json.dumps(result))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdf", default=str(DEFAULT_PDF), help="a multi-hundred-page PDF")
    ap.add_argument("--quotes", type=int, default=200)
    ap.add_argument("--baseline-quotes", type=int, default=10,
                    help="quotes the whole-document search_for baseline is timed on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--_child", help=argparse.SUPPRESS)
    ap.add_argument("--_quotes", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pdf = Path(args.pdf)
    if args._child:
        child(args._child, pdf, Path(args._quotes))
        return 0
    if not pdf.is_file():
        raise SystemExit(f"no PDF at {pdf} — pass --pdf PATH (a multi-hundred-page PDF; the "
                         "default is the corpus's text_free_culture_book.pdf)")
    with pymupdf.open(pdf) as doc:
        n_pages = doc.page_count
    quotes = sample_quotes(pdf, args.quotes, args.seed)
    print(f"{pdf.name}: {n_pages} pages; {len(quotes)} verbatim quotes of 1–2 lines "
          f"(median {statistics.median(len(q) for _, q in quotes):.0f} chars); "
          f"{os.cpu_count()} CPUs\n")
    hinted(pdf, quotes[:HINTED_QUOTES])
    print()
    unhinted(pdf, quotes, args.baseline_quotes)
    qf = Path(os.environ.get("TMPDIR", "/tmp")) / f"citeview-bench-quotes-{os.getpid()}.json"
    qf.write_text(json.dumps(quotes))
    try:
        memory(pdf, qf)
    finally:
        qf.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
