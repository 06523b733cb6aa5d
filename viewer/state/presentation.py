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
"""

from __future__ import annotations

from typing import Literal

from matcher.vocabulary import PLACED, ClaimStatus, EvidenceStatus

from .records import Summary

# What a claim-list badge can say: a claim's status, or "pending" while the check runs.
BadgeStatus = Literal[ClaimStatus, "pending"]

# What a badge says, per status. "needs review" rather than "review": it is an instruction.
STATUS_WORDS: dict[BadgeStatus, str] = {
    "located": "located",
    "review": "needs review",
    "not_located": "not located",
    "rejected": "rejected",
    "uncited": "uncited",
    "pending": "checking…",
}
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


def summary_line(summary: Summary, *, separator: str = " · ") -> str:
    """The whole check in one line: how many items have each status, uncited claims."""
    needs = "needs" if summary.review == 1 else "need"
    return separator.join((f"{summary.located} located", f"{summary.review} {needs} review",
                           f"{summary.not_located} not located",
                           f"{summary.rejected} rejected", f"{summary.uncited} uncited"))
