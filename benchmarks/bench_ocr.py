"""Benchmark OCR preparation and matching on OCR boxes.

1. ``citeview prepare`` throughput (pages/s, all cores) on a folder of image-only pages,
   against running the ``tesseract`` command on the same rendered images one after
   another: with tesseract's default threading, and with ``OMP_THREAD_LIMIT=1`` (its
   fastest sequential setting here). Target: >= 1.7x on 2 cores.
2. OCR box error in points: the image-only pages are copies of generated text pages, so
   the text layer's word boxes are the truth.
3. Matcher time (``matcher.placement.place_on_page``) on OCR boxes against the same
   pages' text-layer words, and whether the quote is placed on the right words.

Run: ``python benchmarks/bench_ocr.py [--pages 8] [--repeat 3] [--dpi 300] [--jobs N]``.
Prints medians and ratios; needs tesseract with the ``eng`` pack.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from matcher.document import file_hash
from matcher.ocr.cli import main as prepare_main
from matcher.ocr.store import OcrStore

# Sentences of ordinary prose; pages are filled from a seeded shuffle of them.
SENTENCES = [
    "The committee reviewed the annual budget and approved the revised spending plan.",
    "Insurance coverage ends on the date the policy holder fails to pay the premium.",
    "Each participant signed a consent form before the interviews were recorded.",
    "Water samples from the northern wells showed elevated levels of nitrate.",
    "The contractor shall deliver the final report within ninety days of signing.",
    "Average response times improved after the new dispatch system was installed.",
    "Tenants must give written notice at least thirty days before moving out.",
    "The survey found that most households relied on public transport for work.",
    "Claims submitted after the deadline will not be considered for payment.",
    "Researchers measured the temperature of the samples every fifteen minutes.",
    "The board may extend the term of any member for a period of one year.",
    "Students who complete the course receive a certificate of participation.",
]
PAGE_W, PAGE_H = 612.0, 792.0  # US Letter: the size real scans mostly have
FONT_SIZE = 11
MARGIN = 72.0


def make_pages(folder: Path, pages: int, seed: int = 7) -> list[tuple[Path, Path]]:
    """(text PDF, image-only copy) pairs, one page each, in ``folder``."""
    rng = random.Random(seed)
    pairs = []
    for n in range(pages):
        text = folder / f"text-{n:02d}.pdf"
        scan = folder / "scans" / f"scan-{n:02d}.pdf"
        scan.parent.mkdir(parents=True, exist_ok=True)
        doc = pymupdf.open()
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        body = " ".join(rng.sample(SENTENCES, len(SENTENCES)) * 2)
        page.insert_textbox(pymupdf.Rect(MARGIN, MARGIN, PAGE_W - MARGIN, PAGE_H - MARGIN),
                            body, fontsize=FONT_SIZE, fontname="helv", lineheight=1.5)
        doc.save(text)
        pix = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
        out = pymupdf.open()
        out.new_page(width=PAGE_W, height=PAGE_H).insert_image(pymupdf.Rect(0, 0, PAGE_W, PAGE_H),
                                                               pixmap=pix)
        out.save(scan, deflate=True)
        pairs.append((text, scan))
    return pairs


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def cpu_seconds() -> float:
    """CPU used so far by this process and its reaped children (workers, tesseract runs)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def bench_prepare(scans: Path, store_root: Path, *, dpi: int, jobs: int) -> float:
    """Seconds for one full ``prepare`` run (survey, pool start, OCR, storing)."""
    args = [str(scans), "--store", str(store_root), "--dpi", str(dpi), "--jobs", str(jobs),
            "--force"]
    err = io.StringIO()
    seconds = timed(lambda: prepare_main(args, stderr=err))
    if "Done: " not in err.getvalue():
        raise SystemExit(err.getvalue())
    return seconds


def bench_tesseract_cli(images: list[Path], *, dpi: int, threads: str | None) -> float:
    """Seconds to run the ``tesseract`` command on ``images`` one after another."""
    env = dict(os.environ)
    env.pop("OMP_THREAD_LIMIT", None)
    if threads is not None:
        env["OMP_THREAD_LIMIT"] = threads

    def run_all() -> None:
        for image in images:
            subprocess.run(["tesseract", str(image), "stdout", "--dpi", str(dpi), "-l", "eng",
                            "tsv"], env=env, check=True, capture_output=True)
    return timed(run_all)


def box_errors(pairs: list[tuple[Path, Path]], store: OcrStore) -> dict[str, float]:
    """Edge errors (points) of OCR words against the text layer's words of the same text."""
    along: list[float] = []
    across: list[float] = []
    read = total = 0
    for text, scan in pairs:
        ocr = store.entry(file_hash(scan), 0)
        assert ocr is not None
        with pymupdf.open(text) as doc:
            truth = doc[0].get_text("words")
        total += len(truth)
        remaining = list(truth)
        for w in ocr.words:
            # nearest unused truth word with the same text (words repeat on these pages)
            same = [t for t in remaining if t[4] == w.text]
            if not same:
                continue
            t = min(same, key=lambda t: abs(t[0] - w.x0) + abs(t[1] - w.y0))
            if abs(t[0] - w.x0) + abs(t[1] - w.y0) > 20:
                continue
            remaining.remove(t)
            read += 1
            along += [abs(w.x0 - t[0]), abs(w.x1 - t[2])]
            across += [max(0.0, t[1] - w.y0), max(0.0, w.y1 - t[3])]
    along.sort()
    return {
        "read_share": read / total,
        "along_median": statistics.median(along),
        "along_p95": along[int(0.95 * (len(along) - 1))],
        "along_max": along[-1],
        "across_overhang_max": max(across),
    }


def bench_matcher(pairs: list[tuple[Path, Path]], store: OcrStore,
                  rng: random.Random) -> dict[str, float] | None:
    """Median place_on_page time on text-layer vs OCR words, and right-place share on OCR."""
    try:
        from matcher.placement import place_on_page
    except ImportError:
        return None
    from matcher.document import text_page_words

    text_times: list[float] = []
    ocr_times: list[float] = []
    text_load: list[float] = []
    ocr_load: list[float] = []
    right = placed = cases = 0
    for text, scan in pairs:
        doc_hash = file_hash(scan)
        with pymupdf.open(text) as doc:
            text_words = text_page_words(doc[0])
            # words + atoms: what a first placement on the page pays
            text_load.append(_median_time(lambda p: text_page_words(p).atoms, doc[0]))
        ocr_load.append(_median_time(lambda h: store.load(h, 0).atoms, doc_hash))  # type: ignore[union-attr]
        ocr_words = store.load(doc_hash, 0)
        assert ocr_words is not None
        flat = [w.text for w in text_words.words]
        for _ in range(5):
            n = rng.randint(8, 20)
            start = rng.randrange(0, len(flat) - n)
            quote = " ".join(flat[start:start + n])
            truth = [text_words.words[i].rect for i in range(start, start + n)]
            text_times.append(_median_time(place_on_page, text_words, quote))
            ocr_times.append(_median_time(place_on_page, ocr_words, quote))
            result = place_on_page(ocr_words, quote)
            cases += 1
            if result.placed:
                placed += 1
                right += _covers(result.rects, truth)
    return {
        "text_load_ms": 1000 * statistics.median(text_load),
        "ocr_load_ms": 1000 * statistics.median(ocr_load),
        "text_ms": 1000 * statistics.median(text_times),
        "ocr_ms": 1000 * statistics.median(ocr_times),
        "placed_share": placed / cases,
        "right_share": right / cases,
        "cases": cases,
    }


def _median_time(fn: Callable[..., object], *args: object, reps: int = 7) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _covers(rects: tuple[tuple[float, float, float, float], ...],
            truth: list[tuple[float, float, float, float]]) -> bool:
    """Right place: every truth word's centre lies in a placed rect (1 pt slack)."""
    def inside(x: float, y: float) -> bool:
        return any(r[0] - 1 <= x <= r[2] + 1 and r[1] - 1 <= y <= r[3] + 1 for r in rects)
    return all(inside((t[0] + t[2]) / 2, (t[1] + t[3]) / 2) for t in truth)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-ocr-") as tmp:
        root = Path(tmp)
        pairs = make_pages(root, args.pages)
        scans = root / "scans"
        images = []
        for _, scan in pairs:  # the same rendering prepare does, done ahead (not timed)
            with pymupdf.open(scan) as doc:
                image = root / f"{scan.stem}.pgm"
                doc[0].get_pixmap(dpi=args.dpi, colorspace=pymupdf.csGRAY).save(image)
                images.append(image)
        store = OcrStore(root / "store")

        load_before = os.getloadavg()[0]
        prep: list[float] = []
        seq1: list[float] = []
        prep_cpu: list[float] = []
        seq1_cpu: list[float] = []
        for _ in range(args.repeat):  # interleaved, so outside load hits both alike
            c0 = cpu_seconds()
            prep.append(bench_prepare(scans, store.root, dpi=args.dpi, jobs=args.jobs))
            c1 = cpu_seconds()
            seq1.append(bench_tesseract_cli(images, dpi=args.dpi, threads="1"))
            c2 = cpu_seconds()
            prep_cpu.append(c1 - c0)
            seq1_cpu.append(c2 - c1)
        seq_default = [bench_tesseract_cli(images, dpi=args.dpi, threads=None)]
        load_after = os.getloadavg()[0]

        n = args.pages
        prep_rate = n / statistics.median(prep)
        seq1_rate = n / statistics.median(seq1)
        seqd_rate = n / statistics.median(seq_default)
        print(f"pages: {n} x US Letter, {FONT_SIZE} pt text, {args.dpi} dpi, "
              f"{args.jobs} job(s), {os.cpu_count()} cores, repeats: {args.repeat}; "
              f"1-min load average {load_before:.1f} before, {load_after:.1f} after "
              f"(other work on the machine skews the ratio)")
        print(f"prepare (pool, incl. survey + start-up): {prep_rate:6.2f} pages/s  "
              f"(median {statistics.median(prep):.1f} s)")
        print(f"tesseract CLI sequential, OMP_THREAD_LIMIT=1: {seq1_rate:6.2f} pages/s  "
              f"(median {statistics.median(seq1):.1f} s)")
        print(f"tesseract CLI sequential, default threads:    {seqd_rate:6.2f} pages/s  "
              f"(1 run, {seq_default[0]:.1f} s)")
        print(f"ratio prepare / sequential (1 thread):   {prep_rate / seq1_rate:5.2f}x  "
              f"(target >= 1.7x)")
        print(f"ratio prepare / sequential (default):    {prep_rate / seqd_rate:5.2f}x")
        pc, sc = statistics.median(prep_cpu) / n, statistics.median(seq1_cpu) / n
        print(f"CPU seconds per page: prepare {pc:.2f} (render, OCR, store, start-up), "
              f"tesseract CLI {sc:.2f}; with {args.jobs} idle cores prepare could reach at "
              f"most {args.jobs * sc / pc:.2f}x")

        err = box_errors(pairs, store)
        print(f"OCR box error vs text layer: read {err['read_share']:.1%} of words; "
              f"along-line edges median {err['along_median']:.2f} pt, "
              f"p95 {err['along_p95']:.2f} pt, max {err['along_max']:.2f} pt; "
              f"across: OCR box pokes out of the font box by at most "
              f"{err['across_overhang_max']:.2f} pt")

        m = bench_matcher(pairs, store, random.Random(11))
        if m is None:
            print("matcher: matcher.placement.place_on_page not available")
        else:
            print(f"matcher place_on_page median: text layer {m['text_ms']:.2f} ms, "
                  f"OCR boxes {m['ocr_ms']:.2f} ms  "
                  f"(ratio {m['ocr_ms'] / m['text_ms']:.2f}x)")
            print(f"page words + atoms: text layer (get_text) {m['text_load_ms']:.2f} ms, "
                  f"OCR store (JSON read) {m['ocr_load_ms']:.2f} ms")
            print(f"verbatim quotes on OCR boxes: placed {m['placed_share']:.0%}, "
                  f"on the right words {m['right_share']:.0%} of {m['cases']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
