"""Show how the matcher reads one quote on one page: runs, candidate lines, bands.

    python scripts/debug_placement.py PDF PAGE "quote text"     (PAGE is 1-based)
"""

from __future__ import annotations

import sys
from collections import Counter

from matcher.document import PdfSource
from matcher.normalize import atoms
from matcher.placement import _fill, _group_bands, _PageModel, place_on_page


def main(pdf: str, page: int, quote: str) -> None:
    pw = PdfSource(pdf).page_words(page - 1)
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
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
