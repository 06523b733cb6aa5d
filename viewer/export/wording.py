"""What an exported item says about itself, line by line: the annotated PDF's note text
and the facts the HTML report lists. The words are :mod:`viewer.state.presentation`'s;
this module only puts them in order for one item."""

from __future__ import annotations

from ..state.presentation import (
    OUTCOME_WORDS,
    consistency_sentence,
    decision_sentence,
    difference_sentence,
    placement_word,
    support_word,
)
from .items import ClaimReview, Decision, Item, Support

AUTHOR = "citeview"  # who wrote an annotation no reviewer decided


def outcome_words(item: Item) -> str:
    """The item's outcome in words, with its score when it has one."""
    score = item.evidence.score
    words = OUTCOME_WORDS[item.outcome]
    return f"{words} (score {score:.0f})" if score is not None else words


def placement_line(decision: Decision | None) -> str:
    if decision is None:
        return placement_word(None)
    return decision_sentence(placement_word(decision.placement), reviewer=decision.reviewer,
                             at=decision.at, note=decision.note, stale=decision.stale)


def support_line(support: Support | None) -> str:
    if support is None:
        return support_word(None)
    return decision_sentence(support_word(support.support), reviewer=support.reviewer,
                             at=support.at, note=support.note, stale=support.stale)


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
             f"Support: {support_line(claim.support)}",
             *([f"Claim differs: {said}"] if (said := consistency_line(claim)) else []),
             f"Evidence {item.evidence.index + 1}: {outcome_words(item)}",
             f"Quote: “{item.evidence.quote}”"]
    if item.evidence.found_text and item.outcome != "relocated":
        lines.append(f"Found: “{item.evidence.found_text}”")
    diff = differences_line(item)
    if diff:
        lines.append(f"Differences: {diff}")
    lines.append(f"Placement: {placement_line(item.decision)}")
    if item.evidence.reason:
        lines.append(f"Reason: {item.evidence.reason}")
    return "\n".join(lines)
