"""One export: the outputs asked for, from a checked (and perhaps reviewed) report.

First everything is read and computed — each highlight's words and context on its page,
the pictures — which can be cancelled between items; then each output is written whole
(:mod:`.writing`). The outputs are checked against the inputs before any work starts,
so an export never writes over the citations file, its review or a PDF.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matcher.document import DocumentError, OcrWordSource, PdfSource, file_hash, open_pdf
from matcher.jsonout import json_text
from matcher.vocabulary import CancelCallback, ProgressCallback

from ..state.exports import ExportTargets
from ..state.records import Citations
from .annotate import Placed
from .csv_table import csv_table
from .html_report import html_report
from .items import DocumentFacts, ReviewedReport, read_review
from .pagetext import Selection, select
from .pdf import copy_names, write_annotated
from .pictures import picture
from .webanno import web_annotations
from .writing import Cancelled, OutputError, refuse_inputs, write_bytes


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote, and the inputs it could not use (a document missing…)."""

    written: tuple[Path, ...]
    problems: tuple[str, ...] = ()


@dataclass
class _Documents:
    """The PDFs of the export, opened on first use: words (OCR boxes included) and pages."""

    paths: Mapping[str, Path]
    passwords: Mapping[str, str]
    ocr: OcrWordSource | None
    _open: dict[str, tuple[PdfSource, Any] | DocumentError] = field(default_factory=dict)

    def get(self, doc_id: str) -> tuple[PdfSource, Any] | DocumentError:
        got = self._open.get(doc_id)
        if got is None:
            path, password = self.paths[doc_id], self.passwords.get(doc_id)
            try:
                got = (PdfSource(path, password=password, ocr=self.ocr),
                       open_pdf(path, password=password))
            except DocumentError as exc:
                got = exc
            self._open[doc_id] = got
        return got

    def close(self) -> None:
        for got in self._open.values():
            if not isinstance(got, DocumentError):
                got[0].close()
                got[1].close()


def export(report: Mapping[str, Any], *, citations_path: Path, citations: Citations,
           targets: ExportTargets, review_path: Path | None = None,
           passwords: Mapping[str, str] | None = None, ocr: OcrWordSource | None = None,
           progress: ProgressCallback | None = None, cancel: CancelCallback | None = None,
           now: dt.datetime | None = None) -> Exported:
    """Write the ``targets`` for ``report`` (a ``check --json`` document, with the
    review's decisions when there is one) of the file ``citations`` describes.

    OutputError before anything is written when an output is an input or cannot be
    placed; Cancelled when ``cancel()`` turned true (nothing more is written).
    """
    review = read_review(report, citations)
    paths = {d.id: d.path for d in citations.documents}
    copies = copy_names(targets.pdf, paths) if targets.pdf is not None else {}
    inputs = [citations_path, *paths.values(), *([review_path] if review_path else [])]
    outputs = [p for p in (targets.html, targets.csv, targets.annotations) if p is not None]
    refuse_inputs([*outputs, *copies.values()], inputs)
    if targets.pdf is not None and len(paths) > 1:
        _make_folder(targets.pdf)
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    docs = _Documents(paths, passwords or {}, ocr)
    step = _Steps(progress, cancel)
    try:
        facts = [_facts(doc_id, path, docs) for doc_id, path in paths.items()]
        needs_pages = any(p is not None for p in (targets.html, targets.csv,
                                                  targets.annotations))
        marked = [i for i in review.items() if i.marked and i.document in paths]
        step.total = (len(marked) * (needs_pages + (targets.html is not None))
                      + len(copies))
        selections = _selections(review, docs, step) if needs_pages else {}
        found = {k: s.found_text for k, s in selections.items()}
        written: list[Path] = []
        if targets.html is not None:
            pictures = _pictures(review, docs, step)
            write_bytes(targets.html, html_report(
                review, citations_path=citations_path, documents=facts, pictures=pictures,
                found=found, exported_at=stamp).encode("utf-8"))
            written.append(targets.html)
        if targets.csv is not None:
            write_bytes(targets.csv, csv_table(review, found=found))
            written.append(targets.csv)
        if targets.annotations is not None:
            collection = web_annotations(review, citations_path=citations_path,
                                         documents=facts, selections=selections,
                                         generated=stamp, generator=_generator())
            write_bytes(targets.annotations, (json_text(collection) + "\n").encode("utf-8"))
            written.append(targets.annotations)
        written += _annotated_copies(review, docs, copies, step)
    finally:
        docs.close()
    problems = list(dict.fromkeys([*review.problems, *(f"document {f.id!r}: {f.problem}"
                                                       for f in facts if f.problem)]))
    return Exported(tuple(written), tuple(problems))


class _Steps:
    """Progress over the export's units of work, and the cancel looked at between them."""

    def __init__(self, progress: ProgressCallback | None, cancel: CancelCallback | None
                 ) -> None:
        self.progress, self.cancel = progress, cancel
        self.done = self.total = 0

    def next(self) -> None:
        if self.cancel is not None and self.cancel():
            raise Cancelled("the export was cancelled")
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))


def _facts(doc_id: str, path: Path, docs: _Documents) -> DocumentFacts:
    got = docs.get(doc_id)
    problem = "" if not isinstance(got, DocumentError) else str(got)
    try:  # the open source's hash is the one its OCR look-ups use: read the file once
        digest: str | None = (got[0].content_hash if not isinstance(got, DocumentError)
                              else file_hash(path))
    except OSError:
        digest = None
    return DocumentFacts(doc_id, path, digest, problem)


def _selections(review: ReviewedReport, docs: _Documents, step: _Steps
                ) -> dict[str, Selection]:
    out = {}
    for item in review.items():
        if not item.marked or item.document not in docs.paths:
            continue
        got = docs.get(item.document or "")
        step.next()
        if isinstance(got, DocumentError) or not 1 <= (item.page or 0) <= got[0].page_count:
            continue
        source, doc = got
        number = (item.page or 1) - 1
        out[item.key] = select(source.page_words(number), item.rects,
                               tuple(doc[number].rotation_matrix))
    return out


def _pictures(review: ReviewedReport, docs: _Documents, step: _Steps) -> dict[str, bytes]:
    out = {}
    for claim in review.claims:
        for item in claim.items:
            if not item.marked or item.document not in docs.paths:
                continue
            got = docs.get(item.document or "")
            step.next()
            if not isinstance(got, DocumentError):
                png = picture(got[1], Placed(item, claim))
                if png is not None:
                    out[item.key] = png
    return out


def _annotated_copies(review: ReviewedReport, docs: _Documents, copies: Mapping[str, Path],
                      step: _Steps) -> list[Path]:
    written = []
    for doc_id, out in copies.items():
        step.next()
        got = docs.get(doc_id)
        if isinstance(got, DocumentError):
            continue  # named in the problems
        placed = [Placed(item, claim) for claim in review.claims for item in claim.items
                  if item.document == doc_id]
        write_annotated(docs.paths[doc_id], placed, out, password=docs.passwords.get(doc_id))
        written.append(out)
    return written


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from matcher.files import os_error_reason

        raise OutputError(f"{folder}: cannot be made a folder for the annotated copies "
                          f"({os_error_reason(exc, writing=True)})") from None


def _generator() -> str:
    try:
        return f"citeview {importlib.metadata.version('citeview')}"
    except importlib.metadata.PackageNotFoundError:
        return "citeview"


