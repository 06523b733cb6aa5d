"""How citeview says what it found, in words: one place for the CLI table, the status bar,
the detail pane (and the coming HTML report).

Statuses are :mod:`matcher.vocabulary`'s; this module only chooses the words a person
reads for them.

>>> status_word("review")
'needs review'
>>> evidence_sentence("located", page=3, lines=2, document="policy.pdf")
'Highlighted on page 3 of policy.pdf (2 lines)'
>>> summary_line(Summary(located=9, review=1, not_located=1, rejected=1, uncited=1))
'9 located · 1 needs review · 1 not located · 1 rejected · 1 uncited'
>>> claims_summary(["located", "located", "missing", "uncited"])
'4 claims: 2 located · 1 document missing · 1 uncited'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from matcher.vocabulary import PLACED, ClaimStatus, EvidenceStatus

from .records import Summary

# What a claim-list badge can say: a claim's status, "pending" while the check runs, or
# "missing" for an item not located because its document is missing (the check says
# not_located with that reason; the window tells the two apart, as they need different
# things done: find the file, or look for the words).
BadgeStatus = Literal[ClaimStatus, "pending", "missing"]

# What a badge says, per status. "needs review" rather than "review": it is an instruction.
STATUS_WORDS: dict[BadgeStatus, str] = {
    "located": "located",
    "review": "needs review",
    "not_located": "not located",
    "rejected": "rejected",
    "uncited": "uncited",
    "pending": "checking…",
    "missing": "document missing",
}
# What each badge means, for tooltips and Help ▸ What the Badges Mean.
STATUS_EXPLANATIONS: dict[BadgeStatus, str] = {
    "located": "Every quoted word stands on the page; the highlight covers them.",
    "review": "Placed, but a person should look: some words differ, the words stand in "
              "more than one place, or the page was not the one the citation named.",
    "not_located": "The quoted words are not in the document (or not enough of them): "
                   "no highlight is shown.",
    "rejected": "The citation itself is broken (an unknown document or chunk id, an "
                "empty quote, or a repair that would be a guess): no highlight is shown.",
    "uncited": "The claim gives no evidence at all, so there is nothing to check.",
    "pending": "The check has not reached this item yet.",
    "missing": "The document the citation names cannot be found: locate it (File ▸ "
               "Locate Document) and the quote is checked.",
}
# What the score is, for its tooltip and the help.
SCORE_EXPLANATION = ("The score (0–100) is the share of the quote's words found under the "
                     "highlight, each word weighted by how rare it is on the page; a word "
                     "changed, dropped or out of order costs. It says how well the text "
                     "matches, not whether it supports the claim: that is for you to judge.")

# Said of a claim that gives no evidence.
UNCITED_SENTENCE = ("This claim is uncited: it gives no evidence, so there is nothing to "
                    "highlight.")


def status_word(status: BadgeStatus) -> str:
    """The word a person reads for ``status`` ("needs review" for ``review``)."""
    return STATUS_WORDS[status]


def evidence_sentence(status: EvidenceStatus, *, page: int | None, lines: int,
                      document: str | None) -> str:
    """One plain sentence about an evidence item's highlight, or why there is none.

    ``page`` is 1-based, ``lines`` the number of rectangles (one per line), ``document``
    the file's name (None: "the document").
    """
    where = document or "the document"
    if status in PLACED and page is not None and lines:
        sentence = (f"Highlighted on page {page} of {where} "
                    f"({lines} line{'s' if lines != 1 else ''})")
        return sentence + " — needs review" if status == "review" else sentence
    if status == "rejected":
        return "Rejected — no highlight shown"
    return f"Not found in {where} — no highlight shown"


def explain(status: BadgeStatus) -> str:
    """What a badge means, in a sentence (its tooltip)."""
    return f"{status_word(status)}: {STATUS_EXPLANATIONS[status]}"


# Claims are counted in this order, worst first (as a badge summarises its claim).
SUMMARY_ORDER: tuple[BadgeStatus, ...] = ("located", "review", "not_located", "missing",
                                          "rejected", "pending", "uncited")


def claims_summary(statuses: Iterable[BadgeStatus], *, separator: str = " · ") -> str:
    """How many claims have each badge (a claim counts once, by its worst item's badge);
    statuses no claim has are left out, but for "located"."""
    counts = dict.fromkeys(SUMMARY_ORDER, 0)
    total = 0
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
        total += 1
    parts = [f"{n} {status_word(st)}" for st, n in counts.items()
             if n or st == "located"]
    return f"{total} claim{'s' if total != 1 else ''}: " + separator.join(parts)


def summary_line(summary: Summary, *, separator: str = " · ") -> str:
    """The whole check in one line: how many items have each status, uncited claims."""
    needs = "needs" if summary.review == 1 else "need"
    return separator.join((f"{summary.located} located", f"{summary.review} {needs} review",
                           f"{summary.not_located} not located",
                           f"{summary.rejected} rejected", f"{summary.uncited} uncited"))
