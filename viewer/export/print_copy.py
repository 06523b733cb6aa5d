"""The PDF that is printed: chosen pages of the annotated copies, one file, vector.

Printing reuses the annotated export (:mod:`.pdf`): each document's copy holds its own
pages, text and all, with citeview's highlights as annotations. The pages asked for are
taken from those copies, in the order asked, into one new PDF (their annotations come
with them), written whole or not at all (:func:`~.writing.produce_atomically`): a print
cancelled or failed leaves nothing at the output, and never a half-written file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pymupdf

from matcher.document import open_pdf
from matcher.vocabulary import CancelCallback, ProgressCallback

from .writing import Cancelled, produce_atomically

PrintedPage = tuple[str, int]  # a document's id and a 0-based page of it


def print_copy(pages: Sequence[PrintedPage], sources: Mapping[str, Path], out: Path, *,
               passwords: Mapping[str, str] | None = None,
               progress: ProgressCallback | None = None,
               cancel: CancelCallback | None = None) -> int:
    """Write ``pages`` (document id, 0-based page) of the PDFs ``sources`` (by document
    id) to ``out`` as one PDF; returns the page count. Cancelled when ``cancel()`` turns
    true between pages (nothing is written); DocumentError when a source cannot be read;
    OutputError when ``out`` cannot be written."""
    passwords = passwords or {}

    def produce(tmp: Path) -> None:
        opened: dict[str, pymupdf.Document] = {}
        target = pymupdf.open()
        try:
            for n, (doc_id, page) in enumerate(pages):
                if cancel is not None and cancel():
                    raise Cancelled
                src = opened.get(doc_id)
                if src is None:
                    src = opened[doc_id] = open_pdf(sources[doc_id],
                                                    password=passwords.get(doc_id))
                if 0 <= page < src.page_count:
                    target.insert_pdf(src, from_page=page, to_page=page, annots=True)
                if progress is not None:
                    progress(n + 1, len(pages))
            target.save(tmp, garbage=3, deflate=True)
        finally:
            target.close()
            for src in opened.values():
                src.close()

    produce_atomically(out, produce)
    return len(pages)
