"""Render one page and read its words with tesseract, boxes converted to PDF points once.

The page is rendered *as displayed* (``page.get_pixmap`` applies /Rotate and the CropBox),
so tesseract sees upright text on scans that were stored sideways. Each pixel box then
goes through :func:`pixels_to_points`, the one place where raster pixels become the
matcher's unrotated ``get_text("words")`` points.

pytesseract is imported inside the functions that run tesseract, not here: it pulls in
numpy and PIL (~0.15 s), and the viewer reaches this package on every start-up without
ever reading a page.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pymupdf

from .boxes import OcrPage, OcrWord

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_DPI = 300  # tesseract's own recommendation; body text is then ~30 px high
DEFAULT_LANG = "eng"
# Words tesseract is less sure of than this (0–100) are dropped. On the corpus scans about
# half the words below 30 are specks and strokes read as letters ("ee", "Yi", "/") and half
# badly misread words ("Tanvary"); a missing word costs the fuzzy matcher about what a
# wrong one does, while junk between true words breaks runs of exact atoms. Between 30
# and 60 most words are real. The stored confidences let the matcher weigh the rest.
MIN_WORD_CONFIDENCE = 30.0
# A "word" made only of these is a table rule, box edge or speck that tesseract read as
# text ("|", "__|", "—", "[", "’"); forms yield dozens per page, often at conf > 90. They
# hold no letters or digits, so the matcher could never use them; dropping them keeps
# stored lines and their boxes to real words.
RULE_ARTEFACT_CHARS = frozenset("|¦_[]—–-~‘’'`.,:;")
# Tesseract's page segmentation mode 3 (automatic, no OSD) is its default; named here so
# a reader sees it is deliberate: pages arrive upright because /Rotate was applied.
# Measured with scripts/eval_placement.py --image-only (wrong placements of 378 real
# quotes): psm 3 5, psm 4 6, psm 6 6 (verbatim 46/50), psm 11 5, psm 12 5; psm 3 with
# textord_tabfind_find_tables=0 4, but all of them highlight other words (table cells
# read apart let a label be joined to a distant copy), where psm 3's 5 are mostly too
# few right words. All measured with rules left in; erasing them (below) has psm 3 read a
# ruled table's cells apart as well, and placement now reads a table row cell by cell.
PAGE_SEGMENTATION_MODE = 3
# Table rules and form boxes are erased before tesseract reads the page: a straight run of
# ink at least RULE_MIN_POINTS long (half an inch; a glyph's stem reaches that only in
# type above ~50 pt) is a rule, not a letter. Left in, a cell's rule is read as a glyph
# glued to its word ("{09/04/2015", "_|Boeing") at confidence 0-40, below
# MIN_WORD_CONFIDENCE, so whole table cells vanish; and a form's field boxes made
# tesseract read a checkbox caption's two lines as one ("tony dain" for "I agree to /
# to my claim."). Pixels darker than RULE_INK (0-255) are ink: anti-aliased rule edges
# included, a shaded table row (~240) not.
RULE_MIN_POINTS = 36.0
RULE_INK = 160
# Rules are found in blocks this long along the rule, so that finding them takes a few
# passes over a reduced image; a block more is erased at either end for the stubs.
RULE_BLOCK_POINTS = 2.4
# Tesseract's OpenMP threads per run. Its default (one per core, and more) made a 300 dpi
# page 4x *slower* on this 2-core machine (12.4 s vs 2.9 s); parallelism comes from running
# one page per core instead. A value the person set in the environment is respected.
TESSERACT_THREADS = "1"
# tesseract's TSV levels: 5 is a word (1 page, 2 block, 3 paragraph, 4 line).
_WORD_LEVEL = 5
# block_no = block * BLOCK_STRIDE + paragraph: one PyMuPDF-style block per paragraph.
BLOCK_STRIDE = 1000


class OcrSetupError(Exception):
    """Tesseract or a language pack is missing: a sentence the person can act on."""


class OcrFailed(Exception):
    """OCR of one page failed (tesseract crashed, timed out, or the page cannot render).

    It crosses from a worker process to its pool as its message alone: whatever else it
    carries (MuPDF's exception objects hold SWIG pointers) would fail the pickling and,
    with it, the worker, taking the pages of the other workers of the pool down too.
    """

    def __reduce__(self) -> tuple[type[OcrFailed], tuple[str]]:
        return (type(self), (str(self),))


@cache
def tesseract_version() -> str:
    """The installed tesseract's version, e.g. ``"5.3.0"`` (cached per process)."""
    import pytesseract

    return str(pytesseract.get_tesseract_version())


def check_tesseract(lang: str) -> str:
    """Return tesseract's version, or raise :class:`OcrSetupError` saying what to install.

    ``lang`` may combine packs with ``+`` (``"eng+deu"``), as tesseract's ``-l`` does.
    """
    import pytesseract

    try:
        version = tesseract_version()
        installed = set(pytesseract.get_languages(config=""))
    except pytesseract.TesseractNotFoundError as exc:
        raise OcrSetupError(
            "tesseract is not installed or not on PATH; install it "
            "(Debian/Ubuntu: apt install tesseract-ocr, macOS: brew install tesseract)"
        ) from exc
    wanted = [part for part in lang.split("+") if part]
    if not wanted:
        raise OcrSetupError("no OCR language given (e.g. --lang eng, or eng+deu)")
    missing = [part for part in wanted if part not in installed]
    if missing:
        have = ", ".join(sorted(installed - {"osd"})) or "none"
        packs = " ".join(f"tesseract-ocr-{m}" for m in missing)
        raise OcrSetupError(
            f"tesseract language pack(s) not installed: {', '.join(missing)} "
            f"(installed: {have}); install them (Debian/Ubuntu: apt install {packs})"
        )
    return version


def pixels_to_points(page: pymupdf.Page, dpi: int) -> pymupdf.Matrix:
    """The matrix taking pixels of ``page.get_pixmap(dpi=dpi)`` to unrotated word points.

    Pixels / (dpi / 72) are points of the displayed page (``page.rect``: rotated, origin
    at the CropBox corner); ``page.derotation_matrix`` turns that into the unrotated space
    that ``get_text("words")`` uses. Apply it to a pixel *rect* (``Rect * Matrix`` is the
    bounding box of the transformed corners), so a box stays a box under 90° turns.
    """
    return pymupdf.Matrix(72 / dpi, 72 / dpi) * page.derotation_matrix


def recognize_page(
    page: pymupdf.Page,
    *,
    dpi: int = DEFAULT_DPI,
    lang: str = DEFAULT_LANG,
    timeout: float = 0,
) -> OcrPage:
    """Render ``page`` at ``dpi`` and OCR it; words with boxes in points, confidences kept.

    Words below ``MIN_WORD_CONFIDENCE`` and rule artefacts (``RULE_ARTEFACT_CHARS``) are
    dropped. ``timeout`` (seconds, 0 = none) bounds the tesseract run. Raises
    :class:`OcrFailed` (or :class:`OcrSetupError` when tesseract is missing). Costs 1–3 s
    per page at 300 dpi on one core (a book page ~1 s, a dense US Letter page ~2.5 s).
    """
    import pytesseract

    started = time.perf_counter()
    # pytesseract passes this process's environment to the tesseract it starts.
    os.environ.setdefault("OMP_THREAD_LIMIT", TESSERACT_THREADS)
    try:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    except Exception as exc:  # MuPDF raises several types for damaged content
        raise OcrFailed(f"page cannot be rendered ({exc})") from exc
    # The pixmap's top-left pixel is (pix.x, pix.y) in device space; 0 for page renders,
    # but adding it keeps the arithmetic right should a clip ever be used.
    to_points = pymupdf.Matrix(1, 0, 0, 1, pix.x, pix.y) * pixels_to_points(page, dpi)
    with tempfile.TemporaryDirectory(prefix="citeview-ocr-") as tmp:
        image = Path(tmp) / "page.pgm"  # uncompressed: faster to write and read than PNG
        erase_rules(pix.pil_image(), dpi=dpi).save(str(image))
        pixels = [pix.width, pix.height]
        del pix
        try:
            data = pytesseract.image_to_data(
                str(image),
                lang=lang,
                config=f"--dpi {dpi} --psm {PAGE_SEGMENTATION_MODE}",
                output_type=pytesseract.Output.DICT,
                timeout=timeout,
            )
        except pytesseract.TesseractNotFoundError as exc:  # an OSError: must come first
            raise OcrSetupError("tesseract is not installed or not on PATH") from exc
        except (pytesseract.TesseractError, RuntimeError, OSError) as exc:
            raise OcrFailed(f"tesseract failed ({_first_line(exc)})") from exc

    words: list[OcrWord] = []
    for i, text in enumerate(data["text"]):
        text = str(text).strip()
        conf = float(data["conf"][i])
        if int(data["level"][i]) != _WORD_LEVEL or not text or conf < MIN_WORD_CONFIDENCE:
            continue
        if RULE_ARTEFACT_CHARS.issuperset(text):
            continue
        left, top = float(data["left"][i]), float(data["top"][i])
        box = pymupdf.Rect(left, top, left + float(data["width"][i]),
                           top + float(data["height"][i])) * to_points
        words.append(OcrWord(
            box.x0, box.y0, box.x1, box.y1, text,
            int(data["block_num"][i]) * BLOCK_STRIDE + int(data["par_num"][i]),
            int(data["line_num"][i]),
            int(data["word_num"][i]),
            conf,
        ))
    return OcrPage(
        page_no=page.number or 0,
        words=tuple(words),
        dpi=dpi,
        lang=lang,
        tesseract_version=tesseract_version(),
        rotation=page.rotation,
        seconds=time.perf_counter() - started,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        extra={"pixels": pixels},
    )


def erase_rules(image: Image.Image, *, dpi: int) -> Image.Image:
    """The greyscale ``image`` with its table rules and box edges painted white (a copy;
    the image itself when it has none).

    A rule is a straight horizontal or vertical run of ink at least RULE_MIN_POINTS long;
    its anti-aliased edges (one pixel either side) go with it. Text is left as it was,
    except where a glyph overlaps a rule. Costs ~0.05 s for a 300 dpi US Letter page,
    beside tesseract's 1-3 s.
    """
    from PIL import ImageChops

    ink = image.point(lambda v: 255 if v < RULE_INK else 0)
    vertical, horizontal = _long_runs(ink, dpi, across=False), _long_runs(ink, dpi, across=True)
    if vertical.getbbox() is None and horizontal.getbbox() is None:
        return image
    out = image.copy()
    out.paste(255, mask=_grow_by_one(ImageChops.lighter(vertical, horizontal)))
    return out


def _grow_by_one(mask: Image.Image) -> Image.Image:
    """``mask`` grown by one pixel each way, corners included: what a 3×3 maximum filter
    gives, in shifted copies (PIL's MaxFilter took 0.16 s of a 0.23 s erasure)."""
    from PIL import ImageChops

    def grown(image: Image.Image, dx: int, dy: int) -> Image.Image:
        return ImageChops.lighter(image, ImageChops.lighter(_shifted(image, dx, dy),
                                                            _shifted(image, -dx, -dy)))

    return grown(grown(mask, 1, 0), 0, 1)


def _shifted(image: Image.Image, dx: int, dy: int) -> Image.Image:
    """``image`` moved by (dx, dy) pixels, the uncovered part black (no ink, no rule)."""
    from PIL import Image

    out = Image.new("L", image.size, 0)
    out.paste(image, (dx, dy))
    return out


def _long_runs(ink: Image.Image, dpi: int, *, across: bool) -> Image.Image:
    """Mask (255) of ``ink``'s vertical runs (``across``: horizontal runs) of at least
    RULE_MIN_POINTS, to a block.

    Each column (row) is cut into blocks of ``k`` pixels; a block is solid when all its
    pixels are ink (its mean is 255). A rule is ``n`` solid blocks in a row: the darker
    (minimum) of ``n`` copies shifted back by 0..n-1 blocks marks where such a stack
    starts, and the lighter (maximum) of that mask shifted on by 0..n-1 blocks paints the
    whole stack.
    """
    from PIL import Image, ImageChops

    k = max(1, round(RULE_BLOCK_POINTS * dpi / 72))
    n = max(1, math.ceil(RULE_MIN_POINTS * dpi / 72 / k))
    width, height = ink.size
    solid = ink.reduce((k, 1) if across else (1, k)).point(lambda v: 255 if v >= 255 else 0)

    def shifted(mask: Image.Image, blocks: int) -> Image.Image:
        return _shifted(mask, blocks, 0) if across else _shifted(mask, 0, blocks)

    def over(mask: Image.Image, count: int, combine: Any, step: int) -> Image.Image:
        # combine() of ``count`` copies shifted by 0, step, …, (count-1)·step blocks, by
        # doubling: log2(count) steps, not count (the same image, in a third of the time).
        result, done, power, width = None, 0, mask, 1
        while count:
            if count & 1:
                part = shifted(power, step * done)
                result = part if result is None else combine(result, part)
                done += width
            count >>= 1
            if count:
                power = combine(power, shifted(power, step * width))
                width *= 2
        assert result is not None
        return result

    starts = over(solid, n, ImageChops.darker, -1)
    stacks = over(starts, n, ImageChops.lighter, 1)
    # A rule seldom starts and ends on a block boundary: one block more at either end
    # takes the stubs too, which tesseract would read as a "-" glued to the next word.
    stacks = ImageChops.lighter(stacks, ImageChops.lighter(shifted(stacks, 1),
                                                           shifted(stacks, -1)))
    size = (stacks.width * k, height) if across else (width, stacks.height * k)
    full = stacks.resize(size, Image.Resampling.NEAREST)
    return full.crop((0, 0, width, height))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:200]
