"""The result of checking a citations file: the ``citeview check --json`` contract.

Fields named in the contract keep their names and meanings; extra fields (``quote``,
``found_text``, ``claim_text``…) are compatible additions a reader may ignore.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict, Field

from .consistency import Consistency
from .diff import Difference, DiffToken, QuoteDiff
from .fresh import empty_dict, empty_list
from .jsonout import model_json
from .vocabulary import (
    ClaimStatus,
    ConsistencyStatus,
    DifferenceKind,
    EvidenceStatus,
    FactKind,
    Rect,
    TextMatch,
    worst,
)


class Alternative(BaseModel):
    """Another copy of the quoted words that a ``review`` placement stands for."""

    model_config = ConfigDict(extra="forbid")

    page: int = Field(description="1-based page of the copy")
    rects: list[Rect] = Field(description="PDF points, get_text('words') space, one per line")


class DifferenceResult(BaseModel):
    """A quoted word the found text does not hold, and the word it stands against."""

    model_config = ConfigDict(extra="forbid")

    kind: DifferenceKind
    quote: str | None = Field(description="the quote's word; null when the quote leaves "
                                          "out a negation the page holds")
    page: str | None = Field(description="the page's word it stands against, if any")

    @classmethod
    def of(cls, d: Difference) -> DifferenceResult:
        return cls(kind=d.kind, quote=d.quote, page=d.page)


class ReviewDecision(BaseModel):
    """A person's placement decision about an item, as the review file holds it."""

    model_config = ConfigDict(extra="forbid")

    placement: str = Field(description="confirmed, wrong_place, relocated or absent")
    page: int | None = Field(description="1-based page of the words decided on")
    rects: list[Rect] = Field(description="PDF points, get_text('words') space, one per line")
    text: str | None = Field(default=None, description="the words confirmed or selected")
    note: str
    reviewer: str
    at: str = Field(description="when, ISO 8601 in UTC")
    stale: bool = Field(description="the quote or document changed since, or the check "
                                    "now draws other words than those confirmed: it "
                                    "settles nothing")


class SupportDecision(BaseModel):
    """A person's decision whether a claim's evidence, together, supports it."""

    model_config = ConfigDict(extra="forbid")

    support: str = Field(description="supported, partly, not_supported or uncitable")
    note: str
    reviewer: str
    at: str
    stale: bool = Field(description="the claim or its quotes changed since")


class EvidenceResult(BaseModel):
    """What became of one evidence item."""

    model_config = ConfigDict(extra="forbid")

    index: int
    status: EvidenceStatus
    reason: str
    document: str | None = None
    chunk_id: str | None = None
    repaired_from: str | None = None
    char_span: tuple[int, int] | None = None
    text_match: TextMatch | None = None
    page: int | None = Field(default=None, description="1-based page of the highlight")
    score: float | None = None
    rects: list[Rect] = Field(default_factory=empty_list,
                              description="PDF points, get_text('words') space, one per line")
    # Compatible extensions.
    quote: str = ""
    found_text: str | None = Field(default=None, description="the page words under the rects")
    document_path: str | None = None
    other_pages: list[int] = Field(
        default_factory=empty_list,
        description="1-based pages holding the quote equally well when no hint chose")
    alternatives: list[Alternative] = Field(
        default_factory=empty_list,
        description="for a review placement, each other copy of the quoted words it stands "
                    "for (all are drawn in rects), so a person can choose one")
    differences: list[DifferenceResult] = Field(
        default_factory=empty_list,
        description="words of the quote the found text lacks; [] for a located item")
    word_diff: dict[str, list[dict[str, Any]]] | None = Field(
        default=None,
        description="the quote and the highlighted lines word by word (matcher.diff)")
    decision: ReviewDecision | None = Field(
        default=None, description="the review file's decision about this item, if any")


class FactDifferenceResult(BaseModel):
    """A figure, date or negation of the claim its evidence does not bear out."""

    model_config = ConfigDict(extra="forbid")

    kind: FactKind
    claim: str | None = Field(description="the claim's figure as written; null for a "
                                          "negation of the evidence the claim leaves out")
    evidence: str | None = Field(description="the evidence's figure of the same kind that "
                                             "stands where the claim's should, if any")


class ConsistencyResult(BaseModel):
    """The claim's figures, dates and negations against the words its evidence stands on."""

    model_config = ConfigDict(extra="forbid")

    status: ConsistencyStatus = "unchecked"
    differences: list[FactDifferenceResult] = Field(default_factory=empty_list)

    @classmethod
    def of(cls, c: Consistency) -> ConsistencyResult:
        return cls(status=c.status, differences=[
            FactDifferenceResult(kind=d.kind, claim=d.claim, evidence=d.evidence)
            for d in c.differences])


class ReviewAnswer(BaseModel):
    """A person's answer to a further review question (the review file's ``answers``)."""

    model_config = ConfigDict(extra="forbid")

    value: str
    note: str
    reviewer: str
    at: str = Field(description="when, ISO 8601 in UTC")
    stale: bool = Field(description="the quote or the claim changed since: it settles nothing")


class ClaimResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    evidence: list[EvidenceResult]
    text: str = ""
    uncited: bool = False
    id_assigned: bool = Field(default=False,
                              description="the file gave no id; this one was assigned")
    support: SupportDecision | None = Field(
        default=None, description="the review file's decision about this claim, if any")
    consistency: ConsistencyResult = Field(
        default_factory=ConsistencyResult,
        description="the claim's figures, dates and negations against its located or "
                    "confirmed evidence; differs makes the claim need a person")
    answers: dict[str, ReviewAnswer] = Field(
        default_factory=empty_dict, description="answers to further review questions, by "
                                                "question id (per claim, and per item by "
                                                "'question#index')")

    @property
    def status(self) -> ClaimStatus:
        """The claim's badge: uncited, else the worst status among its evidence."""
        if not self.evidence:
            return "uncited"
        return worst(e.status for e in self.evidence)


class Summary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    located: int = 0
    review: int = 0
    not_located: int = 0
    rejected: int = 0
    uncited: int = 0
    differs: int = Field(default=0, description="claims whose consistency differs")

    def count(self, c: ClaimResult) -> None:
        """Add claim ``c`` and its items to the counts."""
        if not c.evidence:
            self.uncited += 1
        if c.consistency.status == "differs":
            self.differs += 1
        for e in c.evidence:
            setattr(self, e.status, getattr(self, e.status) + 1)


class CheckReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: Summary
    claims: list[ClaimResult]
    problems: list[str] = Field(default_factory=empty_list,
                                description="file-level problems, e.g. a missing document")

    @classmethod
    def build(cls, claims: list[ClaimResult], problems: list[str] | None = None) -> CheckReport:
        s = Summary()
        for c in claims:
            s.count(c)
        return cls(summary=s, claims=claims, problems=problems or [])


# Where the claims stand in the report's JSON when it has none (pydantic writes the
# fields in their declared order: summary, claims, problems; a string's quote marks are
# escaped, so this text occurs only as the field itself).
_NO_CLAIMS = '\n  "claims": [],'


def write_report_json(report: CheckReport, out: TextIO,
                      claims: Iterable[ClaimResult] | None = None) -> None:
    """Write ``report`` as :func:`matcher.jsonout.model_json` would print it (the same
    bytes, newline ended), one claim at a time: the whole text is never held, and
    ``claims`` (default the report's own) may be produced while it is written."""
    head, tail = report_frame(report)
    out.write(head)
    first = True
    for claim in report.claims if claims is None else claims:
        out.write(claim_json(claim, first=first))
        first = False
    out.write(("]," if first else "\n  ],") + tail)


def report_frame(report: CheckReport) -> tuple[str, str]:
    """The report's text before its claims (up to the ``[``) and after them (from what
    follows the ``],`` closing them: the problems), as :func:`write_report_json` writes."""
    head, tail = model_json(report.model_copy(update={"claims": []})).split(_NO_CLAIMS, 1)
    return head + '\n  "claims": [', tail + "\n"


def claim_json(claim: ClaimResult, *, first: bool) -> str:
    """A claim's text in the report, with what comes before it (``first``: the ``[``)."""
    return ("\n    " if first else ",\n    ") + model_json(claim).replace("\n", "\n    ")


class SpoolError(Exception):
    """A report's temporary file could not be made or written (a full or missing
    temporary folder): the message names the folder and the reason."""


@contextmanager
def spooling() -> Iterator[None]:
    """OSError from a temporary file as the :class:`SpoolError` saying so."""
    try:
        yield
    except OSError as exc:
        raise SpoolError(f"cannot hold the report in a temporary file in "
                         f"{tempfile.gettempdir()} ({exc.strerror or exc}); free space "
                         "there or set TMPDIR to another folder") from None


class ReportSpool:
    """``check --json``'s report written a claim at a time to a temporary file while the
    check runs, then out whole once the summary, which stands first, is known: no claim
    is held once written. :class:`SpoolError` when the temporary file fails."""

    def __init__(self) -> None:
        with spooling():
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self._first = True

    def __enter__(self) -> ReportSpool:
        return self

    def __exit__(self, *_exc: object) -> None:
        with suppress(OSError):  # what it still buffered, when the folder is full: dropped
            self._file.close()

    def add(self, claim: ClaimResult) -> None:
        """Spool ``claim``, the next of the report."""
        with spooling():
            self._file.write(claim_json(claim, first=self._first))
        self._first = False

    def write(self, out: TextIO, report: CheckReport) -> None:
        """The report of the spooled claims to ``out``, its summary and problems those of
        ``report`` (whose claims are not written): :func:`write_report_json`'s bytes."""
        head, tail = report_frame(report)
        with spooling():
            self._file.flush()
            self._file.seek(0)
        out.write(head)
        shutil.copyfileobj(self._file, out)
        out.write(("]," if self._first else "\n  ],") + tail)


def word_diff_json(diff: QuoteDiff | None) -> dict[str, list[dict[str, Any]]] | None:
    """The word-level diff as JSON: ``{"quote": [...], "found": [...]}``, one token a word.

    Each token is ``{"text", "op"}`` (op: ``same``, ``differs``, ``dropped``), with
    ``against`` (the word on the other side) and ``kind`` when it differs; a found
    token also has ``line``, the 0-based index of the highlighted line it stands on.
    """
    if diff is None:
        return None

    def side(tokens: tuple[DiffToken, ...], *, lines: bool = False) -> list[dict[str, Any]]:
        out = []
        for t in tokens:
            item: dict[str, Any] = {"text": t.text, "op": t.op}
            if lines:
                item["line"] = t.line
            if t.against is not None:
                item["against"] = t.against
            if t.kind is not None:
                item["kind"] = t.kind
            out.append(item)
        return out

    return {"quote": side(diff.quote), "found": side(diff.found, lines=True)}
