"""What a batch worker runs: a chunk of citations files over one document set, each
checked exactly as ``citeview check --json`` checks it.

The worker keeps its open documents between chunks (:class:`matcher.open_documents.
OpenDocuments`, one per worker thread), so the next chunk over the same policy finds it
open and indexed. Everything a file can do wrong becomes its own error line; only a
worker dying (killed, out of memory, a crash in MuPDF) fails the task, which Dask then
gives to another worker.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...state.fail_on import FailState
from ..check import check_file

if TYPE_CHECKING:
    from matcher.open_documents import OpenDocuments

Line = dict[str, Any]
_local = threading.local()


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """Citations files to check in one task (absolute paths, one document set), the
    ``--fail-on`` states, the OCR store (None: the worker's default store) and the
    passwords of the PDFs they name."""

    files: tuple[str, ...]
    fail_on: tuple[FailState, ...] = ()
    store: str | None = None
    # ``--password``s of the PDFs these files name: (file, document id, password).
    passwords: tuple[tuple[str, str, str], ...] = ()


def check_chunk(task: ChunkTask) -> list[Line]:
    """Check every file of ``task`` in order; one result line each."""
    documents = _documents(task.store)
    return [check_line(Path(p), task, documents) for p in task.files]


def check_line(path: Path, task: ChunkTask, documents: OpenDocuments) -> Line:
    """One file's result line: its report as ``check --json`` prints it, or why not."""
    from matcher.document import file_hash
    from matcher.files import InputFileError, stat_regular

    line: Line = {"citations": str(path)}
    try:
        stat_regular(path)
        line["sha256"] = file_hash(path)
    except (InputFileError, OSError):
        pass  # the check says why the file cannot be read
    # What else the result depends on, read before the check (a review saved meanwhile
    # then differs from this hash, and the next run checks the file again).
    line["review_sha256"] = review_hash(path)
    line["fail_on"] = list(task.fail_on)
    try:
        checked = check_file(path, fail_on=task.fail_on, documents=documents,
                             passwords={doc_id: password for f, doc_id, password
                                        in task.passwords if f == str(path)})
    except Exception as exc:  # a fault of citeview's own: this file's error, not the run's
        line.pop("sha256", None)  # so a rerun tries it again
        return {**line, "exit": 2, "error": f"{path}: internal error while checking "
                                             f"({type(exc).__name__}: {exc})"[:500]}
    line["exit"] = checked.exit
    if checked.report is None:
        line["error"] = checked.error
    else:
        line["report"] = checked.report.model_dump(mode="json")
    return line


def review_hash(citations: Path) -> str | None:
    """The SHA-256 of the review file ``check`` reads for ``citations`` (None: there is
    none, or it cannot be read — the check then says why)."""
    from matcher.document import file_hash

    from ...state.review_store import existing

    path = existing(citations)
    if path is None:
        return None
    try:
        return file_hash(path)
    except OSError:
        return None


def _documents(store: str | None) -> OpenDocuments:
    """This thread's open documents (over ``store``), made on first use."""
    kept = getattr(_local, "documents", None)
    if kept is not None and kept[0] == store:
        same: OpenDocuments = kept[1]
        return same
    from matcher.ocr.store import OcrStore
    from matcher.open_documents import OpenDocuments

    from .. import route_mupdf

    if kept is not None:
        kept[1].close()
    route_mupdf(False)  # MuPDF's complaints to the log file, as check without --verbose
    documents = OpenDocuments(ocr=OcrStore(store) if store is not None else OcrStore.default())
    _local.documents = (store, documents)
    return documents
