"""Show how the matcher reads one quote on one page: runs, candidate lines, bands.

    python scripts/debug_placement.py PDF PAGE "quote text"     (PAGE is 1-based)
    python scripts/debug_placement.py --ocr PDF PAGE "quote text"

``--ocr`` reads the page as ``eval_placement.py --image-only`` does: the words tesseract
read from the image-only copy, taken from that script's OCR cache (run it first).
"""

from __future__ import annotations

import sys
from pathlib import Path

from matcher.document import PdfSource
from matcher.placement import PlacementTrace, TraceBand, explain_placement
from matcher.words import PageWords


def ocr_page_words(pdf: str, page: int) -> PageWords:
    """The eval's cached OCR words of ``pdf``'s 0-based ``page``, or exit saying why."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from eval_placement import _OcrCache

    cache = _OcrCache()
    stored = cache.get(cache.key(Path(pdf), page))
    if stored is None:
        sys.exit(f"no cached OCR of {pdf} page {page + 1} in {cache.folder}; "
                 "run scripts/eval_placement.py --image-only first")
    return stored.to_page_words()


def show(pw: PageWords, trace: PlacementTrace) -> None:
    """Print the trace: runs, candidate lines (S strong, w weak), bands with their shares."""
    print("quote atoms:", " ".join(trace.quote_atoms))
    print("runs:", [" ".join(run.atoms) for run in trace.runs])
    strong = {c.line: c.strong for c in trace.candidates}
    print("candidate lines:")
    for c in trace.candidates:
        print(f"   line {c.line} {'S' if c.strong else 'w'}  {c.text[:90]}")
    for k, band in enumerate(trace.bands):
        mark = "  <- chosen" if k == trace.best else ""
        _band(pw, band, strong, f"band {k}", mark)
    if trace.citation is not None:
        _band(pw, trace.citation, strong, "citation", "")
    print(trace.placement)


def _band(pw: PageWords, band: TraceBand, strong: dict[int, bool], name: str, mark: str
          ) -> None:
    print(f"{name}: coverage {band.coverage:.2f}, in quoted order {band.ordered:.2f}{mark}")
    for ln in band.lines:
        text = " ".join(pw.words[w].text for w in pw.lines[ln].words)
        kept = " ".join(pw.words[w].text for w in band.taken.get(ln, ()))
        flag = "S" if strong.get(ln) else "w"
        print(f"   line {ln} {flag} [{kept}]  <- {text[:90]}")


def main(pdf: str, page: int, quote: str, *, ocr: bool = False) -> None:
    pw = ocr_page_words(pdf, page - 1) if ocr else PdfSource(pdf).page_words(page - 1)
    show(pw, explain_placement(pw, quote))


if __name__ == "__main__":
    args = sys.argv[1:]
    use_ocr = "--ocr" in args
    if use_ocr:
        args.remove("--ocr")
    main(args[0], int(args[1]), args[2], ocr=use_ocr)
