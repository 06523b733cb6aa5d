"""Scanned pages: which cited ones still wait for OCR, and recognising one now.

Runs in the check process, no Qt. A quote cannot be found on a page that has no text, so
when a claim is not located and the page it points at is an image without a usable text
layer, and ``citeview prepare`` has not stored OCR boxes for it, the viewer offers to
recognise that page now; the words go to the OCR store, where the next check finds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from matcher.document import DocumentError, file_hash, open_pdf


def pages_needing_ocr(path: Path, pages: Iterable[int], *, password: str | None = None,
                      store: object | None = None) -> list[int]:
    """The 0-based ``pages`` of ``path`` that need OCR and have none stored."""
    try:
        from matcher.ocr.store import OcrStore
        from matcher.ocr.textlayer import assess_text_layer
    except ImportError:  # OCR support not installed
        return []
    ocr_store = store if isinstance(store, OcrStore) else OcrStore.default()
    try:
        doc = open_pdf(path, password=password)
    except DocumentError:
        return []
    out: list[int] = []
    try:
        digest = None
        for n in sorted(set(pages)):
            if not 0 <= n < doc.page_count:
                continue
            if not assess_text_layer(doc.load_page(n)).needs_ocr:
                continue
            digest = digest or file_hash(path)
            if not ocr_store.has(digest, n):
                out.append(n)
    finally:
        doc.close()
    return out


def recognise_page(path: Path, page: int, *, password: str | None = None) -> int:
    """OCR 0-based ``page`` of ``path`` into the OCR store; the number of words read.

    Runs MuPDF in this thread: the check process serves one request at a time and has no
    other thread that uses PyMuPDF (the render process is a process of its own).
    """
    from matcher.ocr.ondemand import ocr_page

    return len(ocr_page(path, page, password=password, isolate=False).words)
