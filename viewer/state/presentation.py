"""How citeview says what it found, in words: one place for the CLI table, the status bar,
the detail pane and the exports (the HTML report, the annotated PDF's notes, the CSV).

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

import difflib
import unicodedata
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


# -- review decisions, differences and what an exported item shows ----------------------
# A reviewer's placement decision on an evidence item, and its support decision on a claim
# (the review sidecar's values), in the words a reader of an export sees.
PLACEMENT_WORDS: dict[str, str] = {
    "confirmed": "confirmed",
    "wrong_place": "wrong place",
    "relocated": "relocated",
    "absent": "absent",
}
SUPPORT_WORDS: dict[str, str] = {
    "supported": "supported",
    "partly": "partly supported",
    "not_supported": "not supported",
    "uncitable": "uncitable",
}
# What became of an item once the review is taken into account: the matcher's status
# while no (current) decision stands, else the decision. Exports colour highlights by it.
OUTCOME_WORDS: dict[str, str] = {
    "located": "located, not yet reviewed",
    "confirmed": "confirmed by the reviewer",
    "review": "needs review",
    "wrong_place": "wrong place, says the reviewer",
    "relocated": "relocated by the reviewer",
    "absent": "not in the document, says the reviewer",
    "not_located": "not located",
    "rejected": "rejected",
}
UNDECIDED = "undecided"
STALE_NOTE = "stale: the quote or the document changed since it was decided; not applied"


def placement_word(placement: str | None) -> str:
    """The word for a placement decision (``None``: undecided).

    >>> placement_word("wrong_place"), placement_word(None)
    ('wrong place', 'undecided')
    """
    return UNDECIDED if placement is None else PLACEMENT_WORDS.get(placement, placement)


def support_word(support: str | None) -> str:
    """The words for a claim's support decision (``None``: undecided)."""
    return UNDECIDED if support is None else SUPPORT_WORDS.get(support, support)


def decision_sentence(word: str, *, reviewer: str | None, at: str | None, note: str = "",
                      stale: bool = False) -> str:
    """One line about a decision: what, who, when, the note; flagged when stale.

    >>> decision_sentence("confirmed", reviewer="jdoe", at="2026-12-01T13:00:00Z", note="ok")
    'confirmed by jdoe, 2026-12-01 13:00 UTC — ok'
    """
    who = f" by {reviewer}" if reviewer else ""
    when = f", {timestamp_words(at)}" if at else ""
    text = f"{word}{who}{when}" + (f" — {note}" if note else "")
    return f"{text} ({STALE_NOTE})" if stale else text


def timestamp_words(at: str) -> str:
    """An ISO 8601 UTC time as a person reads it (``2026-12-01 13:00 UTC``); other text
    as it is."""
    if len(at) >= 16 and at[10] == "T" and at.endswith("Z"):
        return f"{at[:10]} {at[11:16]} UTC"
    return at


def difference_sentence(kind: str, quote: str, page: str | None) -> str:
    """What one difference between the quote and the page is, in words.

    >>> difference_sentence("number", "952.18", "925.18")
    'the quote says 952.18; the page says 925.18'
    >>> difference_sentence("negation", "not", None)
    'the quote says "not"; the page does not'
    """
    said = quote if kind == "number" else f'"{quote}"'
    if page is None:
        return f"the quote says {said}; the page does not"
    shown = page if kind == "number" else f'"{page}"'
    return f"the quote says {said}; the page says {shown}"


# How a word of the quote or of the found text compares with the other: the same word,
# a quote word the page lacks (or the page word standing against it), or a page word
# the quote dropped (shown dimmed).
DiffMark = Literal["same", "changed", "dropped"]
_FOLD = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-",
                       "‐": "-", "−": "-"})
_EDGE_PUNCTUATION = "\"'.,;:!?()[]{}«»"


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).translate(_FOLD).casefold() \
        .strip(_EDGE_PUNCTUATION)


def quote_diff(quote: str, found: str) -> tuple[list[tuple[str, DiffMark]],
                                                 list[tuple[str, DiffMark]]]:
    """Word-level comparison of a quote with the text found under its highlight.

    Returns each quote word and each found word with its mark. A quote word that stands
    anywhere in the found text is the same (quotes may reorder words, as forms print
    values above their labels); one that does not is changed, and so is the page word
    aligned against it; found words the quote left out are dropped.

    >>> q, f = quote_diff("premium of $952.18 a year", "premium of $925.18 per year")
    >>> [w for w, m in q if m == "changed"], [w for w, m in f if m != "same"]
    (['$952.18', 'a'], ['$925.18', 'per'])
    """
    qw, fw = quote.split(), found.split()
    qf, ff = [_fold(w) for w in qw], [_fold(w) for w in fw]
    qmarks: list[DiffMark] = ["changed"] * len(qw)
    fmarks: list[DiffMark] = ["dropped"] * len(fw)
    ops = difflib.SequenceMatcher(None, qf, ff, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            qmarks[i1:i2] = ["same"] * (i2 - i1)
            fmarks[j1:j2] = ["same"] * (j2 - j1)
    # Reordered words: a quote word still unmatched that some unmatched page word equals.
    spare: dict[str, list[int]] = {}
    for j, m in enumerate(fmarks):
        if m != "same":
            spare.setdefault(ff[j], []).append(j)
    for i, m in enumerate(qmarks):
        if m == "changed" and spare.get(qf[i]):
            qmarks[i] = fmarks[spare[qf[i]].pop(0)] = "same"
    for tag, i1, i2, j1, j2 in ops:
        if tag == "replace" and any(m == "changed" for m in qmarks[i1:i2]):
            for j in range(j1, j2):
                if fmarks[j] == "dropped":
                    fmarks[j] = "changed"
    return list(zip(qw, qmarks, strict=True)), list(zip(fw, fmarks, strict=True))


def decision_counts_line(counts: dict[str, int], words: dict[str, str], *,
                         separator: str = " · ") -> str:
    """Counts of decisions in one line, in ``words``' order, then the undecided ones
    (and the stale among them).

    >>> decision_counts_line({"confirmed": 3, "absent": 0, "undecided": 2, "stale": 1},
    ...                      PLACEMENT_WORDS)
    '3 confirmed · 0 absent · 2 undecided (1 stale)'
    """
    parts = [f"{counts[k]} {w}" for k, w in words.items() if k in counts]
    undecided = f"{counts.get('undecided', 0)} {UNDECIDED}"
    if counts.get("stale"):
        undecided += f" ({counts['stale']} stale)"
    return separator.join([*parts, undecided])
