"""The words a claim's evidence stands on once the review is read: what its consistency
(its figures, dates and negations against its evidence) is worked out from. No Qt here.

The one rule, for ``citeview check --review``, the exports and the window alike: an item
the check located counts while no current decision says otherwise; a confirmed item
counts with the words it confirmed (also one the check only placed for review); a
relocated item counts with the words the reviewer selected; a wrong place or an absent
quote no longer counts. With no decisions this is the check's own rule (located items).
"""

from __future__ import annotations

from dataclasses import dataclass

from .review import ClaimState


@dataclass(frozen=True, slots=True)
class Standing:
    """The texts a claim's counted evidence items stand on, and their 1-based pages."""

    texts: tuple[str, ...]
    pages: tuple[int, ...]


def standing(state: ClaimState) -> Standing:
    """The words ``state``'s evidence stands on, by the rule above."""
    texts: list[str] = []
    pages: list[int] = []
    for item in state.items:
        ev = item.outcome
        d = item.decision if item.decided else None
        quote = state.claim.evidence[item.index].quote
        found = (ev.found_text or ev.quote or quote) if ev is not None else quote
        if d is None:
            if ev is not None and ev.status == "located":
                texts.append(found)
                pages += [ev.page] if ev.page else []
        elif d.placement == "confirmed":
            texts.append(d.text or found)  # the words it confirmed
            pages += [p for p in (d.page, ev.page if ev is not None else None) if p]
        elif d.placement == "relocated":
            texts.append(d.text or quote)  # the words the reviewer selected
            pages += [d.page] if d.page else []
    return Standing(tuple(texts), tuple(pages))
