"""The result of checking a citations file: the ``citeview check --json`` contract.

Fields named in the contract keep their names and meanings; extra fields (``quote``,
``found_text``, ``claim_text``…) are compatible additions a reader may ignore.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["located", "review", "not_located", "rejected"]
TextMatch = Literal["exact", "fuzzy", "review"]
Rect = tuple[float, float, float, float]

# Worst first: the order in which a claim's badge summarises its evidence.
STATUS_ORDER: tuple[Status, ...] = ("rejected", "not_located", "review", "located")


class EvidenceResult(BaseModel):
    """What became of one evidence item."""

    model_config = ConfigDict(extra="forbid")

    index: int
    status: Status
    reason: str
    document: str | None = None
    chunk_id: str | None = None
    repaired_from: str | None = None
    char_span: tuple[int, int] | None = None
    text_match: TextMatch | None = None
    page: int | None = Field(default=None, description="1-based page of the highlight")
    score: float | None = None
    rects: list[Rect] = Field(default_factory=list,
                              description="PDF points, get_text('words') space, one per line")
    # Compatible extensions.
    quote: str = ""
    found_text: str | None = Field(default=None, description="the page words under the rects")
    document_path: str | None = None
    other_pages: list[int] = Field(
        default_factory=list,
        description="1-based pages holding the quote equally well when no hint chose")


class ClaimResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    evidence: list[EvidenceResult]
    text: str = ""
    uncited: bool = False
    id_assigned: bool = Field(default=False,
                              description="the file gave no id; this one was assigned")

    @property
    def status(self) -> Status | Literal["uncited"]:
        """The claim's badge: uncited, else the worst status among its evidence."""
        if not self.evidence:
            return "uncited"
        return min((e.status for e in self.evidence), key=STATUS_ORDER.index)


class Summary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    located: int = 0
    review: int = 0
    not_located: int = 0
    rejected: int = 0
    uncited: int = 0


class CheckReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: Summary
    claims: list[ClaimResult]
    problems: list[str] = Field(default_factory=list,
                                description="file-level problems, e.g. a missing document")

    @classmethod
    def build(cls, claims: list[ClaimResult], problems: list[str] | None = None) -> CheckReport:
        s = Summary()
        for c in claims:
            if not c.evidence:
                s.uncited += 1
            for e in c.evidence:
                setattr(s, e.status, getattr(s, e.status) + 1)
        return cls(summary=s, claims=claims, problems=problems or [])
