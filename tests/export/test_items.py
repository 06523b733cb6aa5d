"""What an export shows of an item: the matcher's status until a current decision says
otherwise; a stale decision is shown but never applied."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from matcher.diff import Difference, describe, diff_quote
from matcher.report import ReviewAnswer, ReviewDecision, SupportDecision, word_diff_json
from matcher.vocabulary import PLACEMENT_DECISIONS, SUPPORT_DECISIONS, PlacementDecision, Rect
from matcher.vocabulary import SupportDecision as SupportValue
from viewer.checker.review import reported
from viewer.export.items import read_review
from viewer.state.decisions import Answer, ClaimDecision, EvidenceDecision
from viewer.state.presentation import diff_marks, difference_sentence
from viewer.state.records import Citations, ClaimEntry, EvidenceEntry, WordDiff

RECTS = [[72.0, 100.0, 300.0, 112.0]]
MOVED = [[72.0, 400.0, 200.0, 412.0]]


def one(status: str, decision: dict[str, Any] | None) -> Any:
    placed = status in ("located", "review")
    report = {"summary": {}, "claims": [{"id": "c1", "text": "t", "evidence": [{
        "index": 0, "status": status, "reason": "", "document": "d", "quote": "q",
        "page": 2 if placed else None, "rects": RECTS if placed else [],
        "decision": decision}]}]}
    citations = Citations((), (ClaimEntry("c1", "t", (EvidenceEntry("q", 5, None),)),), {})
    [item] = read_review(report, citations).items()
    return item


@pytest.mark.parametrize(("status", "decision", "outcome", "page", "rects"), [
    ("located", None, "located", 2, RECTS),
    ("review", None, "review", 2, RECTS),
    ("review", {"placement": "confirmed"}, "confirmed", 2, RECTS),
    ("located", {"placement": "confirmed", "page": 2, "rects": RECTS}, "confirmed", 2, RECTS),
    ("review", {"placement": "wrong_place"}, "wrong_place", 2, RECTS),
    ("review", {"placement": "relocated", "page": 3, "rects": MOVED}, "relocated", 3, MOVED),
    ("not_located", {"placement": "relocated", "page": 3, "rects": MOVED}, "relocated", 3,
     MOVED),
    ("located", {"placement": "absent"}, "absent", 2, RECTS),
    ("not_located", {"placement": "confirmed"}, "not_located", None, []),
    ("review", {"placement": "relocated", "page": 3, "rects": MOVED, "stale": True},
     "review", 2, RECTS),
    ("located", {"placement": "sideways"}, "located", 2, RECTS),  # not the contract's
])
def test_outcome_page_and_rects(status: str, decision: dict[str, Any] | None, outcome: str,
                                page: int | None, rects: list[list[float]]) -> None:
    item = one(status, decision)
    assert (item.outcome, item.page, [list(r) for r in item.rects]) == (outcome, page, rects)
    # Drawn as in the window: a wrong place (or an absent quote) is drawn nowhere.
    assert item.marked == (outcome in ("located", "review", "confirmed", "relocated"))
    assert item.hint_pages == (5,)


said = st.text(st.characters(codec="utf-8"), max_size=12)
rects = st.lists(st.tuples(*[st.floats(-1e4, 1e4, allow_nan=False)] * 4), max_size=3)


@given(st.sampled_from(PLACEMENT_DECISIONS), st.none() | st.integers(1, 900), rects, said,
       said, said, st.none() | said, st.booleans())
def test_an_export_reads_the_decision_the_review_holds(
        placement: PlacementDecision, page: int | None, boxes: list[Rect], note: str,
        reviewer: str, at: str, text: str | None, stale: bool) -> None:
    # One shape: the review's record, put in check --json by its contract's model and
    # read back by an export, is the record again (less what check --json leaves out:
    # the fingerprints it was made against).
    made = EvidenceDecision("c1", 0, placement, page=page, rects=tuple(boxes),
                            note=note, reviewer=reviewer, at=at, text=text)
    item = one("review", reported(ReviewDecision, made, "moved" if stale else "")
               .model_dump(mode="json"))
    assert (item.decision, bool(item.stale)) == (made, stale)


@given(st.sampled_from(SUPPORT_DECISIONS), said, said, said, st.booleans())
def test_an_export_reads_the_support_the_review_holds(
        support: SupportValue, note: str, reviewer: str, at: str, stale: bool) -> None:
    made = ClaimDecision("c1", support, note=note, reviewer=reviewer, at=at)
    report = {"summary": {}, "claims": [{
        "id": "c1", "text": "t", "evidence": [],
        "support": reported(SupportDecision, made, "x" if stale else "").model_dump()}]}
    citations = Citations((), (ClaimEntry("c1", "t", ()),), {})
    [claim] = read_review(report, citations).claims
    assert (claim.support, bool(claim.support_stale)) == (made, stale)


@pytest.mark.parametrize(("contract", "record"), [
    (ReviewDecision, EvidenceDecision), (SupportDecision, ClaimDecision),
    (ReviewAnswer, Answer)])
def test_the_contract_names_only_what_the_record_holds(contract: Any, record: type[Any]
                                                      ) -> None:
    # check --json's objects are read off the review's records field by field: a field
    # the contract adds must be added to the record (or be ``stale``, said beside it).
    held = {f.name for f in dataclasses.fields(record)}
    assert set(contract.model_fields) - {"stale"} <= held


words = st.lists(st.sampled_from("the policy $952.18 $925.18 not covers loss".split()),
                 min_size=1, max_size=8)


def marks(quote: str, found: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """What the report shows of a quote against found text: the matcher's word diff, read
    back from its ``check --json`` form as the window and the exports read it."""
    record = WordDiff.from_json(word_diff_json(diff_quote(quote, found)) or {})
    return diff_marks(record, quote, found)


# No negation (one out of the quoted order is a difference by design), and figures with no
# digit group in common: two figures sharing one ("$952.18", "$925.18") and printed the
# other way round are, today, taken for a changed figure (a needless review, never a
# wrong located).
plain_words = st.lists(st.sampled_from("the policy $952.18 $31.07 covers loss".split()),
                       min_size=1, max_size=8)


@given(plain_words)
def test_the_same_words_in_any_order_are_the_same(ws: list[str]) -> None:
    # Reversed, three words or so may be two words exchanged, all else in place ("loss
    # the policy" for "policy the loss"): that is a change (tests/test_diff.py).
    off = [k for k, (a, b) in enumerate(zip(ws, reversed(ws), strict=True)) if a != b]
    assume(not (len(off) == 2 and off[1] - off[0] >= 2))
    q, f = marks(" ".join(ws), " ".join(reversed(ws)))
    assert [w for w, _ in q] == ws and all(m == "same" for _, m in q)
    assert all(m == "same" for _, m in f)


@given(words, st.sampled_from(["$999.99", "never"]))
def test_a_word_the_page_lacks_is_changed(ws: list[str], extra: str) -> None:
    q, f = marks(" ".join([*ws, extra]), " ".join(ws))
    assert q[-1] == (extra, "changed") and all(m == "same" for _, m in q[:-1])
    assert all(m == "same" for _, m in f)


def test_an_item_with_no_word_diff_is_shown_unmarked() -> None:
    assert diff_marks(None, "a b", None) == ([("a", "same"), ("b", "same")], [])


@pytest.mark.parametrize("difference", [
    Difference("number", "$952.18", "$925.18"), Difference("negation", "not", None),
    Difference("negation", None, "not"), Difference("word", "shorter", "longer")])
def test_a_difference_reads_as_the_matcher_says_it(difference: Difference) -> None:
    assert difference_sentence(difference.kind, difference.quote, difference.page) \
        == describe([difference])
