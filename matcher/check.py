"""Check every evidence item of a citations file: text-level span, then page placement."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .attribution import attribute
from .chunk_index import ChunkIndex
from .citations import CitationsFile, Claim, Evidence, resolve_document_path
from .consistency import check_claim
from .context import QuoteContext
from .document import DocumentError, OcrWordSource, PdfSource
from .locate import DocumentIndex, locate_quote
from .open_documents import OpenDocuments
from .placement import Placement
from .report import (
    Alternative,
    CheckReport,
    ClaimResult,
    ConsistencyResult,
    DifferenceResult,
    EvidenceResult,
    word_diff_json,
)
from .vocabulary import PLACED, CancelCallback, EvidenceStatus, ProgressCallback, TextMatch


@dataclass
class Library:
    """The documents of one citations file, opened on first use and kept open.

    A document that cannot be opened is remembered as its :class:`DocumentError`, so
    each evidence item on it reports the same plain reason without retrying.
    """

    citations: CitationsFile
    citations_path: Path
    passwords: Mapping[str, str] = field(default_factory=dict)
    ocr: OcrWordSource | None = None
    # Documents kept open across citations files (a batch worker's); their OCR source
    # is theirs, and they stay open when this file is done.
    shared: OpenDocuments | None = None
    _sources: dict[str, PdfSource | DocumentError] = field(default_factory=dict)
    _indexes: dict[str, DocumentIndex] = field(default_factory=dict)
    _chunks: ChunkIndex | None = None
    # Per document, its resolved path's text and why it cannot be used: one string each
    # for all its items (a file of 100,000 claims held 100,000 copies, and resolved the
    # path 100,000 times).
    _path_texts: dict[str, str] = field(default_factory=dict)
    _reasons: dict[str, str] = field(default_factory=dict)

    def chunk_index(self) -> ChunkIndex:
        """The file's chunks, folded once and indexed for repair, shared by every item."""
        if self._chunks is None:
            self._chunks = ChunkIndex(self.citations.chunks)
        return self._chunks

    def path_of(self, doc_id: str) -> Path | None:
        ref = self.citations.document(doc_id)
        return None if ref is None else resolve_document_path(self.citations_path, ref)

    def path_text(self, doc_id: str) -> str:
        """``str(path_of(doc_id))``, worked out once per document."""
        got = self._path_texts.get(doc_id)
        if got is None:
            got = self._path_texts[doc_id] = str(self.path_of(doc_id))
        return got

    def reason(self, doc_id: str, err: DocumentError) -> str:
        """:func:`document_reason` of the document's error, worked out once."""
        got = self._reasons.get(doc_id)
        if got is None:
            got = self._reasons[doc_id] = document_reason(err)
        return got

    def source(self, doc_id: str) -> PdfSource | DocumentError:
        got = self._sources.get(doc_id)
        if got is None:
            path = self.path_of(doc_id)
            assert path is not None
            password = self.passwords.get(doc_id)
            try:
                got = (self.shared.source(path, password=password) if self.shared is not None
                       else PdfSource(path, password=password, ocr=self.ocr))
            except DocumentError as exc:
                got = exc
            self._sources[doc_id] = got
        return got

    def index(self, doc_id: str) -> DocumentIndex:
        idx = self._indexes.get(doc_id)
        if idx is None:
            src = self.source(doc_id)
            assert isinstance(src, PdfSource)
            idx = self._indexes[doc_id] = (self.shared.index(src) if self.shared is not None
                                           else DocumentIndex(src))
        return idx

    def problems(self) -> list[str]:
        """One line per document that could not be opened, naming it and its path."""
        return [f"document {doc_id!r}: {err}" for doc_id, err in self._sources.items()
                if isinstance(err, DocumentError)]

    def open_all(self) -> None:
        """Open every listed document, so one that no evidence cites is reported too."""
        for ref in self.citations.documents:
            self.source(ref.id)

    def close(self) -> None:
        for s in self._sources.values():
            if isinstance(s, PdfSource) and not (self.shared and self.shared.kept(s)):
                s.close()
        self._sources.clear()
        self._indexes.clear()
        self._chunks = None
        self._path_texts.clear()
        self._reasons.clear()


def check_citations(
    cf: CitationsFile,
    citations_path: Path | str,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelCallback | None = None,
    passwords: Mapping[str, str] | None = None,
    ocr: OcrWordSource | None = None,
    documents: OpenDocuments | None = None,
) -> CheckReport:
    """Check every claim's evidence; ``progress(done, total)`` after each item.

    ``documents`` keeps the PDFs open for the next file (a batch worker's); they are then
    read with its OCR source, and the report is the same as without it.

    Never raises for bad documents or bad evidence: each problem becomes a status and a
    reason on the item it affects, and file-level problems are listed in ``problems``.
    """
    with ClaimChecker(cf, citations_path, total=sum(len(c.evidence) for c in cf.claims),
                      progress=progress, cancel=cancel, passwords=passwords, ocr=ocr,
                      documents=documents) as checker:
        claims = [checker.check(claim) for claim in cf.claims]
        problems = checker.problems()
    return CheckReport.build(claims, problems)


class ClaimChecker:
    """A citations file's claims checked one at a time (:func:`check_citations` checks
    them all; ``citeview check`` one as it reads it): ``cf`` gives the documents and
    chunks, ``total`` the items for ``progress``. A context manager: the documents it
    opened are closed on leaving."""

    def __init__(self, cf: CitationsFile, citations_path: Path | str, *, total: int,
                 progress: ProgressCallback | None = None,
                 cancel: CancelCallback | None = None,
                 passwords: Mapping[str, str] | None = None,
                 ocr: OcrWordSource | None = None,
                 documents: OpenDocuments | None = None) -> None:
        self.lib = Library(cf, Path(citations_path), dict(passwords or {}), ocr, documents)
        self._documents = documents
        self._assigned = set(cf.assigned_ids)
        self._progress, self._cancel, self._total = progress, cancel, total
        self._done = 0
        self._stopped = False

    def __enter__(self) -> ClaimChecker:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.lib.close()
        if self._documents is not None:
            self._documents.trim()

    def check(self, claim: Claim) -> ClaimResult:
        """One claim's result (no items checked once ``cancel`` said stop)."""
        results: list[EvidenceResult] = []
        for i, ev in enumerate(claim.evidence):
            if self._cancel is not None and self._cancel():
                self._stopped = True
                break
            results.append(check_evidence(self.lib, i, ev))
            self._done += 1
            if self._progress is not None:
                self._progress(self._done, self._total)
        return ClaimResult(id=claim.id, text=claim.text, evidence=results,
                           uncited=not claim.evidence, id_assigned=claim.id in self._assigned,
                           consistency=claim_consistency(claim.text, results))

    def problems(self) -> list[str]:
        """Once every claim is checked: one line per document that cannot be used (each
        listed one is opened, unless the check was stopped)."""
        if not self._stopped:
            self.lib.open_all()
        return self.lib.problems()


def claim_consistency(text: str, results: list[EvidenceResult]) -> ConsistencyResult:
    """The claim against the words its located items stand on (the page words under
    their highlights); a ``review`` item counts once a person confirms it (the review
    file's decisions are read by the viewer's check, which calls :func:`check_claim`)."""
    located = [e for e in results if e.status == "located"]
    return ConsistencyResult.of(check_claim(text, [e.found_text or e.quote for e in located],
                                            pages=[e.page for e in located if e.page]))


def check_evidence(lib: Library, index: int, ev: Evidence) -> EvidenceResult:
    """One evidence item: validate/repair its chunk, then place it on the page."""
    cf = lib.citations
    base = EvidenceResult(index=index, status="not_located", reason="", quote=ev.quote,
                          chunk_id=ev.chunk_id)
    if ev.rejected is not None:
        return base.model_copy(update={"status": "rejected", "reason": ev.rejected,
                                       "document": ev.document})
    if not ev.quote.strip():
        return base.model_copy(update={"status": "rejected", "reason": "the quote is empty"})

    cited = [p - 1 for p in ev.cited_pages or []]
    hints: list[int] = cited + ([ev.page - 1] if ev.page is not None else [])
    text_status: EvidenceStatus | None = None
    text_reason = ""
    context: QuoteContext | None = None
    text_differences: tuple[DifferenceResult, ...] = ()
    update: dict[str, object] = {}
    if ev.chunk_id is not None:
        att = attribute(lib.chunk_index(), ev.chunk_id, ev.quote)
        if att.outcome == "rejected":
            unknown = att.chunk_id is None  # no chunk has that id: say if the words exist
            reason = att.reason + (_words_elsewhere(lib, ev) if unknown else "")
            return base.model_copy(update={"status": "rejected", "reason": reason})
        chunk = cf.chunk(att.chunk_id or "")
        assert chunk is not None
        doc_id = cf.chunk_document(chunk)
        text_status, text_reason = att.outcome, att.reason
        kind: TextMatch | None = att.span.kind if att.span is not None else None
        update.update(chunk_id=att.chunk_id, repaired_from=att.repaired_from, text_match=kind,
                      char_span=(att.span.start, att.span.end) if att.span else None)
        hints += [p - 1 for p in chunk.pages or []]
        if att.span is not None:
            # The chunk's words around the quote tell its copies on the page apart.
            context = QuoteContext.around(chunk.text, att.span.start, att.span.end)
            text_differences = tuple(DifferenceResult.of(d) for d in att.span.differences)
    else:
        doc_id = ev.document if ev.document is not None else (
            cf.documents[0].id if len(cf.documents) == 1 else None)
    if doc_id is None or cf.document(doc_id) is None:
        return base.model_copy(update={**update, "status": "rejected",
                                       "reason": f"unknown document id {doc_id!r}"})
    update.update(document=doc_id, document_path=lib.path_text(doc_id))

    src = lib.source(doc_id)
    if isinstance(src, DocumentError):
        reason = lib.reason(doc_id, src)
        if text_status in PLACED:
            reason += f"; the quote was found in chunk {update['chunk_id']!r}"
        return base.model_copy(update={**update, "status": "not_located", "reason": reason})

    placement = locate_quote(src, ev.quote, hints=hints, index=lambda: lib.index(doc_id),
                             context=context)
    if text_differences and placement.differences:
        # The page says what the chunk says: the one reason, in the page's words.
        text_reason = "the quote is similar to its chunk text, not a copy of it"
    status, reason = _combine(text_status, text_reason, placement)
    if cited and placement.placed and placement.page not in cited and status in PLACED:
        # The head names the cited pages; locate's own "not on hinted page …" would again.
        reason = re.sub(r"; not on (the )?hinted page[^;]*", "", reason)
        status, reason = "review", f"{outside_cited(cited)}: {reason}"
    update.update(status=status, reason=reason, score=placement.score or None)
    if placement.placed and status in PLACED:
        page = (placement.page or 0) + 1
        update.update(page=page, rects=list(placement.rects),
                      found_text=placement.found_text,
                      other_pages=[p + 1 for p in placement.other_pages],
                      alternatives=[Alternative(page=page, rects=list(alt))
                                    for alt in placement.alternatives],
                      differences=[DifferenceResult.of(d) for d in placement.differences],
                      word_diff=word_diff_json(placement.diff))
    elif text_differences:
        update.update(differences=list(text_differences))
    return base.model_copy(update=update)


def outside_cited(pages: list[int]) -> str:
    """The reason's head for a quote placed off the pages (0-based) its answer cited."""
    first, last = min(pages) + 1, max(pages) + 1
    named = f"page {first}" if first == last else (
        f"pages {first}–{last}" if len(set(pages)) == last - first + 1
        else "pages " + ", ".join(str(p + 1) for p in sorted(set(pages))))
    return f"outside the pages the answer cited ({named})"


def _words_elsewhere(lib: Library, ev: Evidence) -> str:
    """For a quote citing an unknown chunk: whether its words stand in the document all the
    same. The item stays rejected and gets no highlight (the citation is broken), but the
    reader learns that the words exist and where."""
    cf = lib.citations
    doc_id = ev.document or cf.document_named_by(ev.chunk_id or "") or (
        cf.documents[0].id if len(cf.documents) == 1 else None)
    if doc_id is None or cf.document(doc_id) is None:
        return ""
    src = lib.source(doc_id)
    if isinstance(src, DocumentError):
        return ""
    found = locate_quote(src, ev.quote, index=lambda: lib.index(doc_id))
    if found.placed and found.page is not None:
        return (f"; the quote's words do stand in document {doc_id!r} on page "
                f"{found.page + 1}, but no highlight is placed for a citation to a chunk "
                "the file does not have")
    return f"; the quote's words are not in document {doc_id!r} either"


def document_reason(err: DocumentError) -> str:
    """Why an evidence item on an unusable document was not located, in one phrase."""
    what = {"missing": "document missing", "encrypted": "document is password-protected",
            "bad_password": "wrong password for the document"}.get(err.kind,
                                                                   "document unusable")
    # The detail adds nothing to "missing" when it is "file not found", nor to "encrypted".
    plain = err.kind == "encrypted" or (err.kind == "missing" and err.detail == "file not found")
    return f"{what}: {err.path}" + ("" if plain else f" ({err.detail})")


def _combine(text_status: EvidenceStatus | None, text_reason: str, p: Placement
             ) -> tuple[EvidenceStatus, str]:
    """Merge the chunk-level verdict with the page-level one; the worse one wins."""
    if text_status is None:
        return p.status, p.reason
    if not p.placed:
        if text_status in PLACED:
            return "not_located", f"found in the chunk text but not on the page: {p.reason}"
        return "not_located", f"{text_reason}; {p.reason}"
    if text_status == "not_located":
        return "review", f"{text_reason}, but the page has it: {p.reason}"
    if text_status == "review" or p.status == "review":
        reasons = [r for st, r in ((text_status, text_reason), (p.status, p.reason))
                   if st == "review"]
        return "review", "; ".join(reasons)
    return "located", f"{text_reason}; {p.reason}"

