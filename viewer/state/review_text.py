"""What the review panel says, in words, built from the review: no Qt here.

>>> difference_text(Difference("number", "952.18", "925.18"))
'952.18 ≠ 925.18'
>>> difference_text(Difference("negation", "not", None))
'“not” is not on the page'
>>> when("2026-12-01T13:00:05Z")
'2026-12-01 13:00 UTC'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from .presentation import (
    CLAIM_DIFFERS,
    DIFFERS,
    NOTHING_TO_REVIEW,
    PLACEMENT_WORDS,
    QUOTE_DIFFERS,
    SUPPORT_WORDS,
    UNDECIDED,
    consistency_sentence,
    difference_pair,
    status_word,
)
from .questions import Question
from .questions import extra as extra_questions
from .records import Difference
from .review import (
    Answer,
    AnswerKey,
    ClaimDecision,
    ClaimState,
    EvidenceDecision,
    EvidenceKey,
    ItemState,
    Placement,
    Review,
    Support,
    copies,
)
from .rows import badge

# What a note field says while there is nothing to note on.
NO_CLAIM = "Select a claim first: notes go with its decisions."
NO_ITEM = "This claim has no evidence item to note on."
PLACEMENT_FIRST = "Decide placement first; the note goes with it."
SUPPORT_FIRST = "Decide support first; the note goes with it."


def answer_first(q: Question) -> str:
    """What a further question's note field says while the question is unanswered."""
    return f"Answer {q.title.lower()} first; the note goes with it."


def answer_placeholder(q: Question) -> str:
    """What a further question's note field says while it is empty."""
    return f"Note on the {q.title.lower()} answer"


@dataclass(frozen=True)
class AnswerNote:
    """The note field of a further question's answer: the note (None: no answer to note
    on yet), why there is none yet, and the answer it goes with."""

    question: str
    note: str | None
    waiting: str
    key: AnswerKey | None = None


@dataclass(frozen=True)
class PanelText:
    """Everything the review panel shows for the selected claim."""

    progress: str  # "3 of 5 decided"
    location: str  # where the decisions are saved, or why they are not
    claim: str = ""  # "c8 · evidence 1 of 2 · needs review"
    flag: str = ""  # why the upstream system flagged the claim
    differences: str = ""  # "Differs from the page: 952.18 ≠ 925.18"
    placement: str = ""  # the current item's decision, or that there is none
    support: str = ""  # the claim's decision, or that there is none
    answers: str = ""  # the further questions' answers (:mod:`.questions`), or none
    hint: str = ""  # copies to choose from, or how to relocate
    evidence_note: str | None = None  # None: no decision to note on yet
    claim_note: str | None = None
    # Why there is no note to edit yet (shown in its field, which then takes no text).
    evidence_waiting: str = ""
    claim_waiting: str = ""
    evidence_key: EvidenceKey | None = None  # the decisions the notes belong to
    claim_key: str | None = None
    # One per further question (:mod:`.questions`), in the table's order.
    answer_notes: tuple[AnswerNote, ...] = ()
    placement_value: Placement | None = None  # for the checked button
    support_value: Support | None = None
    active: bool = False  # a claim is selected and can be decided


def difference_text(d: Difference) -> str:
    """One difference between the quote and the page, as the panel shows it."""
    return difference_pair(d.quote, d.page)


def when(at: str) -> str:
    """An ISO 8601 UTC time as a person reads it (left as it is if it is not one)."""
    if len(at) >= 16 and at[10] == "T":
        return f"{at[:10]} {at[11:16]} UTC" if at.endswith("Z") else f"{at[:10]} {at[11:16]}"
    return at


def decided_by(d: EvidenceDecision | ClaimDecision | Answer) -> str:
    who = f" by {d.reviewer}" if d.reviewer else ""
    return who + (f", {when(d.at)}" if d.at else "")


def placement_line(item: ItemState) -> str:
    d = item.decision
    if d is None:
        return f"Placement: {UNDECIDED}"
    said = f"Placement: {PLACEMENT_WORDS[d.placement]}"
    if d.placement == "confirmed" and item.outcome is not None and item.outcome.differences \
            and not item.stale:
        # Side by side, first (a narrow panel cuts the end of the line): the words are
        # the right ones, and the quote still differs.
        said += f" · {QUOTE_DIFFERS}"
    if d.placement in ("relocated", "confirmed") and d.page is not None and d.rects:
        lines = len(d.rects)
        said += f" (page {d.page}, {lines} line{'s' if lines != 1 else ''})"
    said += decided_by(d)
    return said + (f" — stale: {item.stale}; decide again" if item.stale else "")


def answers_line(state: ClaimState, current: int) -> str:
    """The further questions' answers for a claim and its item ``current``, in words."""
    parts = []
    for a in state.answers:
        if a.index is not None and a.index != min(current, len(state.items) - 1):
            continue
        said = UNDECIDED if a.answer is None else \
            f"{a.question.words.get(a.answer.value, a.answer.value)}{decided_by(a.answer)}"
        parts.append(f"{a.question.title}: {said}" + (" — stale" if a.stale else ""))
    return "   ·   ".join(parts)


def answer_notes(state: ClaimState | None, index: int | None) -> tuple[AnswerNote, ...]:
    """Each further question's note for ``state`` and its item ``index`` (None: no item,
    or no claim at all): the note of the answer given, else what must come first."""
    out = []
    for q in extra_questions():
        at = None if q.scope == "claim" else index
        said = state.answer(q.id, at) if state is not None else None
        a = said.answer if said is not None else None
        if a is not None:
            out.append(AnswerNote(q.id, a.note, "", a.key))
        else:
            waiting = NO_CLAIM if state is None else NO_ITEM if q.scope == "item" \
                and index is None else answer_first(q)
            out.append(AnswerNote(q.id, None, waiting))
    return tuple(out)


def progress_text(review: Review) -> str:
    decided, total = review.progress()
    if review.report is None:
        return f"Review: {status_word('pending')}"
    if total == 0 and not review.everything:
        return NOTHING_TO_REVIEW
    scope = "all claims" if review.everything else "to review"
    return f"{decided} of {total} {scope} decided"


def location_text(path: Path | None, where: str, why: str = "", *, saved: bool = True) -> str:
    """Where the decisions are saved, and why there when it is not beside the file; while
    they cannot be (``saved`` False: the panel's problem bar says why), that they are not."""
    if path is None:
        return "Decisions are not saved (no citations file is open)."
    if not saved:
        return f"Not saved (why above), kept in this window: {path}"
    if where == "data":
        return f"Saved in citeview's data folder ({why}): {path}"
    return f"Saved to {path}"


def panel_text(review: Review, claim_id: str | None, current: int, *, location: str,
               relocating: bool = False, selected: str = "") -> PanelText:
    """The panel's words for ``claim_id`` and its item ``current`` (0-based)."""
    progress = progress_text(review)
    state = review.claim_state(claim_id) if claim_id is not None else None
    if state is None:
        return PanelText(progress, location, claim="Select a claim to decide on it.",
                         evidence_waiting=NO_CLAIM, claim_waiting=NO_CLAIM,
                         answer_notes=answer_notes(None, None))
    flag = f"Flagged upstream: {state.claim.flag}" if state.claim.flag else ""
    result = review.report.claim(state.id) if state.differs and review.report else None
    if result is not None:  # why a claim whose evidence is fine is in the queue
        said = "; ".join(consistency_sentence(d.kind, d.claim, d.evidence)
                         for d in result.consistency.differences)
        flag = " · ".join(x for x in (flag, f"{CLAIM_DIFFERS.capitalize()}: {said}") if x)
    s = state.support
    support = f"Support: {UNDECIDED}" if s is None else \
        f"Support: {SUPPORT_WORDS[s.support]}{decided_by(s)}" + \
        (f" — stale: {state.support_stale}; decide again" if state.support_stale else "")
    base = PanelText(progress, location, flag=flag, support=support,
                     answers=answers_line(state, current),
                     claim_note=s.note if s is not None else None, active=True,
                     claim_waiting=SUPPORT_FIRST if s is None else "", claim_key=state.id,
                     evidence_waiting=NO_ITEM, answer_notes=answer_notes(state, None),
                     support_value=s.support if s is not None and not state.support_stale
                     else None)
    if not state.items:
        return replace(base, claim=f"{state.id} · no evidence: only its support can be "
                                   "decided")
    item = state.items[min(current, len(state.items) - 1)]
    # As its badge in the list says it ("document missing" rather than "not located").
    status = status_word(badge(item.outcome, review.unusable) if item.outcome is not None
                         else "pending")
    head = f"{state.id} · evidence {item.index + 1} of {len(state.items)} · {status}"
    diffs = item.outcome.differences if item.outcome is not None else ()
    found = copies(item.outcome) if item.outcome is not None else ()
    if relocating:
        hint = (f"Enter records the words selected, Esc cancels: “{' '.join(selected.split())}”"
                if selected else "Drag across the words meant on the page, then press "
                                 "Enter (Esc cancels).")
    elif found and not item.decided:
        hint = (f"The quoted words stand {len(found)} times on page {found[0].page}: press "
                f"1–{min(len(found), 9)} to choose the copy meant.")
    else:
        hint = ""
    d = item.decision
    return replace(
        base, claim=head,
        differences=f"{DIFFERS}: " + " · ".join(map(difference_text, diffs)) if diffs else "",
        placement=placement_line(item), hint=hint,
        evidence_note=d.note if d is not None else None,
        evidence_waiting=PLACEMENT_FIRST if d is None else "",
        evidence_key=(state.id, item.index), answer_notes=answer_notes(state, item.index),
        placement_value=d.placement if d is not None and not item.stale else None)
