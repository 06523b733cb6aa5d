"""OCR word boxes for pages without a usable text layer.

- :mod:`.textlayer` decides which pages need OCR;
- :mod:`.tesseract` renders one page and reads it, boxes converted to points once;
- :mod:`.boxes` is the stored record (:class:`OcrPage`) and its conversion to
  :class:`matcher.words.PageWords`;
- :mod:`.store` keeps records by document content hash (:class:`OcrStore`);
- :mod:`.prepare` and :mod:`.cli` OCR a whole folder on all cores (``citeview prepare``);
- :mod:`.ondemand` OCRs one page now for the viewer (:func:`ocr_page`).

Nothing here imports Qt or the viewer.
"""

from .boxes import OcrPage, OcrWord
from .ondemand import ocr_page
from .store import OcrStore, default_store_dir
from .tesseract import (
    DEFAULT_DPI,
    DEFAULT_LANG,
    MIN_WORD_CONFIDENCE,
    OcrFailed,
    OcrSetupError,
    check_tesseract,
    pixels_to_points,
    recognize_page,
)
from .textlayer import TextLayerVerdict, assess_text_layer

__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_LANG",
    "MIN_WORD_CONFIDENCE",
    "OcrFailed",
    "OcrPage",
    "OcrSetupError",
    "OcrStore",
    "OcrWord",
    "TextLayerVerdict",
    "assess_text_layer",
    "check_tesseract",
    "default_store_dir",
    "ocr_page",
    "pixels_to_points",
    "recognize_page",
]
