"""The citations file and the check report as the window holds them: plain, frozen records.

The GUI process never imports pydantic or the matcher's search code; the check process
(:mod:`viewer.checker.server`) validates the citations file and checks it, and hands over what the
window shows. A report arrives as the ``citeview check --json`` document itself, so the
window reads exactly the public contract, and a file saved by ``check --json`` reads the
same way (:meth:`Report.from_json`). Only the fields the window uses are kept; the
contract's other fields are compatible additions it may ignore.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Rect = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class DocumentEntry:
    """A document the citations file names, at the path it resolves to."""

    id: str
    path: Path


@dataclass(frozen=True, slots=True)
class EvidenceEntry:
    """An evidence item as the citations file gives it."""

    quote: str
    page: int | None  # 1-based hint
    chunk_id: str | None


@dataclass(frozen=True, slots=True)
class ClaimEntry:
    id: str
    text: str
    evidence: tuple[EvidenceEntry, ...]


@dataclass(frozen=True, slots=True)
class Citations:
    """A validated citations file: documents (paths resolved), claims, chunks' pages."""

    documents: tuple[DocumentEntry, ...]
    claims: tuple[ClaimEntry, ...]
    chunk_pages: Mapping[str, tuple[int, ...]]  # chunk id → its 1-based pages (may be ())

    @classmethod
    def from_json(cls, data: Mapping[str, Any], document_paths: Mapping[str, Path]
                  ) -> Citations:
        """From a validated citations file's JSON and where each document resolved to."""
        return cls(
            documents=tuple(DocumentEntry(d["id"], Path(document_paths[d["id"]]))
                            for d in data.get("documents", ())),
            claims=tuple(ClaimEntry(c["id"], c.get("text", ""), tuple(
                EvidenceEntry(e["quote"], e.get("page"), e.get("chunk_id"))
                for e in c.get("evidence", ()))) for c in data.get("claims", ())),
            chunk_pages={ch["id"]: tuple(ch.get("pages") or ())
                         for ch in data.get("chunks", ())})

    def claim(self, claim_id: str | None) -> ClaimEntry | None:
        return next((c for c in self.claims if c.id == claim_id), None)

    def evidence_pages(self, ev: EvidenceEntry) -> list[int]:
        """The 1-based pages an evidence item points at: its hint, then its chunk's."""
        pages = [ev.page] if ev.page is not None else []
        return pages + list(self.chunk_pages.get(ev.chunk_id or "", ()))


@dataclass(frozen=True, slots=True)
class EvidenceOutcome:
    """What the check made of one evidence item (``claims[].evidence[]`` of the report)."""

    status: str  # located, review, not_located, rejected
    reason: str
    document: str | None
    document_path: str | None
    page: int | None  # 1-based
    rects: tuple[Rect, ...]
    quote: str
    found_text: str | None
    score: float | None


@dataclass(frozen=True, slots=True)
class ClaimOutcome:
    id: str
    evidence: tuple[EvidenceOutcome, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    located: int
    review: int
    not_located: int
    rejected: int
    uncited: int


@dataclass(frozen=True, slots=True)
class Report:
    """A check report: per claim, per evidence item, what was found and where."""

    claims: tuple[ClaimOutcome, ...]
    summary: Summary

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Report:
        """From the ``citeview check --json`` document."""
        s = data.get("summary", {})
        return cls(
            claims=tuple(ClaimOutcome(c["id"], tuple(
                EvidenceOutcome(
                    status=e["status"], reason=e.get("reason", ""),
                    document=e.get("document"), document_path=e.get("document_path"),
                    page=e.get("page"),
                    rects=tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3]))
                                for r in e.get("rects", ())),
                    quote=e.get("quote", ""), found_text=e.get("found_text"),
                    score=e.get("score"))
                for e in c.get("evidence", ()))) for c in data.get("claims", ())),
            summary=Summary(*(int(s.get(k, 0)) for k in
                              ("located", "review", "not_located", "rejected", "uncited"))))

    def claim(self, claim_id: str | None) -> ClaimOutcome | None:
        return next((c for c in self.claims if c.id == claim_id), None)
