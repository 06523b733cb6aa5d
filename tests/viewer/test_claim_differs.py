"""A claim that misstates its located evidence, in the window's parts: the claims list
badges it and "next flagged" stops at it, the status summary counts it, the detail pane
names the figures, and it joins the review queue until its support is decided."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from viewer.state.presentation import STATUS_WORDS, claims_summary
from viewer.state.records import Citations, Report
from viewer.state.review import Review
from viewer.state.rows import FLAGGED_BADGES, claim_rows
from viewer.widgets.detail import DIFF_STYLES

from .test_detail_diff import demo, pane_for  # noqa: F401 (the module's demo fixture)

SAID = "The claim says $952.18; its evidence says $925.18"


def test_the_claims_list_badges_it_and_the_summary_counts_it(
        demo: tuple[Citations, Report]) -> None:  # noqa: F811
    citations, report = demo
    rows = {r.id: r for r in claim_rows(citations, report)}
    assert rows["c15"].badges == ("located", "differs")  # its evidence stays located
    assert rows["c15"].status == "differs" and "differs" in FLAGGED_BADGES
    assert rows["c16"].badges == ("located",)  # "twelve months" is the table's 12 months
    assert all("differs" not in r.badges for k, r in rows.items() if k != "c15")
    summary = claims_summary(r.status for r in rows.values())
    assert f"1 {STATUS_WORDS['differs']}" in summary
    assert report.summary.differs == 1


def test_the_detail_pane_names_the_figures(qtbot: QtBot,
                                           demo: tuple[Citations, Report]) -> None:  # noqa: F811
    pane = pane_for(qtbot, demo, "c15")
    assert SAID in pane.toPlainText() and STATUS_WORDS["differs"] in pane.toPlainText()
    assert f'<span style="{DIFF_STYLES["changed"]}">{SAID}</span>' in pane.html()
    assert "The claim says" not in pane_for(qtbot, demo, "c16").toPlainText()


def test_it_joins_the_review_queue_until_its_support_is_decided(
        demo: tuple[Citations, Report]) -> None:  # noqa: F811
    citations, report = demo
    review = Review()
    review.attach(citations, report, {})
    assert "c15" in review.queue() and "c16" not in review.queue()
    state = review.claim_state("c15")
    assert state is not None and state.differs and not any(i.needs for i in state.items)
    assert review.remaining(["differs"]) == ["claim 'c15': its figures differ from its evidence"]
    decision = review.support("c15", "supported", reviewer="jdoe", at="2026-12-02T01:00:00Z")
    review.decisions.put_claim("c15", decision, by="jdoe", at="2026-12-02T01:00:00Z")
    after = review.claim_state("c15")
    assert after is not None and after.decided  # the reviewer's call, recorded as such
    assert "claim 'c15': undecided" not in review.remaining(["undecided"])


def test_the_review_panel_says_why_the_claim_is_queued(demo: tuple[Citations, Report]  # noqa: F811
                                                       ) -> None:
    from viewer.state.review_text import panel_text

    citations, report = demo
    review = Review()
    review.attach(citations, report, {})
    assert panel_text(review, "c15", 0, location="").flag == f"Claim differs: {SAID}"
    assert panel_text(review, "c16", 0, location="").flag == ""
