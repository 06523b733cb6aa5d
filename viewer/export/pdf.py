"""The annotated copy of a PDF: the original, untouched, with citeview's annotations
added after it.

The copy is the original's bytes followed by an incremental update holding the new
annotations (as a PDF editor saves) and the original's scripts taken out (a hostile
document's JavaScript does not run from the copy citeview hands over), so every page, its
text, the existing annotations and form fields — and any signature over the original
bytes — are kept exactly. A file that MuPDF had to repair cannot take an incremental
update; it is written whole instead, with only unused objects dropped (``garbage=1``:
nothing merged or rewritten).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

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
                drop_scripts(doc)
                count = annotate(doc, items)
                doc.saveIncr()
                return
        finally:
            doc.close()
        whole = open_pdf(source, password=password)
        try:
            drop_scripts(whole)
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


# Actions a reader would run on opening the copy or touching it: scripts, and programs or
# files launched. A copy made for review runs none of the original's.
_ACTIVE = frozenset({"/JavaScript", "/Launch", "/ImportData", "/SubmitForm"})


def drop_scripts(doc: Any) -> int:
    """Take every script out of ``doc`` (PyMuPDF, in memory): the document's named
    scripts and XFA, every additional-actions entry (page, field, annotation, document),
    and each JavaScript, launch or submit action; returns how many were taken out. In an
    incremental update the new versions of those objects replace the old ones for every
    reader, so the original's scripts never run, while its bytes (and a signature over
    them) stay as they were."""
    dropped = 0
    catalog = doc.pdf_catalog()
    for key in ("Names/JavaScript", "AcroForm/XFA"):
        if doc.xref_get_key(catalog, key)[0] != "null":
            doc.xref_set_key(catalog, key, "null")
            dropped += 1
    for xref in range(1, doc.xref_length()):
        try:
            keys = doc.xref_get_keys(xref)
        except (RuntimeError, ValueError):
            continue  # not a dictionary (a stream's data, a free entry)
        for key in ("AA", *(k for k in ("OpenAction", "A", "Next")
                             if doc.xref_get_key(xref, f"{k}/S")[1] in _ACTIVE)):
            if key in keys:
                doc.xref_set_key(xref, key, "null")
                dropped += 1
        if "S" in keys and doc.xref_get_key(xref, "S")[1] in _ACTIVE:
            for key in ("JS", "F", "Win", "Unix", "Mac"):  # the script, the program
                if key in keys:
                    doc.xref_set_key(xref, key, "null")
            dropped += 1
    return dropped


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
