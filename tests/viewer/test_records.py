"""The window's records read the ``check --json`` contract whole, and newer writers too."""

from __future__ import annotations

import pytest

from viewer.state.records import Alternative, Difference, Report

ITEM = {"index": 1, "status": "review", "reason": "twice on the page", "document": "policy",
        "chunk_id": "policy#2", "repaired_from": "policy#1", "char_span": [10, 40],
        "text_match": "fuzzy", "page": 3, "score": 88.5, "rects": [[1, 2, 3, 4]],
        "quote": "q", "found_text": "f", "document_path": "/x/policy.pdf", "other_pages": [5],
        "alternatives": [{"page": 3, "rects": [[5, 6, 7, 8]]}]}
SUMMARY = {"located": 0, "review": 1, "not_located": 0, "rejected": 0, "uncited": 0}


def test_every_field_of_the_contract_is_kept() -> None:
    report = Report.from_json({"summary": SUMMARY, "problems": ["document 'x': missing"],
                               "claims": [{"id": "c", "text": "t", "evidence": [ITEM]}]})
    [claim] = report.claims
    [ev] = claim.evidence
    assert (ev.index, ev.status, ev.chunk_id, ev.repaired_from, ev.char_span, ev.text_match,
            ev.page, ev.score, ev.rects, ev.other_pages, ev.document_path) == \
        (1, "review", "policy#2", "policy#1", (10, 40), "fuzzy", 3, 88.5,
         ((1.0, 2.0, 3.0, 4.0),), (5,), "/x/policy.pdf")
    assert ev.alternatives == (Alternative(3, ((5.0, 6.0, 7.0, 8.0),)),)
    assert claim.text == "t" and report.problems == ("document 'x': missing",)
    assert report.summary.review == 1


def test_fields_a_newer_writer_adds_are_accepted() -> None:
    newer = {**ITEM, "verdict": [{"kind": "figure"}], "decision": None, "score_v2": "yes"}
    report = Report.from_json({"summary": {**SUMMARY, "decided": 1}, "generator": "v2",
                               "claims": [{"id": "c", "evidence": [newer], "notes": "n"}]})
    assert report.claims[0].evidence[0] == Report.from_json(
        {"summary": SUMMARY, "claims": [{"id": "c", "evidence": [ITEM]}]}).claims[0].evidence[0]


def test_differences_and_the_word_diff_are_kept() -> None:
    item = {**ITEM, "differences": [{"kind": "number", "quote": "$952.18", "page": "$925.18"},
                                    {"kind": "negation", "quote": None, "page": "not"}],
            "word_diff": {"quote": [{"text": "$952.18", "op": "differs",
                                     "against": "$925.18", "kind": "number"}],
                          "found": [{"text": "$925.18", "op": "differs", "line": 0},
                                    {"text": "yearly", "op": "dropped", "line": 0}]}}
    [claim] = Report.from_json({"summary": SUMMARY,
                                "claims": [{"id": "c", "evidence": [item]}]}).claims
    [ev] = claim.evidence
    assert ev.differences == (Difference("number", "$952.18", "$925.18"),
                              Difference("negation", None, "not"))
    assert ev.word_diff is not None
    assert [(t.text, t.op, t.against) for t in ev.word_diff.quote] == \
        [("$952.18", "differs", "$925.18")]
    assert [(t.text, t.op, t.line) for t in ev.word_diff.found] == \
        [("$925.18", "differs", 0), ("yearly", "dropped", 0)]


def test_a_status_outside_the_vocabulary_is_named() -> None:
    with pytest.raises(ValueError, match="'maybe'"):
        Report.from_json({"summary": SUMMARY,
                          "claims": [{"id": "c", "evidence": [{**ITEM, "status": "maybe"}]}]})


def test_differences_are_read_and_their_absence_tolerated() -> None:
    said = [{"kind": "number", "quote": "952.18", "page": "925.18"},
            {"kind": "negation", "quote": "not", "page": None},
            {"kind": "tense", "quote": "was"}]  # a kind this reader does not know yet
    [ev] = Report.from_json({"summary": SUMMARY, "claims": [
        {"id": "c", "evidence": [{**ITEM, "differences": said}]}]}).claims[0].evidence
    assert ev.differences == (Difference("number", "952.18", "925.18"),
                              Difference("negation", "not", None),
                              Difference("tense", "was", None))
    for absent in ({}, {"differences": None}, {"differences": []}):
        [ev] = Report.from_json({"summary": SUMMARY, "claims": [
            {"id": "c", "evidence": [{**ITEM, **absent}]}]}).claims[0].evidence
        assert ev.differences == ()


def test_every_decision_has_its_words() -> None:
    from matcher.vocabulary import PLACEMENT_DECISIONS, SUPPORT_DECISIONS
    from viewer.state.presentation import PLACEMENT_WORDS, SUPPORT_WORDS

    assert tuple(PLACEMENT_WORDS) == PLACEMENT_DECISIONS
    assert tuple(SUPPORT_WORDS) == SUPPORT_DECISIONS
