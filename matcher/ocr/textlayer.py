"""Decide whether a page's own text layer is usable, or the page needs OCR.

A page needs OCR when its text layer cannot be trusted to say what the page shows:

1. **No words** – fewer than ``MIN_TEXT_WORDS`` words, e.g. a plain scan.
2. **Invisible layer** – less than ``MIN_VISIBLE_SHARE`` of the characters are drawn
   visibly (text render mode 3 or zero opacity). That is somebody else's OCR under a scan:
   nobody ever sees it, so its errors and misplaced boxes go unnoticed; our own OCR gives
   boxes that are known to sit on the pixels.
3. **Garbage characters** – less than ``MIN_READABLE_SHARE`` of the characters are letters,
   digits, punctuation or symbols (the rest are private-use code points, U+FFFD, controls):
   a font without a usable ToUnicode map, which reads as nonsense.
4. **A stamp on a scan** – images cover at least ``MIN_SCAN_IMAGE_COVER`` of the page while
   the words cover less than ``MAX_STAMP_TEXT_COVER``: a Bates number, a "scanned by" footer
   or a page header added on top of a full-page scan.

A page with none of these is left alone. A page that needs OCR but shows nothing (no
image, no vector drawing) is reported as blank: rendering it would only find nothing.
Each test is cheap (one pass over the words and the text trace), so a whole folder can be
surveyed before any rendering starts.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

import pymupdf

# A page with fewer words than this has no text layer worth matching against.
MIN_TEXT_WORDS = 3
# Below this share of visibly drawn characters the layer is "invisible" (an OCR layer under
# a scan). Real text PDFs draw ~100% visibly; 10% leaves room for a visible header over
# an otherwise invisible layer.
MIN_VISIBLE_SHARE = 0.10
# Below this share of readable characters the layer is garbage. Real text, in any script,
# is > 95% letters/digits/punctuation; broken font maps produce mostly private-use glyphs.
MIN_READABLE_SHARE = 0.50
# A "full-page scan": images cover at least this share of the page. Text pages with large
# figures in the corpus reach 0.52; the scans cover 0.77–1.0.
MIN_SCAN_IMAGE_COVER = 0.75
# ... and the words cover less than this share: a stamp of a few words. The sparsest real
# text page with an image in the corpus has 0.013 (a Federal Register figure page).
MAX_STAMP_TEXT_COVER = 0.005

# Unicode general categories that count as readable text.
_READABLE_CATEGORIES = frozenset("LNPS")

Reason = Literal["text", "no_words", "invisible", "garbage", "stamp_on_scan", "blank"]


@dataclass(frozen=True, slots=True)
class TextLayerVerdict:
    """Whether the page needs OCR, and the reason in one word (for reports and tests)."""

    needs_ocr: bool
    reason: Reason
    words: int


def assess_text_layer(page: pymupdf.Page) -> TextLayerVerdict:
    """Judge one page's text layer (see the module docstring for the rules)."""
    words = page.get_text("words", sort=False)
    n = len(words)
    if n < MIN_TEXT_WORDS:
        return _unusable(page, "no_words", n)

    chars = visible = readable = 0
    for span in page.get_texttrace():
        count = len(span["chars"])
        chars += count
        if span["type"] != 3 and span["opacity"] > 0:
            visible += count
    letters = 0
    for w in words:
        for ch in w[4]:
            letters += 1
            readable += _is_readable(ch)
    if chars and visible < MIN_VISIBLE_SHARE * chars:
        return _unusable(page, "invisible", n)
    if letters and readable < MIN_READABLE_SHARE * letters:
        return _unusable(page, "garbage", n)

    page_area = abs(page.rect)
    if page_area > 0:
        unrotated = page.rect * page.derotation_matrix  # the space of words and images
        text_cover = sum(abs(pymupdf.Rect(w[:4]) & unrotated) for w in words) / page_area
        if text_cover < MAX_STAMP_TEXT_COVER and image_cover(page) >= MIN_SCAN_IMAGE_COVER:
            return _unusable(page, "stamp_on_scan", n)
    return TextLayerVerdict(False, "text", n)


def image_cover(page: pymupdf.Page) -> float:
    """Share of the page covered by images (overlaps counted once per image, capped at 1)."""
    page_area = abs(page.rect)
    if page_area <= 0:
        return 0.0
    unrotated = page.rect * page.derotation_matrix
    covered = max((abs(pymupdf.Rect(info["bbox"]) & unrotated)
                   for info in page.get_image_info()), default=0.0)
    # The largest single image is a lower bound of the union; summing would count the
    # common "colour image + mask" pairs twice. One big image is what a scan looks like.
    return min(1.0, covered / page_area)


def _is_readable(ch: str) -> bool:
    category = unicodedata.category(ch)
    return ch != "\ufffd" and category != "Co" and category[0] in _READABLE_CATEGORIES


def _unusable(page: pymupdf.Page, reason: Reason, n: int) -> TextLayerVerdict:
    if reason == "no_words" and not _shows_anything(page):
        # Nothing drawn but these few words: a blank page, or one with only a page number.
        return TextLayerVerdict(False, "blank" if n == 0 else "text", n)
    return TextLayerVerdict(True, reason, n)


def _shows_anything(page: pymupdf.Page) -> bool:
    """Whether the page draws an image or vector graphics (outlined text is drawings)."""
    if page.get_image_info():
        return True
    return bool(page.get_drawings())
