"""What an exported item says about itself, line by line: the annotated PDF's note text
and the facts the HTML report lists. The words are :mod:`viewer.state.presentation`'s;
this module only puts them in order for one item."""

from __future__ import annotations

from ..state.presentation import (
    UNDECIDED,
    consistency_sentence,
    decision_sentence,
    difference_pair,
    difference_sentence,
    outcome_sentence,
    placement_word,
    support_word,
)
from ..state.questions import Question
from ..state.questions import extra as extra_questions
from ..state.review import AnswerState
from .items import ClaimReview, Item

AUTHOR = "citeview"  # who wrote an annotation no reviewer decided


def outcome_words(item: Item) -> str:
    """The item's outcome in words — beside the quote's own differences, so a decision
    never hides them — with its score when it has one."""
    score = item.evidence.score
    words = outcome_sentence(item.outcome, differences(item))
    return f"{words} (score {score:.0f})" if score is not None else words


def differences(item: Item) -> list[str]:
    """The item's differences as a reader scans them (``952.18 ≠ 925.18``)."""
    return [difference_pair(d.quote, d.page) for d in item.differences]


def placement_line(item: Item) -> str:
    """The item's placement decision, who made it and when (``undecided`` without one)."""
    d = item.decision
    if d is None:
        return placement_word(None)
    return decision_sentence(placement_word(d.placement), reviewer=d.reviewer, at=d.at,
                             note=d.note, stale=bool(item.stale))


def support_line(claim: ClaimReview) -> str:
    """The claim's support decision, who made it and when (``undecided`` without one)."""
    s = claim.support
    if s is None:
        return support_word(None)
    return decision_sentence(support_word(s.support), reviewer=s.reviewer, at=s.at,
                             note=s.note, stale=bool(claim.support_stale))


def answer_line(q: Question, said: AnswerState | None) -> str:
    """A further question's answer, who gave it and when (``undecided`` without one)."""
    a = said.answer if said is not None else None
    if said is None or a is None:
        return UNDECIDED
    return decision_sentence(q.words.get(a.value, a.value), reviewer=a.reviewer, at=a.at,
                             note=a.note, stale=bool(said.stale))


def differences_line(item: Item) -> str:
    """Every difference the matcher named, in words ("" when there is none)."""
    return "; ".join(difference_sentence(d.kind, d.quote, d.page) for d in item.differences)


def consistency_line(claim: ClaimReview) -> str:
    """What the claim says that its evidence does not, in words ("" when nothing)."""
    return "; ".join(consistency_sentence(d.kind, d.claim, d.evidence)
                     for d in claim.consistency.differences)


def author(item: Item) -> str:
    d = item.current
    return d.reviewer if d is not None and d.reviewer else AUTHOR


def note_text(item: Item, claim: ClaimReview) -> str:
    """The text of the item's annotation: claim, support, quote, status, differences,
    placement decision and reason, one per line."""
    lines = [f"Claim {claim.id}: {claim.text}" if claim.text else f"Claim {claim.id}",
             f"Support: {support_line(claim)}",
             *([f"Claim differs: {said}"] if (said := consistency_line(claim)) else []),
             *(f"{q.title}: {answer_line(q, claim.answer(q.id))}"
               for q in extra_questions() if q.scope == "claim"),
             f"Evidence {item.evidence.index + 1}: {outcome_words(item)}",
             f"Quote: “{item.evidence.quote}”"]
    if item.evidence.found_text and item.outcome != "relocated":
        lines.append(f"Found: “{item.evidence.found_text}”")
    diff = differences_line(item)
    if diff:
        lines.append(f"Differences: {diff}")
    lines.append(f"Placement: {placement_line(item)}")
    lines += [f"{q.title}: {answer_line(q, claim.answer(q.id, item.evidence.index))}"
              for q in extra_questions() if q.scope == "item"]
    if item.evidence.reason:
        lines.append(f"Reason: {item.evidence.reason}")
    return "\n".join(lines)
