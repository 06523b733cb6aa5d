"""Which claims the list shows: a filter by review state or status, and a search.

The filter keeps the claims still to decide, those that need a person at all (flagged),
those decided, or those with a given status; the search keeps claims whose id, text or
any quote holds every word typed (case and accents aside, in any order). No Qt here.

>>> matches_search("Hypertension, diagnosed 2014", "2014 hyper")
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal, get_args

from .presentation import UNDECIDED, status_word
from .records import Citations, ClaimEntry
from .review import ClaimState, Review
from .rows import ClaimRow

FilterKind = Literal["all", "undecided", "flagged", "decided", "located", "review",
                     "not_located", "rejected", "uncited"]
FILTER_KINDS: tuple[FilterKind, ...] = get_args(FilterKind)
# What the filter menu says for each choice.
# "To review" are the claims that need a person (the review panel's "to review"); a
# status is its badge's word.
FILTER_WORDS: dict[FilterKind, str] = {
    "all": "All claims", "undecided": UNDECIDED.capitalize(), "flagged": "To review",
    "decided": "Decided",
    **{k: status_word(k).capitalize()
       for k in ("located", "review", "not_located", "rejected", "uncited")}}


def fold(text: str) -> str:
    """Text as the search compares it: case and accents aside."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def matches_search(haystack: str, query: str) -> bool:
    """Whether every word of ``query`` stands in ``haystack`` (folded, any order)."""
    hay = fold(haystack)
    return all(word in hay for word in fold(query).split())


def claim_text(claim: ClaimEntry) -> str:
    """What the search looks in: the claim's id, text and quotes."""
    return "\n".join([claim.id, claim.text, *(e.quote for e in claim.evidence)])


def keeps(kind: FilterKind, row: ClaimRow, state: ClaimState | None) -> bool:
    """Whether filter ``kind`` keeps a claim (its row and review state)."""
    if kind == "all":
        return True
    if kind == "undecided":
        return state is not None and state.in_queue and not state.decided
    if kind == "flagged":
        return state is not None and state.flagged
    if kind == "decided":
        return state is not None and state.decided
    return kind in row.badges


def visible(rows: Iterable[ClaimRow], citations: Citations | None, review: Review,
            kind: FilterKind, query: str) -> set[str]:
    """The ids of the claims the list shows for this filter and search."""
    out = set()
    claims = {c.id: c for c in citations.claims} if citations is not None else {}
    for row in rows:
        claim = claims.get(row.id)
        if query.strip() and (claim is None or not matches_search(claim_text(claim), query)):
            continue
        if keeps(kind, row, review.claim_state(row.id)):
            out.add(row.id)
    return out
