"""What is open and what is selected: the model the widgets are built from. No Qt here.

A :class:`Session` holds the citations file, the documents it names (with whatever is known
about each: usable, missing, locked…), the check report once it arrives, and the selected
claim. Widgets read it and subscribe to :attr:`Session.changed`; they never keep a second
copy of this state. Everything here can be driven and asserted on in a plain unit test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..checker.inspection import DocState
from ..render.page import PageInfo, Rect
from .records import Citations, ClaimOutcome, EvidenceOutcome, Report

BadgeStatus = Literal["located", "review", "not_located", "rejected", "uncited", "pending"]
Change = Literal["citations", "documents", "report", "selection", "progress"]

# What a badge says, per status. "needs review" rather than "review": it is an instruction.
BADGE_TEXT: dict[BadgeStatus, str] = {
    "located": "located",
    "review": "needs review",
    "not_located": "not located",
    "rejected": "rejected",
    "uncited": "uncited",
    "pending": "checking…",
}
# Statuses the "next flagged" command stops at.
FLAGGED: frozenset[BadgeStatus] = frozenset({"review", "not_located"})
# Statuses whose evidence carries rectangles to draw.
PLACED: frozenset[str] = frozenset({"located", "review"})


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

    @property
    def usable(self) -> bool:
        return self.state == "ok"

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class ClaimRow:
    """A claim as the list shows it: text and one badge per evidence item."""

    id: str
    text: str
    badges: tuple[BadgeStatus, ...]

    @property
    def status(self) -> BadgeStatus:
        """The worst badge (what "next flagged" looks at)."""
        order: tuple[BadgeStatus, ...] = ("rejected", "not_located", "review", "pending",
                                          "located", "uncited")
        return min(self.badges, key=order.index)


@dataclass(frozen=True)
class EvidenceView:
    """One evidence item as the detail pane shows it."""

    index: int
    status: BadgeStatus
    quote: str
    found_text: str | None
    score: float | None
    reason: str
    page: int | None  # 1-based
    document_name: str | None
    notice: str  # a plain sentence about the highlight (or why there is none)


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

    # -- opening ------------------------------------------------------------------------
    def open_citations(self, path: Path, citations: Citations) -> None:
        """Start over with a citations file; documents are listed, not yet inspected."""
        self.citations_path = path
        self.citations = citations
        self.documents = {ref.id: DocumentStatus(ref.id, ref.path) for ref in citations.documents}
        self.report = None
        self.selected = None
        self.progress = None
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
                           pages: tuple[PageInfo, ...] = ()) -> None:
        doc = self.documents[doc_id]
        doc.state, doc.message, doc.pages = state, message, pages
        self.changed.emit("documents")

    def relocate(self, doc_id: str, path: Path) -> None:
        """The person pointed at where a missing document really is."""
        doc = self.documents[doc_id]
        doc.path, doc.state, doc.message, doc.pages = path, "unknown", "", ()
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
        self.changed.emit("report")

    def claim_result(self, claim_id: str | None) -> ClaimOutcome | None:
        return None if self.report is None else self.report.claim(claim_id)

    def rows(self) -> list[ClaimRow]:
        """Every claim in file order; before the report arrives, with "checking…" badges."""
        if self.citations is None:
            return []
        results = {c.id: c for c in self.report.claims} if self.report else {}
        rows = []
        for claim in self.citations.claims:
            result = results.get(claim.id)
            badges: tuple[BadgeStatus, ...]
            if not claim.evidence:
                badges = ("uncited",)
            elif result is None:
                badges = ("pending",) * len(claim.evidence)
            else:
                badges = tuple(e.status for e in result.evidence) or ("pending",)
            rows.append(ClaimRow(claim.id, claim.text, badges))
        return rows

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

    def step(self, delta: int, *, flagged_only: bool = False) -> str | None:
        """The claim ``delta`` rows away from the selection (wrapping), optionally only
        flagged ones; None when there is none."""
        rows = self.rows()
        if not rows:
            return None
        ids = [r.id for r in rows]
        start = ids.index(self.selected) if self.selected in ids else (-1 if delta > 0 else 0)
        n = len(rows)
        for k in range(1, n + 1):
            row = rows[(start + delta * k) % n]
            if not flagged_only or set(row.badges) & FLAGGED:
                return row.id
        return None

    def highlights(self, claim_id: str | None, doc_id: str | None) -> dict[int, list[Rect]]:
        """Rectangles to draw for a claim on one document: 0-based page → words-space rects.

        Every placed evidence item of the claim is included: together they are one
        citation (a union), not alternatives.
        """
        claim = self.claim_result(claim_id)
        out: dict[int, list[Rect]] = {}
        if claim is None:
            return out
        for ev in claim.evidence:
            if ev.status in PLACED and ev.page is not None and ev.rects and \
                    (doc_id is None or ev.document == doc_id):
                out.setdefault(ev.page - 1, []).extend(ev.rects)
        return out

    def focus(self, claim_id: str | None, doc_id: str | None) -> tuple[int, list[Rect]] | None:
        """The page and band to scroll to: the first placed evidence item's."""
        claim = self.claim_result(claim_id)
        if claim is None:
            return None
        for ev in claim.evidence:
            if ev.status in PLACED and ev.page is not None and ev.rects and \
                    (doc_id is None or ev.document == doc_id):
                return ev.page - 1, list(ev.rects)
        return None

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
        if self.citations is None or claim_id is None:
            return []
        claim = self.citations.claim(claim_id)
        if claim is None:
            return []
        result = self.claim_result(claim_id)
        views = []
        for i, ev in enumerate(claim.evidence):
            got = result.evidence[i] if result is not None and i < len(result.evidence) else None
            views.append(self._evidence_view(i, ev.quote, got))
        return views

    def _evidence_view(self, index: int, quote: str, ev: EvidenceOutcome | None) -> EvidenceView:
        if ev is None:
            return EvidenceView(index, "pending", quote, None, None, "", None, None,
                                "Checking…")
        name = self._document_name(ev)
        where = name or "the document"
        if ev.status in PLACED and ev.page is not None and ev.rects:
            lines = len(ev.rects)
            notice = (f"Highlighted on page {ev.page} of {where} "
                      f"({lines} line{'s' if lines != 1 else ''})")
            if ev.status == "review":
                notice += " — needs review"
        elif ev.status == "rejected":
            notice = "Rejected — no highlight shown"
        else:
            notice = f"Not found in {where} — no highlight shown"
        return EvidenceView(index, ev.status, ev.quote or quote, ev.found_text, ev.score,
                            ev.reason, ev.page, name, notice)

    def _document_name(self, ev: EvidenceOutcome) -> str | None:
        if ev.document is not None and ev.document in self.documents:
            return self.documents[ev.document].name
        if ev.document_path:
            return Path(ev.document_path).name
        return None
