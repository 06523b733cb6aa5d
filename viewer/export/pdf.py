"""The annotated copy of a PDF: the original, untouched, with citeview's annotations
added after it.

The copy is the original's bytes followed by an incremental update holding the new
annotations (as a PDF editor saves), so every page, its text, the existing annotations
and form fields — and any signature over the original bytes — are kept exactly. A file
that MuPDF had to repair cannot take an incremental update; it is written whole instead,
with only unused objects dropped (``garbage=1``: nothing merged or rewritten).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from matcher.document import open_pdf
from matcher.files import StagedWrites, WriteError

from .annotate import Placed, annotate
from .writing import OutputError, produce_atomically

PDF_SUFFIX = ".pdf"


def write_annotated(source: Path, placed: Iterable[Placed], out: Path, *,
                    password: str | None = None, batch: StagedWrites | None = None) -> int:
    """Write ``source`` with an annotation per item of ``placed`` to ``out`` (never
    ``source`` itself: the caller refuses that); returns how many were added.
    DocumentError when the source cannot be opened, OutputError when ``out`` cannot be
    written. With ``batch``, the copy is staged there (in place when the batch is)."""
    items = list(placed)
    count = 0

    def produce(tmp: Path) -> None:
        nonlocal count
        shutil.copyfile(source, tmp)
        doc = open_pdf(tmp, password=password)
        try:
            if doc.can_save_incrementally():
                count = annotate(doc, items)
                doc.saveIncr()
                return
        finally:
            doc.close()
        whole = open_pdf(source, password=password)
        try:
            count = annotate(whole, items)
            whole.save(tmp, garbage=1, deflate=True)  # encryption is kept by default
        finally:
            whole.close()

    if batch is None:
        produce_atomically(out, produce)
    else:
        try:
            batch.produce(out, produce)
        except WriteError as exc:
            raise OutputError(str(exc)) from None
    return count


def copy_names(out: Path, documents: Mapping[str, Path]) -> dict[str, Path]:
    """Where each document's annotated copy goes: with one document, ``out`` itself (or,
    when ``out`` is a folder, its file name inside it); with several, ``out`` is a
    folder and each copy takes its document's file name there (prefixed by the document
    id when two documents share a name)."""
    if len(documents) == 1 and not os.path.isdir(out):  # False for a name too long too
        [doc_id] = documents
        return {doc_id: out}
    names = [p.name for p in documents.values()]
    return {doc_id: out / (p.name if names.count(p.name) == 1 else f"{doc_id}-{p.name}")
            for doc_id, p in documents.items()}
