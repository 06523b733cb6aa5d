"""OCR one page now and store its words: the viewer's "Recognise Text" button. No Qt.

The viewer calls it in its check process, which uses PyMuPDF from one thread only, with
``isolate=False``. PyMuPDF does not support being called from two threads at once, so a
caller whose other threads may use it keeps the default: the rendering and recognition
run in a short-lived child process (about 0.6 s of start-up on top of 1–4 s of OCR), and
the calling thread only hashes the file and writes the store.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .. import document  # the module, not names: matcher.document may import .textlayer
from ..words import PageWords
from .boxes import OcrPage
from .store import OcrStore
from .tesseract import DEFAULT_DPI, DEFAULT_LANG, OcrFailed, check_tesseract, recognize_page
from .workers import init_worker, run_folder, stoppable

Stage = Callable[[str], None]


def ocr_page(
    pdf_path: Path | str,
    page_no: int,
    *,
    dpi: int = DEFAULT_DPI,
    lang: str = DEFAULT_LANG,
    store: OcrStore | None = None,
    password: str | None = None,
    isolate: bool = True,
    on_stage: Stage | None = None,
) -> PageWords:
    """OCR page ``page_no`` (0-based) of ``pdf_path``, store the boxes, return its words.

    ``store`` defaults to :meth:`OcrStore.default` (where ``citeview prepare`` writes).
    ``on_stage`` hears ``"checking"``, ``"recognizing"``, ``"storing"`` (for a progress
    label). ``isolate=False`` runs MuPDF in this thread: only for callers with no other
    thread using PyMuPDF (the viewer's check process, scripts, tests). Raises
    :class:`OcrSetupError` when tesseract or the language is missing, :class:`OcrFailed`
    with a sentence for the person when the file, the page or tesseract fails,
    :class:`OcrStoreError` when the store cannot be written.

    Example (in a worker thread)::

        words = ocr_page("scan.pdf", 0, lang="eng")   # ~1–4 s
        PdfSource("scan.pdf", ocr=OcrStore.default()).page_words(0) == words
    """
    stage = on_stage or (lambda _name: None)
    stage("checking")
    check_tesseract(lang)
    path = Path(pdf_path)
    try:
        doc_hash = document.file_hash(path)
    except OSError as exc:
        raise OcrFailed(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    stage("recognizing")
    if isolate:
        # "spawn", never "fork": the caller has other threads (that is why it isolates),
        # and a forked copy of a threaded process may deadlock. The worker dies with this
        # process and leaves no files (see matcher.ocr.workers).
        context = multiprocessing.get_context("spawn")
        with run_folder() as tmp, ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=init_worker,
                initargs=(str(tmp), os.getpid())) as pool:
            page = pool.submit(_recognize_file, str(path), page_no, dpi, lang, password).result()
    else:
        page = _recognize_file(str(path), page_no, dpi, lang, password)
    stage("storing")
    (store if store is not None else OcrStore.default()).save(doc_hash, page)
    return page.to_page_words()


@stoppable
def _recognize_file(path: str, page_no: int, dpi: int, lang: str,
                    password: str | None) -> OcrPage:
    try:
        doc = document.open_pdf(path, password=password)
    except document.DocumentError as exc:
        raise OcrFailed(exc.detail) from None  # DocumentError does not survive pickling
    try:
        if not 0 <= page_no < doc.page_count:
            raise OcrFailed(f"page {page_no + 1} does not exist ({doc.page_count} pages)")
        return recognize_page(doc.load_page(page_no), dpi=dpi, lang=lang)
    finally:
        doc.close()
