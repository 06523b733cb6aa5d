"""Which pages need OCR: none for real text, all for scans, invisible or garbage layers."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from conftest import CORPUS, LINES, PdfMaker

from matcher.ocr.textlayer import assess_text_layer

# A ToUnicode map sending every printable byte to the Private Use Area: text that
# extracts as words, but none of them readable (a font without a usable map).
_GARBAGE_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Garbage def
1 begincodespacerange
<00> <FF>
endcodespacerange
1 beginbfrange
<21> <7E> <E021>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end"""


def _page_with_image(doc: pymupdf.Document, scan: Path) -> pymupdf.Page:
    with pymupdf.open(scan) as src:
        pix = src[0].get_pixmap(dpi=72)
    page = doc.new_page(width=260, height=170)
    page.insert_image(page.rect, pixmap=pix)
    return page


def test_a_text_page_keeps_its_layer(text_pdf: PdfMaker) -> None:
    with pymupdf.open(text_pdf()) as doc:
        verdict = assess_text_layer(doc[0])
    assert (verdict.needs_ocr, verdict.reason) == (False, "text")
    assert verdict.words == sum(len(line.split()) for line in LINES)


def test_an_image_only_page_needs_ocr(scan_pdf: PdfMaker) -> None:
    with pymupdf.open(scan_pdf(rotation=90)) as doc:
        assert assess_text_layer(doc[0]).needs_ocr
        assert assess_text_layer(doc[0]).reason == "no_words"


def test_an_invisible_layer_over_a_scan_needs_ocr(scan_pdf: PdfMaker) -> None:
    doc = pymupdf.open()
    page = _page_with_image(doc, scan_pdf())
    page.insert_text((18, 36), "hidden words from some other OCR run", render_mode=3)
    verdict = assess_text_layer(page)
    assert (verdict.needs_ocr, verdict.reason) == (True, "invisible")


def test_a_visible_stamp_on_a_scan_needs_ocr(scan_pdf: PdfMaker) -> None:
    doc = pymupdf.open()
    page = _page_with_image(doc, scan_pdf())
    page.insert_text((190, 166), "Scanned copy 000123", fontsize=3)
    verdict = assess_text_layer(page)
    assert (verdict.needs_ocr, verdict.reason) == (True, "stamp_on_scan")


def test_garbage_characters_need_ocr() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    cmap = doc.get_new_xref()
    doc.update_object(cmap, "<< >>")
    doc.update_stream(cmap, _GARBAGE_CMAP)
    font = doc.get_new_xref()
    doc.update_object(font, f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                            f"/ToUnicode {cmap} 0 R >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FG {font} 0 R >> >>")
    content = doc.get_new_xref()
    doc.update_object(content, "<< >>")
    doc.update_stream(content, b"BT /FG 12 Tf 20 150 Td (Lorem ipsum dolor sit amet) Tj ET")
    doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    page = doc[0]
    assert len(page.get_text("words")) == 5
    verdict = assess_text_layer(page)
    assert (verdict.needs_ocr, verdict.reason) == (True, "garbage")


def test_a_blank_page_is_not_sent_to_ocr() -> None:
    doc = pymupdf.open()
    verdict = assess_text_layer(doc.new_page())
    assert (verdict.needs_ocr, verdict.reason) == (False, "blank")


def test_outlined_text_drawn_as_vectors_needs_ocr() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    page.draw_rect(pymupdf.Rect(10, 10, 150, 40), color=(0, 0, 0), fill=(0, 0, 0))
    assert assess_text_layer(page).needs_ocr


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"real-world corpus not available ({CORPUS})")
def test_corpus_verdicts_follow_the_manifest() -> None:
    """Every page of the corpus text PDFs keeps its layer; every scanned page needs OCR."""
    wrong: list[str] = []
    for path in sorted(CORPUS.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            for page in doc:
                if page.number is not None and page.number >= 40:
                    break
                verdict = assess_text_layer(page)
                has_words = len(page.get_text("words")) > 0
                if path.name.startswith("scanned_") and not verdict.needs_ocr:
                    wrong.append(f"{path.name} p{page.number}: scan kept ({verdict.reason})")
                if has_words and verdict.needs_ocr:
                    wrong.append(f"{path.name} p{page.number}: text sent to OCR ({verdict})")
    assert wrong == []
