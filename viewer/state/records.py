"""The citations file and the check report as the window holds them: plain, frozen records.

The GUI process never imports pydantic or the matcher's search code; the check process
(:mod:`viewer.checker.server`) validates the citations file and checks it, and hands over
these records. A report is read from the ``citeview check --json`` document itself
(:meth:`Report.from_json`), so the window holds exactly the public contract, every field
of it, and a file saved by ``check --json`` reads the same way. Fields the contract may
gain later (compatible additions) are accepted and ignored; a status outside the
vocabulary of :mod:`matcher.vocabulary` is an error naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matcher.vocabulary import (
    CLAIM_STATUSES,
    CONSISTENCY_STATUSES,
    TEXT_MATCHES,
    ConsistencyStatus,
    EvidenceStatus,
    Rect,
    TextMatch,
    evidence_status,
)


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
    flag: str | None = None  # why the upstream system flagged the claim for a person


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
                for e in c.get("evidence", ())), c.get("flag")) for c in data.get("claims", ())),
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

    index: int  # position in the claim's evidence list
    status: EvidenceStatus
    reason: str
    document: str | None = None
    chunk_id: str | None = None
    repaired_from: str | None = None  # the chunk id the file gave, when re-attributed
    char_span: tuple[int, int] | None = None  # half-open, in the final chunk's raw text
    text_match: TextMatch | None = None
    page: int | None = None  # 1-based
    score: float | None = None
    rects: tuple[Rect, ...] = ()
    quote: str = ""
    found_text: str | None = None
    document_path: str | None = None
    other_pages: tuple[int, ...] = ()  # 1-based pages holding the quote equally well
    alternatives: tuple[Alternative, ...] = ()  # other copies a review placement stands for
    differences: tuple[Difference, ...] = ()  # quoted words the found text lacks
    word_diff: WordDiff | None = None  # the quote against the highlighted lines, word by word

    @classmethod
    def from_json(cls, data: Mapping[str, Any], index: int = 0) -> EvidenceOutcome:
        """From one ``claims[].evidence[]`` object (``index`` if it names none)."""
        span = data.get("char_span")
        match = data.get("text_match")
        return cls(
            index=int(data.get("index", index)),
            status=evidence_status(data["status"]),
            reason=data.get("reason", ""),
            document=data.get("document"), chunk_id=data.get("chunk_id"),
            repaired_from=data.get("repaired_from"),
            char_span=(int(span[0]), int(span[1])) if span is not None else None,
            text_match=match if match in TEXT_MATCHES else None,
            page=data.get("page"), score=data.get("score"),
            rects=_rects(data.get("rects", ())),
            quote=data.get("quote", ""), found_text=data.get("found_text"),
            document_path=data.get("document_path"),
            other_pages=tuple(int(p) for p in data.get("other_pages", ())),
            alternatives=tuple(Alternative(int(a["page"]), _rects(a.get("rects", ())))
                               for a in data.get("alternatives", ())),
            differences=tuple(Difference.from_json(d) for d in data.get("differences") or ()),
            word_diff=WordDiff.from_json(data["word_diff"]) if data.get("word_diff") else None)


@dataclass(frozen=True, slots=True)
class Difference:
    """A quoted word the found text lacks (``quote``), and the page word it stands against
    (``page``, None when there is none); ``quote`` is None for a negation the page holds
    inside the quoted passage and the quote leaves out. ``kind`` is ``number``,
    ``negation`` or ``word``; a kind a newer writer adds is kept as it is."""

    kind: str
    quote: str | None
    page: str | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Difference:
        return cls(str(data.get("kind", "word")),
                   None if data.get("quote") is None else str(data["quote"]),
                   None if data.get("page") is None else str(data["page"]))


@dataclass(frozen=True, slots=True)
class DiffToken:
    """One word of the quote or of the found text, and how it compares with the other:
    ``same``, ``differs`` (``against`` the word on the other side, if any) or ``dropped``
    (a page word the quote leaves out)."""

    text: str
    op: str
    against: str | None = None
    kind: str | None = None
    line: int | None = None  # found words: the 0-based highlighted line they stand on


@dataclass(frozen=True, slots=True)
class WordDiff:
    """The ``word_diff`` of a placed item: the quote's words and the found words."""

    quote: tuple[DiffToken, ...]
    found: tuple[DiffToken, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WordDiff:
        def side(items: Any) -> tuple[DiffToken, ...]:
            return tuple(DiffToken(str(t.get("text", "")), str(t.get("op", "same")),
                                   t.get("against"), t.get("kind"), t.get("line"))
                         for t in items or () if isinstance(t, Mapping))
        return cls(side(data.get("quote")), side(data.get("found")))


@dataclass(frozen=True, slots=True)
class Alternative:
    """Another copy of the quoted words: its 1-based page and rectangles."""

    page: int
    rects: tuple[Rect, ...]


def _rects(items: Any) -> tuple[Rect, ...]:
    return tuple((float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in items)


@dataclass(frozen=True, slots=True)
class FactDifference:
    """A figure, date or negation of the claim (``claim``; None for a negation of the
    evidence the claim leaves out) its evidence does not bear out, and the evidence's
    token of the same kind standing where it should (``evidence``, None when none)."""

    kind: str
    claim: str | None
    evidence: str | None


@dataclass(frozen=True, slots=True)
class Consistency:
    """A claim's figures, dates and negations against its evidence (``consistency``)."""

    status: ConsistencyStatus = "unchecked"
    differences: tuple[FactDifference, ...] = ()

    @property
    def differs(self) -> bool:
        return self.status == "differs"

    @classmethod
    def from_json(cls, data: Any) -> Consistency:
        """From a claim's ``consistency`` object; a report without one is unchecked."""
        if not isinstance(data, Mapping):
            return cls()
        status: ConsistencyStatus = next(
            (s for s in CONSISTENCY_STATUSES if s == data.get("status")), "unchecked")
        return cls(status, tuple(
            FactDifference(str(d.get("kind", "number")),
                           None if d.get("claim") is None else str(d["claim"]),
                           None if d.get("evidence") is None else str(d["evidence"]))
            for d in data.get("differences") or () if isinstance(d, Mapping)))


@dataclass(frozen=True, slots=True)
class ClaimOutcome:
    id: str
    evidence: tuple[EvidenceOutcome, ...]
    text: str = ""
    uncited: bool = False
    consistency: Consistency = Consistency()


@dataclass(frozen=True, slots=True)
class Summary:
    located: int
    review: int
    not_located: int
    rejected: int
    uncited: int
    differs: int = 0  # claims whose figures or negations their evidence does not bear out


@dataclass(frozen=True, slots=True)
class Report:
    """A check report: per claim, per evidence item, what was found and where."""

    claims: tuple[ClaimOutcome, ...]
    summary: Summary
    problems: tuple[str, ...] = ()  # file-level, e.g. a document that is missing

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Report:
        """From the ``citeview check --json`` document."""
        s = data.get("summary", {})
        return cls(
            claims=tuple(ClaimOutcome(
                c["id"],
                tuple(EvidenceOutcome.from_json(e, i) for i, e in enumerate(c.get("evidence", ()))),
                text=c.get("text", ""), uncited=bool(c.get("uncited", False)),
                consistency=Consistency.from_json(c.get("consistency")))
                for c in data.get("claims", ())),
            summary=Summary(**{k: int(s.get(k, 0)) for k in CLAIM_STATUSES},
                            differs=int(s.get("differs", 0))),
            problems=tuple(str(p) for p in data.get("problems", ())))

    def claim(self, claim_id: str | None) -> ClaimOutcome | None:
        return next((c for c in self.claims if c.id == claim_id), None)
