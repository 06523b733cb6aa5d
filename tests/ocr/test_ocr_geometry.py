"""OCR boxes land on the words: pixel → point conversion for every /Rotate and a CropBox.

Truth: the word boxes of a text PDF; OCR input: its image-only copy (same MediaBox,
CropBox and /Rotate). Tesseract's boxes hug the ink while PyMuPDF's span the font's full
height, so the edges *along* the reading direction must agree closely and the OCR box
must lie *inside* the truth box (within a small margin) across it.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pymupdf
import pytest
from conftest import (
    FONT_SIZE,
    PdfMaker,
    corpus_file,
    tesseract_or_skip,
    truth_words,
    write_image_only_copy,
)

from matcher.ocr.boxes import OcrPage
from matcher.ocr.tesseract import pixels_to_points, recognize_page

# Along the line, OCR ink edges vs. font advance edges differ by a side bearing: < 1.2 pt
# measured at 14 pt; 2.5 pt allows one 150 dpi pixel (0.5 pt) on top and a bit of blur.
ALONG_TOLERANCE = 2.5
# Across the line, the ink lies inside the font box; allow a pixel or two of slack.
ACROSS_SLACK = 1.5
# Share of truth words OCR must read exactly on these clean 14 pt renders.
MIN_READ_SHARE = 0.9
OCR_DPI = 200

CASES = [
    pytest.param(0, None, id="rot0"),
    pytest.param(0, (30.0, 18.0), id="rot0-cropbox"),
    pytest.param(90, (25.0, 40.0), id="rot90-cropbox"),
    pytest.param(180, None, id="rot180"),
    pytest.param(270, (12.0, 22.0), id="rot270-cropbox"),
]


def box_errors(ocr: OcrPage, truth: list[tuple[float, float, float, float, str]],
               *, vertical: bool) -> tuple[list[float], list[float], int]:
    """Along-line edge errors, across-line overhangs, and how many truth words were read."""
    by_text = {t[4]: t for t in truth}
    along: list[float] = []
    across: list[float] = []
    read = 0
    for w in ocr.words:
        t = by_text.get(w.text)
        if t is None:
            continue
        read += 1
        # In the unrotated space a /Rotate 90/270 page's lines run along y.
        a = (1, 3) if vertical else (0, 2)
        c = (0, 2) if vertical else (1, 3)
        o = (w.x0, w.y0, w.x1, w.y1)
        along += [abs(o[a[0]] - t[a[0]]), abs(o[a[1]] - t[a[1]])]
        across += [max(0.0, t[c[0]] - o[c[0]]), max(0.0, o[c[1]] - t[c[1]])]
    return along, across, read


@pytest.mark.parametrize(("rotation", "crop"), CASES)
def test_ocr_boxes_land_on_the_text_layer_words(
    text_pdf: PdfMaker, tmp_path: Path, rotation: int, crop: tuple[float, float] | None
) -> None:
    tesseract_or_skip()

    source = text_pdf(f"t{rotation}.pdf", rotation=rotation, crop_offset=crop)
    scan = write_image_only_copy(source, tmp_path / "scan.pdf")
    truth = truth_words(source)
    with pymupdf.open(scan) as doc:
        page = doc[0]
        assert page.get_text("words") == []  # really image-only
        assert page.rotation == rotation
        ocr = recognize_page(page, dpi=OCR_DPI, lang="eng")

    along, across, read = box_errors(ocr, truth, vertical=rotation in (90, 270))
    assert read >= MIN_READ_SHARE * len(truth), [w.text for w in ocr.words]
    assert max(along) <= ALONG_TOLERANCE, sorted(along)[-5:]
    assert max(across) <= ACROSS_SLACK, sorted(across)[-5:]
    # and not merely inside: the ink is at least half the font box's height
    for w in ocr.words:
        thickness = (w.x1 - w.x0) if rotation in (90, 270) else (w.y1 - w.y0)
        assert thickness >= FONT_SIZE * 0.45


def test_pixel_boxes_map_onto_the_ink_without_ocr(text_pdf: PdfMaker) -> None:
    """The same matrix, checked on raw pixels: each word box, sent back to pixels, holds ink."""
    for rotation in (0, 90, 180, 270):
        source = text_pdf(f"ink{rotation}.pdf", rotation=rotation, crop_offset=(21.0, 9.0))
        with pymupdf.open(source) as doc:
            page = doc[0]
            dpi = 100
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            to_pixels = ~pixels_to_points(page, dpi)
            for x0, y0, x1, y1, text in truth_words(source):
                box = pymupdf.Rect(x0, y0, x1, y1) * to_pixels
                inner = box.irect & pymupdf.IRect(0, 0, pix.width, pix.height)
                dark = sum(pix.pixel(x, y)[0] < 128
                           for x in range(inner.x0, inner.x1) for y in range(inner.y0, inner.y1))
                assert dark > 20, (rotation, text)
                # just left and right of the box is blank: the mapping is not shifted
                ring = pymupdf.Rect(box.x0 - 2, box.y0 - 2, box.x1 + 2, box.y1 + 2).irect
                outside = [(ring.x0, y) for y in range(ring.y0, ring.y1)]
                outside += [(ring.x1, y) for y in range(ring.y0, ring.y1)]
                assert all(pix.pixel(min(x, pix.width - 1), min(max(y, 0), pix.height - 1))[0]
                           > 128 for x, y in outside), (rotation, text)


def test_points_survive_a_pixel_round_trip() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.set_cropbox(pymupdf.Rect(17, 23, 380, 290))
    rect = pymupdf.Rect(40, 50, 90, 64)
    for rotation in (0, 90, 180, 270):
        page.set_rotation(rotation)
        for dpi in (72, 150, 300):
            to_pixels = ~pixels_to_points(page, dpi)
            back = (rect * to_pixels) * pixels_to_points(page, dpi)
            assert all(abs(a - b) < 1e-3 for a, b in zip(back, rect, strict=True)), (back, rect)
            # pixels lie inside the rendered raster of the displayed page
            px = rect * to_pixels
            assert pymupdf.Rect(0, 0, page.rect.width * dpi / 72,
                                page.rect.height * dpi / 72).contains(px)


@pytest.mark.parametrize(("name", "page_no"), [
    ("rotated_de_gazette_270_cropbox.pdf", 0),
    ("rotated_all_four_angles.pdf", 1),
])
def test_ocr_of_real_rotated_text_pages_matches_their_text_layer(name: str, page_no: int) -> None:
    """Real PDFs with /Rotate and a far-off CropBox: OCR their rendering, compare to words."""
    tesseract_or_skip()
    path = corpus_file(name)
    with pymupdf.open(path) as doc:
        page = doc[page_no]
        layer = [w for w in page.get_text("words") if len(w[4]) >= 4]
        ocr = recognize_page(page, dpi=OCR_DPI, lang="deu+eng")
        vertical = page.rotation in (90, 270)
    counts: dict[str, int] = {}
    for w in layer:
        counts[w[4]] = counts.get(w[4], 0) + 1
    truth = [tuple(w[:5]) for w in layer if counts[w[4]] == 1]
    along, across, read = box_errors(ocr, truth, vertical=vertical)  # type: ignore[arg-type]
    assert read >= 5
    assert statistics.median(along) <= 1.5
    assert max(along) <= 4.0
    assert max(across) <= 3.0
