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
from ..state.review import FAIL_STATES, FailState, Review
from ..state.sidecar import SidecarError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from matcher.citations import CitationsFile
    from matcher.report import CheckReport

M = TypeVar("M", bound="BaseModel")  # a contract's model (matcher.report)


def parse_fail_on(text: str) -> list[FailState]:
    """``undecided,review`` as a list of states; ValueError naming one it does not know."""
    states: list[FailState] = []
    for word in (w.strip() for w in text.split(",")):
        state = next((s for s in FAIL_STATES if s == word), None)
        if state is None:
            raise ValueError(f"--fail-on takes any of {','.join(FAIL_STATES)}, not {word!r}")
        states.append(state)
    return states


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
    leaves it: a confirmed item's words (also one the matcher only placed for review),
    a relocated item's selected words, no longer a wrong place's or an absent quote's.
    Whether any claim's ``consistency`` changed."""
    from matcher.consistency import check_claim
    from matcher.report import ConsistencyResult

    from ..state.standing import standing

    decided = {d.claim for d in review.decisions.evidence.values()}
    changed = False
    for claim in check.claims:
        state = review.claim_state(claim.id) if claim.id in decided else None
        if state is None:
            continue
        words = standing(state)  # the one rule, the window's too
        texts, pages = list(words.texts), list(words.pages)
        now = ConsistencyResult.of(check_claim(claim.text, texts, pages=pages))
        if now != claim.consistency:
            claim.consistency = now
            changed = True
    if changed:
        check.summary.differs = sum(c.consistency.status == "differs" for c in check.claims)
    return changed


def apply(check: CheckReport, review: Review) -> None:
    """Put the review's decisions on the report: ``decision`` on each decided evidence
    item, ``support`` on each decided claim, ``answers`` to the further questions (the
    rest stay null)."""
    from matcher.report import ReviewAnswer, ReviewDecision, SupportDecision

    decided = {d.claim for d in review.decisions.evidence.values()} | \
        set(review.decisions.claims) | {a.claim for a in review.decisions.answers.values()}
    for claim in check.claims:
        state = review.claim_state(claim.id) if claim.id in decided else None
        if state is None:
            continue
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


def decision_word(review: Review, claim_id: str, index: int) -> str:
    """The table's decision column for one item: the placement, "stale", or nothing."""
    state = review.claim_state(claim_id)
    if state is None or not 0 <= index < len(state.items):
        return ""
    item = state.items[index]
    if item.decision is None:
        return ""
    return "stale" if item.stale else item.decision.placement.replace("_", " ")


def review_line(review: Review, path: Path | None) -> str:
    """One line under the table: how much of the queue is decided, and where from."""
    decided, total = review.progress()
    supports: dict[str, int] = {}
    for s in review.states():
        if s.support_decided and s.support is not None:
            supports[s.support.support] = supports.get(s.support.support, 0) + 1
    said = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in supports.items())
    where = f" ({path})" if path is not None else " (no review file)"
    return f"review{where}: {decided} of {total} to review decided" + \
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
