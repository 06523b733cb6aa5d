"""The review's decisions put on a check report: for ``citeview check`` and ``export``, and
for File ▸ Export in the check process. Read the sidecar, apply it to the report.
The exporters themselves (:mod:`viewer.export`) read only the report this makes.

``check --json`` gains, compatibly, a ``decision`` object (or null) on every evidence item
and a ``support`` object (or null) on every claim, read from the sidecar; the matcher's
own ``status``, ``page`` and ``rects`` stay as it found them. ``--fail-on`` turns what
remains undecided, unsupported, to review or not located into exit status 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from matcher.files import InputFileError, stat_regular

from ..state import review_store
from ..state.decisions import Entry
from ..state.review import ClaimState, Review
from ..state.sidecar import SidecarError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantic import BaseModel

    from matcher.citations import CitationsFile, Claim
    from matcher.report import CheckReport, ClaimResult

    from ..state.fail_on import FailState

M = TypeVar("M", bound="BaseModel")  # a contract's model (matcher.report)


def load_review(citations_path: Path, explicit: Path | None) -> tuple[Review, Path | None]:
    """The decisions for a citations file: from ``explicit`` (which must exist), else its
    sidecar if there is one; SidecarError naming the file and JSON paths when unusable."""
    path = explicit if explicit is not None else review_store.existing(citations_path)
    if path is None:
        return Review(), None
    if explicit is not None:
        try:
            stat_regular(explicit)  # a name too long, a locked folder: the reason, no trace
        except InputFileError as exc:
            raise SidecarError(explicit, [("$", exc.reason)]) from None
    return Review(review_store.ReviewStore(path).load()), path


def relocated(cf: CitationsFile, review: Review) -> CitationsFile:
    """The citations file with each document the reviewer located elsewhere (Locate…,
    kept in the review file's ``documents``) read from there."""
    moved = review.decisions.documents
    if not moved or not any(ref.id in moved for ref in cf.documents):
        return cf
    refs = [ref.model_copy(update={"path": moved[ref.id]}) if ref.id in moved else ref
            for ref in cf.documents]
    out = cf.model_copy(update={"documents": refs})
    out._assigned_ids = cf._assigned_ids
    return out


def document_hashes(cf: CitationsFile, citations_path: Path) -> dict[str, str | None]:
    """The SHA-256 of each listed document's bytes (None when it cannot be read)."""
    from matcher.citations import resolve_document_path
    from matcher.document import file_hash

    out: dict[str, str | None] = {}
    for ref in cf.documents:
        path = Path(resolve_document_path(citations_path, ref))
        try:
            out[ref.id] = file_hash(path) if path.is_file() else None
        except OSError:
            out[ref.id] = None
    return out


def attach(review: Review, cf: CitationsFile, citations_path: Path,
           check: CheckReport) -> None:
    """Read the decisions against this file, its check and its documents."""
    from .citations import citations_record, report_record

    citations = citations_record(cf, citations_path)
    hashes = document_hashes(cf, citations_path) if review.decisions.evidence else {}
    review.attach(citations, report_record(check), hashes)
    if review.decisions.evidence and reconsider(check, review):
        review.attach(citations, report_record(check), hashes)


def reconsider(check: CheckReport, review: Review) -> bool:
    """Check each claim with a placement decision again against the evidence the review
    leaves it (:func:`reconsider_claim`). Whether any claim's ``consistency`` changed."""
    decided = {d.claim for d in review.decisions.evidence.values()}
    changed = False
    for claim in check.claims:
        if claim.id in decided:
            changed = reconsider_claim(claim, review) or changed
    if changed:
        check.summary.differs = sum(c.consistency.status == "differs" for c in check.claims)
    return changed


def reconsider_claim(claim: ClaimResult, review: Review) -> bool:
    """Check a claim again against the evidence the review leaves it: a confirmed item's
    words (also one the matcher only placed for review), a relocated item's selected
    words, no longer a wrong place's or an absent quote's. Whether its ``consistency``
    changed (then it is set)."""
    from matcher.consistency import check_claim
    from matcher.report import ConsistencyResult

    from ..state.standing import standing

    state = review.claim_state(claim.id)
    if state is None:
        return False
    words = standing(state)  # the one rule, the window's too
    now = ConsistencyResult.of(check_claim(claim.text, list(words.texts),
                                           pages=list(words.pages)))
    if now == claim.consistency:
        return False
    claim.consistency = now
    return True


def apply(check: CheckReport, review: Review) -> None:
    """Put the review's decisions on the report (:func:`apply_claim`, each claim)."""
    decided = decided_claims(review)
    for claim in check.claims:
        if claim.id in decided:
            apply_claim(claim, review)


def decided_claims(review: Review) -> set[str]:
    """The claims the review file decides anything about."""
    return {d.claim for d in review.decisions.evidence.values()} | \
        set(review.decisions.claims) | {a.claim for a in review.decisions.answers.values()}


def apply_claim(claim: ClaimResult, review: Review) -> None:
    """Put the review's decisions on a claim: ``decision`` on each decided evidence item,
    ``support`` on the claim if decided, ``answers`` to the further questions (the rest
    stay null)."""
    from matcher.report import ReviewAnswer, ReviewDecision, SupportDecision

    state = review.claim_state(claim.id)
    if state is None:
        return
    for a in state.answers:  # the further questions (viewer.state.questions)
        if a.answer is not None:
            name = a.question.id if a.index is None else f"{a.question.id}#{a.index}"
            claim.answers[name] = reported(ReviewAnswer, a.answer, a.stale)
    if state.support is not None:
        claim.support = reported(SupportDecision, state.support, state.support_stale)
    for ev in claim.evidence:
        item = state.items[ev.index] if 0 <= ev.index < len(state.items) else None
        if item is not None and item.decision is not None:
            ev.decision = reported(ReviewDecision, item.decision, item.stale)


def reported(contract: type[M], entry: Entry, stale: str) -> M:
    """The contract's object for one of the review's records: each field the contract
    names read from the record's field of that name, and whether it still holds. The
    record is the one shape of a decision; the contract's model only checks it at the
    edge (so a field the two disagree on fails here, in the tests, not in a reader)."""
    said = {name: getattr(entry, name) for name in contract.model_fields if name != "stale"}
    return contract.model_validate({**said, "stale": bool(stale)})


class ClaimReviewer:
    """The review's decisions read against a check a claim at a time (``citeview check``
    and ``batch``, which never hold a file's claims all at once): each claim's records
    attached alone, the claim reconsidered and its decisions put on it, as :func:`attach`
    and :func:`apply` do for a whole report; what remains (``--fail-on``) and how much
    of the queue is decided are counted. ``cf`` gives the documents (its claims unused).
    Made only when a review file was read or ``fail_on`` given: else there is nothing to
    put or count (``citeview check`` then skips the review, and its imports, whole)."""

    def __init__(self, review: Review, cf: CitationsFile, citations_path: Path,
                 fail_on: Sequence[FailState]) -> None:
        from .citations import citations_record

        self.review = review
        self.citations = cf
        self._base = citations_record(cf.model_copy(update={"claims": []}), citations_path)
        self._hashes = document_hashes(cf, citations_path) if review.decisions.evidence \
            else {}
        self._decided = decided_claims(review)
        self._fail_on = list(fail_on)
        self.remaining: list[str] = []  # the first MAX_REMAINING lines of what remains
        self.remaining_count = 0
        self.decided = self.queued = 0  # over the queue
        self.supports: dict[str, int] = {}  # support decision → claims, first seen first

    def take(self, claim: Claim, result: ClaimResult) -> ClaimState | None:
        """Put the review on ``result`` (the check of ``claim``); its state as the review
        sees it."""
        from dataclasses import replace

        from ..state.records import Citations, Report

        one = replace(self._base, claims=Citations.from_json(
            {"claims": [claim.model_dump(mode="json")]}, {}).claims)
        review = self.review
        review.attach(one, Report.from_json({"claims": [result.model_dump(mode="json")]}),
                      self._hashes)
        if claim.id in self._decided and review.decisions.evidence \
                and reconsider_claim(result, review):
            review.attach(one, Report.from_json({"claims": [result.model_dump(mode="json")]}),
                          self._hashes)
        if claim.id in self._decided:
            apply_claim(result, review)
        said = review.remaining(self._fail_on) if self._fail_on else []
        self.remaining += said[:max(0, MAX_REMAINING - len(self.remaining))]
        self.remaining_count += len(said)
        state = review.claim_state(claim.id)
        if state is not None and state.in_queue:
            self.queued += 1
            self.decided += state.decided
        if state is not None and state.support_decided and state.support is not None:
            word = state.support.support
            self.supports[word] = self.supports.get(word, 0) + 1
        return state


# Lines of what remains (--fail-on) kept to be shown; the rest are counted.
MAX_REMAINING = 50


def decision_word(state: ClaimState | None, index: int) -> str:
    """The table's decision column for one item of a claim (``state`` as the review sees
    it): the placement, "stale", or nothing."""
    if state is None or not 0 <= index < len(state.items):
        return ""
    item = state.items[index]
    if item.decision is None:
        return ""
    return "stale" if item.stale else item.decision.placement.replace("_", " ")


def review_line(reviewer: ClaimReviewer, path: Path | None) -> str:
    """One line under the table: how much of the queue is decided, and where from."""
    said = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in reviewer.supports.items())
    where = f" ({path})" if path is not None else " (no review file)"
    return f"review{where}: {reviewer.decided} of {reviewer.queued} to review decided" + \
        (f"; support: {said}" if said else "")


def reviewed_report(report: CheckReport, cf: CitationsFile, citations_path: Path,
                    review: Review) -> dict[str, Any]:
    """The ``check --json`` document of ``report`` with the review's ``decision`` and
    ``support`` objects (``review`` as :func:`load_review` read it): what an export
    reads, so an export and ``check --review --json`` never disagree."""
    report = report.model_copy(deep=True)  # the one given may be a check kept for reuse
    attach(review, cf, citations_path, report)
    apply(report, review)
    return report.model_dump(mode="json")
