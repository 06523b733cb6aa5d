"""What a review decision means for an evidence item: its *outcome* and what is drawn
where. The one rule book: the window's view, thumbnails, printing and links, ``check``,
and every export ask this module, so no view can draw what another omits. No Qt here.

An item's outcome is the check's status while no current decision stands, else the
decision: ``confirmed`` and ``wrong_place`` speak about words the check (or the decision)
placed; ``relocated`` needs the words selected; ``absent`` always holds. Only outcomes in
:data:`DRAWN` are highlighted: a wrong place or an absent quote is drawn nowhere.

>>> outcome("review", placed=True, placement="wrong_place", decided_place=False)
'wrong_place'
>>> outcome("not_located", placed=False, placement="confirmed", decided_place=False)
'not_located'
>>> outcome("review", placed=True, placement=None, decided_place=False)
'review'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from matcher.vocabulary import PLACED, STATUS_ORDER, EvidenceStatus, PlacementDecision, Rect

Outcome = Literal["located", "confirmed", "review", "wrong_place", "relocated", "absent",
                  "not_located", "rejected"]
# Outcomes highlighted on the page (in the view, the thumbnails, print and every export).
DRAWN: frozenset[Outcome] = frozenset({"located", "confirmed", "review", "relocated"})
# Outcomes a person agreed to: the view outlines them as decided.
AGREED: frozenset[Outcome] = frozenset({"confirmed", "relocated"})
# How an outcome is coloured: as itself, except that an outcome that reads as fine (green)
# is coloured "differs" when the quote differs from the page — a placement decision says
# the words are the right ones, never that they say what the quote says.
Shade = Literal["located", "confirmed", "review", "wrong_place", "relocated", "absent",
                "not_located", "rejected", "differs"]
FINE: frozenset[Outcome] = frozenset({"located", "confirmed"})
# What a thumbnail mark says for a drawn outcome (the check's status words).
MARK_STATUS: dict[Outcome, EvidenceStatus] = {
    "located": "located", "confirmed": "located", "relocated": "located", "review": "review"}


def outcome(status: EvidenceStatus | None, *, placed: bool,
            placement: PlacementDecision | None, decided_place: bool) -> Outcome | None:
    """An item's outcome: ``status`` (None: not checked yet) with ``placement`` (the
    current decision, None when there is none or it is stale) applied. ``placed``: the
    check put the words on a page; ``decided_place``: the decision names page and rects."""
    if placement is None:
        return status
    if placement == "relocated":
        return "relocated" if decided_place else status
    if placement == "absent":
        return "absent"
    if placed or decided_place:
        return placement
    return status


@dataclass(frozen=True)
class ItemRecord:
    """One evidence item as every view draws it: its outcome, where it stands (document,
    1-based page, rects, and copies on other pages), and the decision behind it."""

    claim: str
    index: int
    outcome: Outcome | None  # None before the check arrives
    document: str | None
    page: int | None  # 1-based; where it is drawn (or would be, for a wrong place)
    rects: tuple[Rect, ...]
    placement: PlacementDecision | None = None  # the decision, current or stale
    stale: bool = False
    copies: Mapping[int, tuple[Rect, ...]] = field(default_factory=dict)  # 0-based page
    differs: bool = False  # the quote differs from the page's words (the check's own)

    @property
    def drawn(self) -> bool:
        """Highlighted on its page."""
        return self.outcome in DRAWN and self.page is not None and bool(self.rects)

    @property
    def shade(self) -> Shade | None:
        """How it is coloured (:func:`shade`)."""
        return shade(self.outcome, differs=self.differs) if self.outcome else None


def shade(said: Outcome, *, differs: bool) -> Shade:
    """The colour an outcome is drawn in: never a fine one over a difference.

    >>> shade("confirmed", differs=True), shade("confirmed", differs=False)
    ('differs', 'confirmed')
    """
    return "differs" if differs and said in FINE else said


def record(claim: str, index: int, *, status: EvidenceStatus | None, document: str | None,
           page: int | None, rects: tuple[Rect, ...], placement: PlacementDecision | None,
           stale: bool = False, decided_document: str | None = None,
           decided_page: int | None = None, decided_rects: tuple[Rect, ...] = (),
           copies: Mapping[int, tuple[Rect, ...]] | None = None,
           differs: bool = False) -> ItemRecord:
    """The record of one item: the check's placement (``status``, ``document``, ``page``,
    ``rects``, ``copies`` on its other pages) and the decision (``placement``, stale or
    not, with the page and rects it names). A stale decision is shown, never applied."""
    current = None if stale else placement
    placed = status in PLACED and page is not None and bool(rects)
    decided_place = current is not None and decided_page is not None and bool(decided_rects)
    said = outcome(status, placed=placed, placement=current, decided_place=decided_place)
    if said in ("relocated", "confirmed") and decided_place:
        # The words decided on: the relocation, or the copy (or words) confirmed.
        # Relocated words are the reviewer's own: the check's differences are not theirs.
        return ItemRecord(claim, index, said, decided_document or document, decided_page,
                          decided_rects, placement, stale,
                          differs=differs and said == "confirmed")
    return ItemRecord(claim, index, said, document, page, rects, placement, stale,
                      dict(copies or {}) if said in DRAWN else {}, differs)


def page_rects(records: Iterable[ItemRecord], doc_id: str | None) -> dict[int, list[Rect]]:
    """The rectangles drawn on each 0-based page of ``doc_id`` (None: any document):
    every drawn item of ``records``, its copies on other pages included."""
    out: dict[int, list[Rect]] = {}
    for r in records:
        if not r.drawn or (doc_id is not None and r.document != doc_id):
            continue
        assert r.page is not None
        out.setdefault(r.page - 1, []).extend(r.rects)
        for page, rects in r.copies.items():
            out.setdefault(page, []).extend(rects)
    return out


def first_drawn(records: Iterable[ItemRecord], doc_id: str | None
                ) -> tuple[int, list[Rect]] | None:
    """The 0-based page and band of the first drawn item on ``doc_id``: where to scroll."""
    for r in records:
        if r.drawn and r.page is not None and (doc_id is None or r.document == doc_id):
            return r.page - 1, list(r.rects)
    return None


def page_marks(records: Iterable[ItemRecord], doc_id: str | None
               ) -> dict[int, EvidenceStatus]:
    """Each 0-based page of ``doc_id`` that holds a drawn item, with the worst status
    drawn there (what a thumbnail marks)."""
    out: dict[int, EvidenceStatus] = {}
    for r in records:
        if not r.drawn or r.outcome is None or (doc_id is not None and r.document != doc_id):
            continue
        assert r.page is not None
        status = MARK_STATUS[r.outcome]
        for page in (r.page - 1, *r.copies):
            known = out.get(page)
            if known is None or STATUS_ORDER.index(status) < STATUS_ORDER.index(known):
                out[page] = status
    return out
