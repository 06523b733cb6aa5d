"""Test PDFs for the OCR tests, made with PyMuPDF so the truth boxes are known.

A *text* PDF has real words drawn upright as displayed (whatever the page's /Rotate);
its *image-only copy* has the same page geometry (MediaBox, CropBox, /Rotate) but only a
picture of each page, so OCR of the copy must land on the text PDF's own word boxes.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from matcher.ocr.store import OcrStore

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

# Distinct everyday words (each used once) so every OCR word has one truth word.
LINES = (
    "Quick brown foxes jump",
    "over seven lazy dogs",
    "while wizards pack",
    "boxes of liquor jugs",
)
FONT_SIZE = 14  # readable at 150-200 dpi, the test resolutions
TEXT_DPI = 200  # image-only copies are rendered at this resolution
LINE_GAP = 28.0

PdfMaker = Callable[..., Path]


def write_text_pdf(
    path: Path,
    *,
    rotation: int = 0,
    crop_offset: tuple[float, float] | None = None,
    pages: int = 1,
    lines: tuple[str, ...] = LINES,
    width: float = 260.0,
    height: float = 170.0,
) -> Path:
    """A PDF whose pages show ``lines`` upright when displayed (after /Rotate, CropBox)."""
    doc = pymupdf.open()
    for n in range(pages):
        # Unrotated size: a /Rotate 90/270 page is stored sideways and turned for display.
        w, h = (width, height) if rotation in (0, 180) else (height, width)
        if crop_offset is not None:
            dx, dy = crop_offset
            page = doc.new_page(width=w + 2 * dx, height=h + 2 * dy)
            page.set_cropbox(pymupdf.Rect(dx, dy, dx + w, dy + h))
        else:
            page = doc.new_page(width=w, height=h)
        page.set_rotation(rotation)
        for i, line in enumerate(lines):
            text = line if n == 0 else f"{line} {n + 1}"
            where = pymupdf.Point(18, 36 + i * LINE_GAP) * page.derotation_matrix
            # rotate= turns the glyphs with the page, so they read upright once displayed.
            page.insert_text(where, text, fontsize=FONT_SIZE, fontname="helv", rotate=rotation)
    doc.save(path)
    doc.close()
    return path


def write_image_only_copy(src: Path, dst: Path, *, dpi: int = TEXT_DPI) -> Path:
    """Copy ``src`` with each page replaced by a picture of it (same boxes and /Rotate)."""
    doc = pymupdf.open(src)
    out = pymupdf.open()
    for page in doc:
        rotation = page.rotation
        page.set_rotation(0)  # render the unrotated page, so the picture sits like the text
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        page.set_rotation(rotation)
        new = out.new_page(width=page.mediabox.width, height=page.mediabox.height)
        new.set_mediabox(page.mediabox)
        new.set_cropbox(page.cropbox)
        new.insert_image(new.rect, pixmap=pix)
        new.set_rotation(rotation)
    out.save(dst)
    out.close()
    doc.close()
    return dst


def truth_words(path: Path, page_no: int = 0) -> list[tuple[float, float, float, float, str]]:
    """The text PDF's own word boxes: the truth for OCR of its image-only copy."""
    with pymupdf.open(path) as doc:
        return [tuple(w[:5]) for w in doc[page_no].get_text("words")]  # type: ignore[misc]


@pytest.fixture
def text_pdf(tmp_path: Path) -> PdfMaker:
    """Factory: ``text_pdf("name.pdf", rotation=90, crop_offset=(20, 12))``."""
    def make(name: str = "text.pdf", **kwargs: object) -> Path:
        return write_text_pdf(tmp_path / name, **kwargs)  # type: ignore[arg-type]
    return make


@pytest.fixture
def scan_pdf(tmp_path: Path) -> PdfMaker:
    """Factory for image-only PDFs: ``scan_pdf("name.pdf", rotation=..., pages=2)``."""
    def make(name: str = "scan.pdf", *, folder: Path | None = None, **kwargs: object) -> Path:
        target = (folder or tmp_path) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        source = write_text_pdf(tmp_path / f".src-{name}", **kwargs)  # type: ignore[arg-type]
        return write_image_only_copy(source, target)
    return make


@pytest.fixture
def store(tmp_path: Path) -> OcrStore:
    return OcrStore(tmp_path / "store")


def corpus_file(name: str) -> Path:
    """A file of ``../shared/corpus``, or skip the test saying why."""
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"real-world corpus not available ({path} is absent)")
    return path


def tesseract_or_skip() -> None:
    """Skip when tesseract is not installed (the OCR tests need the real binary)."""
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract binary is not installed")
