"""OCR word boxes for pages without a usable text layer.

- :mod:`.textlayer` decides which pages need OCR;
- :mod:`.tesseract` renders one page and reads it, boxes converted to points once;
- :mod:`.boxes` is the stored record (:class:`OcrPage`) and its conversion to
  :class:`matcher.words.PageWords`;
- :mod:`.store` keeps records by document content hash (:class:`OcrStore`);
- :mod:`.prepare` and :mod:`.cli` OCR a whole folder on all cores (``citeview prepare``);
- :mod:`.workers` makes the worker processes die with their parent and leave no files;
- :mod:`.ondemand` OCRs one page now for the viewer (:func:`ocr_page`).

The names below are imported from their submodule on first use, not with the package:
every check opens :mod:`.store` (``citeview check`` and the viewer's check process), and an
eager ``.ondemand`` would bring ``concurrent.futures`` and, through tesseract,
pytesseract, numpy and PIL with it.

Nothing here imports Qt or the viewer.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .boxes import OcrPage, OcrWord
    from .ondemand import ocr_page
    from .store import OcrStore, OcrStoreError, default_store_dir
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

# Public name → the submodule that defines it.
_EXPORTS = {
    "OcrPage": "boxes",
    "OcrWord": "boxes",
    "ocr_page": "ondemand",
    "OcrStore": "store",
    "OcrStoreError": "store",
    "default_store_dir": "store",
    "DEFAULT_DPI": "tesseract",
    "DEFAULT_LANG": "tesseract",
    "MIN_WORD_CONFIDENCE": "tesseract",
    "OcrFailed": "tesseract",
    "OcrSetupError": "tesseract",
    "check_tesseract": "tesseract",
    "pixels_to_points": "tesseract",
    "recognize_page": "tesseract",
    "TextLayerVerdict": "textlayer",
    "assess_text_layer": "textlayer",
}

__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_LANG",
    "MIN_WORD_CONFIDENCE",
    "OcrFailed",
    "OcrPage",
    "OcrSetupError",
    "OcrStore",
    "OcrStoreError",
    "OcrWord",
    "TextLayerVerdict",
    "assess_text_layer",
    "check_tesseract",
    "default_store_dir",
    "ocr_page",
    "pixels_to_points",
    "recognize_page",
]


def __getattr__(name: str) -> object:
    """Import a public name's submodule when the name is first asked for (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
