"""What is open and what is selected: the model the widgets are built from. No Qt here.

A :class:`Session` holds the citations file, the documents it names (with whatever is known
about each: usable, missing, locked…), the check report once it arrives, and the selected
claim. Widgets read it and subscribe to :attr:`Session.changed`; they never keep a second
copy of this state. Everything here can be driven and asserted on in a plain unit test.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from matcher.vocabulary import PLACED, Rect

from .documents import DocState, PageInfo
from .presentation import BadgeStatus
from .records import Citations, ClaimOutcome, Consistency, Report
from .rows import (
    DOCUMENT_BADGES,
    FLAGGED_BADGES,
    ClaimRow,
    EvidenceView,
    claim_rows,
    evidence_views,
    outcome_document_name,
)

# "consistency": one claim's consistency was worked out again (a placement decision
# changed the words its evidence stands on); the rest of the report is as it was.
Change = Literal["citations", "documents", "report", "selection", "progress", "copies",
                 "consistency"]


class Emitter:
    """A list of callbacks: the one piece of plumbing between the model and its widgets."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[Change], None]] = []

    def connect(self, callback: Callable[[Change], None]) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable[[Change], None]) -> None:
        self._callbacks.remove(callback)

    def emit(self, change: Change) -> None:
        for cb in list(self._callbacks):
            cb(change)


@dataclass
class DocumentStatus:
    """One document of the citations file (or the bare PDF) and what is known about it."""

    id: str
    path: Path
    state: DocState = "unknown"
    message: str = ""
    password: str | None = field(default=None, repr=False)
    pages: tuple[PageInfo, ...] = ()
    sha256: str | None = None  # of the file's bytes (what review decisions are about)

    @property
    def usable(self) -> bool:
        return self.state == "ok"

    @property
    def name(self) -> str:
        return self.path.name


class Session:
    """The open citations file (or bare PDF), its documents, check report and selection."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self.citations_path: Path | None = None
        self.citations: Citations | None = None
        self.documents: dict[str, DocumentStatus] = {}
        self.report: Report | None = None
        self.selected: str | None = None
        self.progress: tuple[int, int] | None = None
        self.shown_document: str | None = None
        # Where a quote that fits several pages equally well stands on its other pages:
        # (claim, evidence index) → 0-based page → rectangles (asked for when shown).
        self.other_copies: dict[tuple[str, int], dict[int, tuple[Rect, ...]]] = {}

    # -- opening ------------------------------------------------------------------------
    def open_citations(self, path: Path, citations: Citations) -> None:
        """Start over with a citations file; documents are listed, not yet inspected."""
        self.citations_path = path
        self.citations = citations
        self.documents = {ref.id: DocumentStatus(ref.id, ref.path) for ref in citations.documents}
        self.report = None
        self.selected = None
        self.progress = None
        self.other_copies = {}
        self.shown_document = citations.documents[0].id if citations.documents else None
        self.changed.emit("citations")

    def open_pdf(self, path: Path) -> None:
        """Start over with a bare PDF: a plain viewer, no claims."""
        self.citations_path = None
        self.citations = None
        self.documents = {"pdf": DocumentStatus("pdf", path)}
        self.report = None
        self.selected = None
        self.progress = None
        self.shown_document = "pdf"
        self.changed.emit("citations")

    @property
    def is_plain_pdf(self) -> bool:
        return self.citations is None and bool(self.documents)

    def moved_documents(self) -> dict[str, str]:
        """Documents the person located somewhere else than the file says: id → path."""
        if self.citations is None:
            return {}
        return {ref.id: str(status.path) for ref in self.citations.documents
                if (status := self.documents.get(ref.id)) is not None
                and status.path != ref.path}

    def passwords(self) -> dict[str, str]:
        return {d.id: d.password for d in self.documents.values() if d.password is not None}

    # -- documents ----------------------------------------------------------------------
    def set_document_state(self, doc_id: str, state: DocState, message: str = "", *,
                           pages: tuple[PageInfo, ...] = (), sha256: str | None = None) -> None:
        doc = self.documents[doc_id]
        doc.state, doc.message, doc.pages, doc.sha256 = state, message, pages, sha256
        self.changed.emit("documents")

    def relocate(self, doc_id: str, path: Path) -> None:
        """The person pointed at where a missing document really is."""
        doc = self.documents[doc_id]
        doc.path, doc.state, doc.message, doc.pages, doc.sha256 = path, "unknown", "", (), None
        self.changed.emit("documents")

    def document_of(self, claim_id: str | None) -> str | None:
        """The document a claim's highlights are on: that of its first placed evidence."""
        claim = self.claim_result(claim_id)
        if claim is not None:
            for ev in claim.evidence:
                if ev.status in PLACED and ev.document in self.documents:
                    return ev.document
            for ev in claim.evidence:
                if ev.document in self.documents:
                    return ev.document
        return self.shown_document

    def problem_documents(self) -> list[DocumentStatus]:
        return [d for d in self.documents.values() if d.state not in ("ok", "unknown")]

    def missing_documents(self) -> frozenset[str]:
        """The ids of the documents that are missing (their items badged so)."""
        return frozenset(d.id for d in self.documents.values() if d.state == "missing")

    def unusable_documents(self) -> dict[str, BadgeStatus]:
        """The documents that are missing or cannot be read, with the badge their items
        not located get ("document missing", "document unreadable")."""
        return {d.id: DOCUMENT_BADGES[d.state] for d in self.documents.values()
                if d.state in DOCUMENT_BADGES}

    # -- the report ---------------------------------------------------------------------
    def set_progress(self, done: int, total: int) -> None:
        self.progress = (done, total)
        self.changed.emit("progress")

    def clear_report(self) -> None:
        """Forget the report (documents changed; a new check follows)."""
        self.report = None
        self.changed.emit("report")

    def set_report(self, report: Report) -> None:
        self.report = report
        self.progress = None
        self.other_copies = {}
        self.changed.emit("report")

    def set_consistency(self, claim_id: str, consistency: Consistency) -> bool:
        """One claim's consistency worked out again (against the words the review leaves
        its evidence), the summary's ``differs`` counted again; told once, as
        "consistency", and only when it changed. Whether it did."""
        report = self.report
        old = report.claim(claim_id) if report is not None else None
        if report is None or old is None or old.consistency == consistency:
            return False
        claims = tuple(replace(c, consistency=consistency) if c.id == claim_id else c
                       for c in report.claims)
        differs = sum(c.consistency.differs for c in claims)
        self.report = replace(report, claims=claims,
                              summary=replace(report.summary, differs=differs))
        self.changed.emit("consistency")
        return True

    def claim_result(self, claim_id: str | None) -> ClaimOutcome | None:
        return None if self.report is None else self.report.claim(claim_id)

    def rows(self) -> list[ClaimRow]:
        """Every claim in file order; before the report arrives, with "checking…" badges."""
        return claim_rows(self.citations, self.report, self.unusable_documents())

    # -- selection ----------------------------------------------------------------------
    def select(self, claim_id: str | None) -> None:
        if claim_id is not None and self.citations is not None \
                and self.citations.claim(claim_id) is None:
            raise KeyError(claim_id)
        self.selected = claim_id
        doc = self.document_of(claim_id)
        if doc is not None:
            self.shown_document = doc
        self.changed.emit("selection")

    def step(self, delta: int, *, flagged_only: bool = False,
             among: Collection[str] | None = None) -> str | None:
        """The claim ``delta`` rows away from the selection (wrapping), optionally only
        flagged ones, only those ``among`` (the claims a filter shows); None when there
        is none."""
        rows = [r for r in self.rows() if among is None or r.id in among]
        if not rows:
            return None
        ids = [r.id for r in rows]
        start = ids.index(self.selected) if self.selected in ids else (-1 if delta > 0 else 0)
        n = len(rows)
        for k in range(1, n + 1):
            row = rows[(start + delta * k) % n]
            if not flagged_only or set(row.badges) & FLAGGED_BADGES:
                return row.id
        return None

    def set_other_copies(self, claim_id: str, index: int,
                         copies: dict[int, tuple[Rect, ...]]) -> None:
        """Where evidence item ``index`` of a claim stands on its ``other_pages``."""
        self.other_copies[(claim_id, index)] = dict(copies)
        self.changed.emit("copies")

    def hinted_page(self, claim_id: str | None) -> int | None:
        """The 1-based page the citations file suggests for a claim (before any check):
        its first evidence item's ``page``, else the first page of its chunk."""
        if self.citations is None:
            return None
        claim = self.citations.claim(claim_id)
        for ev in claim.evidence if claim is not None else ():
            pages = self.citations.evidence_pages(ev)
            if pages:
                return pages[0]
        return None

    def unlocated_pages(self, claim_id: str | None) -> dict[str, list[int]]:
        """Per document, the 0-based pages the claim's not-located evidence points at
        (its ``page`` hint or its chunk's pages): where a scan may hide the quote."""
        if self.citations is None or claim_id is None:
            return {}
        claim = self.citations.claim(claim_id)
        result = self.claim_result(claim_id)
        if claim is None or result is None:
            return {}
        out: dict[str, list[int]] = {}
        for ev, got in zip(claim.evidence, result.evidence, strict=False):
            if got.status != "not_located" or got.document not in self.documents:
                continue
            out.setdefault(got.document, []).extend(
                p - 1 for p in self.citations.evidence_pages(ev))
        return out

    def evidence_views(self, claim_id: str | None) -> list[EvidenceView]:
        """The detail pane's content for a claim, sentences included."""
        def known(doc_id: str) -> Path | None:
            doc = self.documents.get(doc_id)
            return doc.path if doc is not None else None

        return evidence_views(self.citations, self.report, claim_id,
                              lambda ev: outcome_document_name(ev, known),
                              self.unusable_documents())
