"""PdfSource hands out text-layer words, or stored OCR words where a page was prepared."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from matcher.document import PdfSource, file_hash
from matcher.ocr.boxes import OcrPage, OcrWord
from matcher.ocr.store import OcrStore
from matcher.placement import place_on_page


def junk_layer_pdf(path: Path) -> Path:
    """A page whose only text is an invisible junk layer (render mode 3), as bad scanners make."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "lorem ipsum dolor sit amet consectetur", render_mode=3)
    doc.save(path)
    return path


def test_stored_ocr_words_win_over_a_junk_text_layer(tmp_path: Path) -> None:
    pdf = junk_layer_pdf(tmp_path / "scan.pdf")
    store = OcrStore(tmp_path / "store")
    words = tuple(OcrWord(72 + 60 * i, 90, 120 + 60 * i, 102, w, 1001, 1, i + 1, 95.0)
                  for i, w in enumerate("Flood damage is excluded".split()))
    store.save(file_hash(pdf), OcrPage(0, words, 300, "eng", "5.3.0", 0, 1.0,
                                       "2026-11-30T00:00:00Z"))

    plain = PdfSource(pdf).page_words(0)
    assert plain.source == "text" and plain.words[0].text == "lorem"
    with_store = PdfSource(pdf, ocr=store).page_words(0)
    assert with_store.source == "ocr"
    p = place_on_page(with_store, "flood damage is excluded")
    assert p.status == "located" and p.rects == ((72.0, 90.0, 300.0, 102.0),)


def test_a_renamed_file_still_finds_its_boxes(tmp_path: Path) -> None:
    pdf = junk_layer_pdf(tmp_path / "a.pdf")
    store = OcrStore(tmp_path / "store")
    store.save(file_hash(pdf), OcrPage(0, (OcrWord(1, 1, 9, 9, "Hello", 1, 1, 1, 90.0),), 300,
                                       "eng", "5.3.0", 0, 1.0, "2026-11-30T00:00:00Z"))
    moved = pdf.rename(tmp_path / "renamed.pdf")
    assert PdfSource(moved, ocr=store).page_words(0).words[0].text == "Hello"
