"""OCR word boxes in PDF points, with where they came from: the record the store keeps.

An :class:`OcrPage` is already in the matcher's geometry (PyMuPDF's unrotated
``get_text("words")`` space, points, origin at the CropBox top-left); the conversion from
raster pixels happened once, in :mod:`matcher.ocr.tesseract`, and ``dpi`` records the
raster it came from. Nothing downstream ever scales these boxes again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..words import PageWords, RawWord

# Version of the stored JSON layout; an entry with another version is treated as absent
# (and so redone by ``prepare``) rather than misread.
FORMAT_VERSION = 1

# Stored coordinates are rounded to this many decimals: 0.01 pt is far below what
# either a 300 dpi raster (0.24 pt per pixel) or a highlight on screen can show.
COORD_DECIMALS = 2


@dataclass(frozen=True, slots=True)
class OcrWord:
    """One recognised word: box in points, tesseract's grouping and its confidence (0–100)."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    block_no: int  # tesseract block * 1000 + paragraph: one PyMuPDF-style block per paragraph
    line_no: int
    word_no: int
    conf: float

    def raw(self) -> RawWord:
        """The PyMuPDF word tuple ``(x0, y0, x1, y1, text, block_no, line_no, word_no)``."""
        return (self.x0, self.y0, self.x1, self.y1, self.text,
                self.block_no, self.line_no, self.word_no)


@dataclass(frozen=True, slots=True)
class OcrPage:
    """Everything OCR produced for one page (0-based ``page_no``) and how it was made."""

    page_no: int
    words: tuple[OcrWord, ...]
    dpi: int
    lang: str
    tesseract_version: str
    rotation: int  # the page's /Rotate when it was rendered (boxes are already derotated)
    seconds: float  # wall time of render + recognition
    created: str  # ISO 8601 UTC timestamp
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_page_words(self) -> PageWords:
        """Words for the matcher, ``source="ocr"``, provenance and confidences in ``meta``.

        ``meta["confidences"][i]`` belongs to ``page_words.words[i]``: tesseract emits the
        words of a line contiguously, so ``PageWords.from_raw`` keeps their order.
        """
        kept = [w for w in self.words if w.text.strip()]
        return PageWords.from_raw(
            self.page_no,
            (w.raw() for w in kept),
            source="ocr",
            meta={
                "dpi": self.dpi,
                "lang": self.lang,
                "tesseract": self.tesseract_version,
                "rotation": self.rotation,
                "created": self.created,
                "confidences": tuple(w.conf for w in kept),
            },
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; words as compact lists ``[x0, y0, x1, y1, text, b, l, w, conf]``."""
        r = COORD_DECIMALS
        return {
            "format": FORMAT_VERSION,
            "page": self.page_no,
            "dpi": self.dpi,
            "lang": self.lang,
            "tesseract": self.tesseract_version,
            "rotation": self.rotation,
            "seconds": round(self.seconds, 3),
            "created": self.created,
            "extra": self.extra,
            "words": [[round(w.x0, r), round(w.y0, r), round(w.x1, r), round(w.y1, r), w.text,
                       w.block_no, w.line_no, w.word_no, round(w.conf, 1)] for w in self.words],
        }

    @classmethod
    def from_json(cls, data: Any) -> OcrPage:
        """Rebuild from :meth:`to_json` output; raises ``ValueError`` on another layout
        (anything else, ``null`` or a list included)."""
        if not isinstance(data, dict):
            raise ValueError(f"not an OCR entry (a JSON {type(data).__name__})")
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown OCR entry format {data.get('format')!r}")
        try:
            words = tuple(
                OcrWord(float(x0), float(y0), float(x1), float(y1), str(text),
                        int(b), int(ln), int(wn), float(conf))
                for x0, y0, x1, y1, text, b, ln, wn, conf in data["words"]
            )
            return cls(
                page_no=int(data["page"]),
                words=words,
                dpi=int(data["dpi"]),
                lang=str(data["lang"]),
                tesseract_version=str(data["tesseract"]),
                rotation=int(data["rotation"]),
                seconds=float(data["seconds"]),
                created=str(data["created"]),
                extra=dict(data.get("extra") or {}),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"damaged OCR entry ({exc})") from exc
