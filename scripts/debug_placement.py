"""Show how the matcher reads one quote on one page: runs, candidate lines, bands.

    python scripts/debug_placement.py PDF PAGE "quote text"     (PAGE is 1-based)
    python scripts/debug_placement.py --ocr PDF PAGE "quote text"

``--ocr`` reads the page as ``eval_placement.py --image-only`` does: the words tesseract
read from the image-only copy, taken from that script's OCR cache (run it first).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from matcher.document import PdfSource
from matcher.normalize import atoms
from matcher.placement import _fill, _group_bands, _PageModel, place_on_page
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


def main(pdf: str, page: int, quote: str, *, ocr: bool = False) -> None:
    pw = ocr_page_words(pdf, page - 1) if ocr else PdfSource(pdf).page_words(page - 1)
    model = _PageModel(pw, atoms(quote))
    print("quote atoms:", " ".join(model.quote))
    print("runs:", [" ".join(pw.atoms[p].text for p in run) for run in model.runs])
    flags = {ln: model.line_is_candidate(ln) for ln in model.touched}
    cands = [ln for ln, f in flags.items() if f[0]]
    for band in _group_bands(pw.lines, cands):
        _fill(model, band, Counter(model.qcount))
        print(f"band coverage {band.coverage:.2f}")
        for ln in band.lines:
            text = " ".join(pw.words[w].text for w in pw.lines[ln].words)
            kept = " ".join(pw.words[w].text for w in band.words.get(ln, []))
            print(f"   line {ln} {'S' if flags[ln][1] else 'w'} [{kept}]  <- {text[:90]}")
    print(place_on_page(pw, quote))


if __name__ == "__main__":
    args = sys.argv[1:]
    use_ocr = "--ocr" in args
    if use_ocr:
        args.remove("--ocr")
    main(args[0], int(args[1]), args[2], ocr=use_ocr)
