"""The one rule for the words a claim's evidence stands on once the review is read
(:mod:`viewer.state.standing`), and the session taking a claim's consistency read again:
told once, only when it changed, the summary's ``differs`` counted again. No Qt here."""

from __future__ import annotations

from viewer.state.records import Citations, Consistency, FactDifference, Report
from viewer.state.review import Review
from viewer.state.session import Change, Session
from viewer.state.standing import standing

from .test_detail_diff import demo  # noqa: F401 (the module's demo fixture)

AT = "2026-12-02T02:00:00Z"


def _review(citations: Citations, report: Report) -> Review:
    review = Review()
    review.attach(citations, report, {d.id: "0" * 64 for d in citations.documents})
    return review


def test_without_decisions_the_located_items_words_count(
        demo: tuple[Citations, Report]) -> None:  # noqa: F811
    citations, report = demo
    review = _review(citations, report)
    for claim in report.claims:
        state = review.claim_state(claim.id)
        assert state is not None
        located = [e for e in claim.evidence if e.status == "located"]
        assert standing(state).texts == tuple(e.found_text or e.quote for e in located)


def test_decisions_change_the_words_counted(demo: tuple[Citations, Report]  # noqa: F811
                                            ) -> None:
    citations, report = demo
    review = _review(citations, report)
    before = review.claim_state("c15")
    assert before is not None and len(standing(before).texts) == 1
    for placement, kw, want in (
            ("wrong_place", {}, ()), ("absent", {}, ()),
            ("relocated", {"page": 1, "rects": ((1.0, 2.0, 3.0, 4.0),), "text": "the words"},
             ("the words",)),
            ("confirmed", {}, standing(before).texts)):
        d = review.placement("c15", 0, placement, reviewer="jdoe", at=AT,  # type: ignore[arg-type]
                             **kw)  # type: ignore[arg-type]
        review.decisions.put_evidence(("c15", 0), d, by="jdoe", at=AT)
        state = review.claim_state("c15")
        assert state is not None and standing(state).texts == want, placement


def test_the_session_takes_a_claims_consistency_once(demo: tuple[Citations, Report]  # noqa: F811
                                                     ) -> None:
    citations, report = demo
    s = Session()
    s.citations, s.report = citations, report
    seen: list[Change] = []
    s.changed.connect(seen.append)
    assert report.summary.differs == 1
    assert not s.set_consistency("c15", report.claims[[c.id for c in report.claims]
                                                       .index("c15")].consistency)
    assert seen == []  # unchanged: nothing told
    assert s.set_consistency("c15", Consistency("unchecked"))
    assert seen == ["consistency"] and s.report is not None and s.report.summary.differs == 0
    other = s.claim_result("c16")
    assert other is not None and other.consistency.status == "consistent"
    changed = Consistency("differs", (FactDifference("number", "$925.18", "$33.24"),))
    assert s.set_consistency("c16", changed) and s.report.summary.differs == 1
    assert seen == ["consistency", "consistency"]
    assert not s.set_consistency("nope", changed)  # a claim the report does not hold
