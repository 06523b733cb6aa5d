"""Real scans from ``../shared/corpus``: OCR reads plausible words, boxes on the page."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import corpus_file, tesseract_or_skip

from matcher.ocr.tesseract import MIN_WORD_CONFIDENCE, recognize_page

SCAN_DPI = 200  # enough for these scans' body text, ~half the time of 300 dpi


@pytest.mark.parametrize(("name", "page_no", "lang", "expected"), [
    ("scanned_huck_finn_page.pdf", 0, "eng", {"kitchen", "Jim", "garden", "branches"}),
    ("scanned_fr_accents.pdf", 0, "fra", {"whisky", "juge", "blond", "intérieure"}),
    ("scanned_linn_rotated90.pdf", 0, "eng", {"LinnSequencer", "MIDI", "musician"}),
    ("scanned_de_forms_rotated.pdf", 2, "deu", set()),
])
def test_real_scans_give_plausible_words_on_the_page(name: str, page_no: int, lang: str,
                                                     expected: set[str]) -> None:
    tesseract_or_skip()
    path = corpus_file(name)
    with pymupdf.open(path) as doc:
        page = doc[page_no]
        ocr = recognize_page(page, dpi=SCAN_DPI, lang=lang)
        bounds = page.rect * page.derotation_matrix  # unrotated page, as words use
        rotation = page.rotation
    texts = {w.text.strip(".,;:!?’'\"") for w in ocr.words}
    assert expected <= texts, expected - texts
    assert len(ocr.words) >= 20
    # mostly real words: letters or digits, not punctuation debris or table rules
    alnum = sum(any(c.isalnum() for c in w.text) for w in ocr.words)
    assert alnum >= 0.9 * len(ocr.words)
    assert not [w.text for w in ocr.words if set(w.text) <= set("|_—[]")]
    slack = 2.0
    for w in ocr.words:
        assert w.conf >= MIN_WORD_CONFIDENCE
        assert bounds.x0 - slack <= w.x0 < w.x1 <= bounds.x1 + slack
        assert bounds.y0 - slack <= w.y0 < w.y1 <= bounds.y1 + slack
    words = ocr.to_page_words()
    assert len(words.meta["confidences"]) == len(words.words)  # type: ignore[arg-type]
    # a /Rotate 90 page's lines run down the unrotated page; others across
    long_lines = [ln for ln in words.lines if len(ln.words) >= 3]
    vertical = sum(ln.vertical for ln in long_lines)
    if rotation in (90, 270):
        assert vertical >= 0.8 * len(long_lines)
    else:
        assert vertical <= 0.2 * len(long_lines)
