"""One export: the outputs asked for, from a checked (and perhaps reviewed) report.

Every output is checked before any work starts: against the inputs, so an export never
writes over the citations file, its review or a PDF, and for whether it can be written
at all (a device, a FIFO, a read-only file or folder is told now). Then each highlight's
words and context on its page are read, and the outputs are written to temporary files
— the HTML report streamed, a picture at a time — which can be cancelled between items;
only once every one is whole are they all put in place. A run writes every output or
none of them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import importlib.metadata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from matcher.document import DocumentError, OcrWordSource, PdfSource, file_hash, open_pdf
from matcher.files import StagedWrites, WriteError
from matcher.jsonout import json_text
from matcher.vocabulary import CancelCallback, ProgressCallback

from ..state.exports import ExportTargets
from ..state.records import Citations
from .annotate import Placed
from .csv_table import csv_table
from .geometry import on_page
from .html_report import write_html_report
from .items import ClaimReview, DocumentFacts, Item, ReviewedReport, read_review
from .pagetext import Selection, select
from .pdf import copy_names, write_annotated
from .pictures import picture
from .webanno import web_annotations
from .writing import Cancelled, OutputError, check_writable, refuse_inputs, utf8


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
           now: dt.datetime | None = None, absolute_sources: bool = False) -> Exported:
    """Write the ``targets`` for ``report`` (a ``check --json`` document, with the
    review's decisions when there is one) of the file ``citations`` describes.

    OutputError before anything is written when an output is an input or cannot be
    placed; Cancelled when ``cancel()`` turned true (nothing is written). The Web
    Annotations name each PDF relative to their own file, or (``absolute_sources``) by
    its absolute path.
    """
    review = read_review(report, citations)
    paths = {d.id: d.path for d in citations.documents}
    copies = copy_names(targets.pdf, paths) if targets.pdf is not None else {}
    inputs = [citations_path, *paths.values(), *([review_path] if review_path else [])]
    outputs = [p for p in (targets.html, targets.csv, targets.annotations) if p is not None]
    try:  # every output, before any work or any write
        refuse_inputs([*outputs, *copies.values()], inputs)
        if targets.pdf is not None and len(paths) > 1:
            _make_folder(targets.pdf)
        for out in [*outputs, *copies.values()]:
            check_writable(out)
    except OutputError as exc:
        raise OutputError(f"{exc} — nothing was written") from None
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    docs = _Documents(paths, passwords or {}, ocr)
    step = _Steps(progress, cancel)
    try:
        facts = [_facts(doc_id, path, docs) for doc_id, path in paths.items()]
        review, off_page = _kept_on_their_pages(review, docs, review_path)
        needs_pages = any(p is not None for p in (targets.html, targets.csv,
                                                  targets.annotations))
        marked = [i for i in review.items() if i.marked and i.document in paths]
        step.total = (len(marked) * (needs_pages + (targets.html is not None))
                      + len(copies))
        selections = _selections(review, docs, step) if needs_pages else {}
        found = {k: s.found_text for k, s in selections.items()}
        written: list[Path] = []
        with _staged() as batch:  # every output in place, or none (nothing half done)
            if targets.html is not None:
                html = functools.partial(
                    write_html_report, review=review, citations_path=citations_path,
                    documents=facts, picture=_painter(docs, step), found=found,
                    exported_at=stamp)
                batch.write(targets.html, lambda fh: html(_utf8(fh)))
                written.append(targets.html)
            if targets.csv is not None:
                table = csv_table(review, found=found)
                batch.write(targets.csv, lambda fh: fh.write(table))
                written.append(targets.csv)
            if targets.annotations is not None:
                collection = web_annotations(review, citations_path=citations_path,
                                             documents=facts, selections=selections,
                                             generated=stamp, generator=_generator(),
                                             output=targets.annotations,
                                             absolute=absolute_sources)
                text = (json_text(collection) + "\n").encode("utf-8")
                batch.write(targets.annotations, lambda fh: fh.write(text))
                written.append(targets.annotations)
            written += _annotated_copies(review, docs, copies, step, batch)
    finally:
        docs.close()
    problems = list(dict.fromkeys([*review.problems, *off_page,
                                   *(f"document {f.id!r}: {f.problem}"
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


def _kept_on_their_pages(review: ReviewedReport, docs: _Documents, review_path: Path | None
                         ) -> tuple[ReviewedReport, list[str]]:
    """The review with each decision's rectangles cut to its page (those off the page
    dropped, and named among the problems); the matcher's come from the page itself."""
    problems: list[str] = []

    def kept(item: Item) -> Item:
        d = item.decision
        if d is None or not d.rects or d.page is None or item.document not in docs.paths:
            return item
        got = docs.get(item.document or "")
        if isinstance(got, DocumentError) or not 1 <= d.page <= got[1].page_count:
            return item
        box = got[1][d.page - 1].cropbox  # words space: unrotated, from the CropBox's corner
        rects = on_page(d.rects, (0.0, 0.0, box.width, box.height))
        if rects == d.rects:
            return item
        problems.append(f"{review_path or 'the review'}: claim {item.claim_id!r}, evidence "
                        f"{item.evidence.index + 1}: the "
                        f"review's rectangles {'reach beyond' if rects else 'lie off'} page "
                        f"{d.page}; {'cut to the page' if rects else 'not drawn'}")
        return dataclasses.replace(item, decision=dataclasses.replace(d, rects=rects))

    claims = tuple(dataclasses.replace(c, items=tuple(kept(i) for i in c.items))
                   for c in review.claims)
    return dataclasses.replace(review, claims=claims), problems


def _painter(docs: _Documents, step: _Steps
             ) -> Callable[[ClaimReview, Item], bytes | None]:
    """The picture of one item, rendered when the report reaches it (one at a time)."""

    def paint(claim: ClaimReview, item: Item) -> bytes | None:
        if not item.marked or item.document not in docs.paths:
            return None
        got = docs.get(item.document or "")
        step.next()
        return None if isinstance(got, DocumentError) else picture(got[1], Placed(item, claim))

    return paint


def _utf8(fh: BinaryIO) -> Callable[[str], object]:
    return lambda text: fh.write(utf8(text))


@contextlib.contextmanager
def _staged() -> Iterator[StagedWrites]:
    """A batch of outputs whose refusal is an OutputError naming the file and saying
    that nothing was written."""
    try:
        with StagedWrites() as batch:
            yield batch
    except WriteError as exc:
        raise OutputError(f"{exc} — nothing was written") from None


def _annotated_copies(review: ReviewedReport, docs: _Documents, copies: Mapping[str, Path],
                      step: _Steps, batch: StagedWrites) -> list[Path]:
    written = []
    for doc_id, out in copies.items():
        step.next()
        got = docs.get(doc_id)
        if isinstance(got, DocumentError):
            continue  # named in the problems
        placed = [Placed(item, claim) for claim in review.claims for item in claim.items
                  if item.document == doc_id]
        write_annotated(docs.paths[doc_id], placed, out, password=docs.passwords.get(doc_id),
                        batch=batch)
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


