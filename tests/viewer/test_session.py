"""The Qt-free model: rows, stepping, highlights as a union, plain sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from matcher.report import ClaimResult
from viewer.state.records import Report
from viewer.state.review import Review
from viewer.state.session import Session

from .helpers import citations, evidence, report

CITATIONS = {
    "version": 1,
    "documents": [{"id": "policy", "path": "policy.pdf"}],
    "claims": [
        {"id": "a", "text": "Located claim", "evidence": [{"quote": "q1"}, {"quote": "q2"}]},
        {"id": "b", "text": "Not located", "evidence": [{"quote": "q3"}]},
        {"id": "c", "text": "Uncited", "evidence": []},
        {"id": "d", "text": "Review", "evidence": [{"quote": "q4"}]},
        {"id": "e", "text": "Rejected", "evidence": [{"quote": "q5"}]},
    ],
}


@pytest.fixture
def session(tmp_path: Path) -> Session:
    s = Session()
    s.open_citations(tmp_path / "x.cite", citations(CITATIONS, tmp_path / "x.cite"))
    return s


def full_report() -> Report:
    return report(
        ClaimResult(id="a", text="", evidence=[
            evidence("located", page=2, rects=[(10, 10, 50, 20), (10, 22, 40, 32)], index=0),
            evidence("located", page=3, rects=[(5, 5, 6, 6)], index=1)]),
        ClaimResult(id="b", text="", evidence=[evidence("not_located")]),
        ClaimResult(id="c", text="", evidence=[], uncited=True),
        ClaimResult(id="d", text="", evidence=[evidence("review", page=1, rects=[(1, 1, 2, 2)])]),
        ClaimResult(id="e", text="", evidence=[evidence("rejected")]),
    )


def test_rows_before_and_after_the_report(session: Session) -> None:
    assert [r.badges for r in session.rows()] == [
        ("pending", "pending"), ("pending",), ("uncited",), ("pending",), ("pending",)]
    session.set_report(full_report())
    assert [r.badges for r in session.rows()] == [
        ("located", "located"), ("not_located",), ("uncited",), ("review",), ("rejected",)]


def test_changes_are_announced(session: Session) -> None:
    heard: list[str] = []
    session.changed.connect(heard.append)
    session.set_report(full_report())
    session.select("b")
    assert heard == ["report", "selection"]


def test_step_wraps_and_flagged_stops_at_review_and_not_located(session: Session) -> None:
    session.set_report(full_report())
    assert session.step(1) == "a"
    session.select("e")
    assert session.step(1) == "a"
    assert session.step(-1) == "d"
    session.select("a")
    assert session.step(1, flagged_only=True) == "b"
    session.select("b")
    assert session.step(1, flagged_only=True) == "d"
    session.select("d")
    assert session.step(1, flagged_only=True) == "b"
    assert session.step(-1, flagged_only=True) == "b"


def test_highlights_are_the_union_of_a_claims_evidence(session: Session) -> None:
    """What the window draws comes from the review model (decisions applied; none here)."""
    session.set_report(full_report())
    review = Review()
    review.attach(session.citations, session.report, {})
    assert review.highlights("a", "policy") == {
        1: [(10, 10, 50, 20), (10, 22, 40, 32)], 2: [(5, 5, 6, 6)]}
    assert review.focus("a", "policy") == (1, [(10, 10, 50, 20), (10, 22, 40, 32)])
    assert review.highlights("b", "policy") == {}
    assert review.focus("b", "policy") is None
    assert review.highlights("a", "other") == {}


def test_plain_sentences(session: Session) -> None:
    session.set_report(full_report())
    [b] = session.evidence_views("b")
    assert b.notice == "Not found in policy.pdf — no highlight shown"
    a = session.evidence_views("a")
    assert a[0].notice == "Highlighted on page 2 of policy.pdf (2 lines)"
    review = session.evidence_views("d")[0]  # beside its badge, which says "needs review"
    assert review.status == "review" and review.notice.startswith("Highlighted on page ")
    assert "review" not in review.notice
    assert session.evidence_views("e")[0].notice == "Rejected — no highlight shown"
    assert session.evidence_views("c") == []


def test_unknown_claim_is_an_error(session: Session) -> None:
    with pytest.raises(KeyError):
        session.select("zzz")


def test_relocated_document_goes_into_the_check(session: Session, tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere" / "policy.pdf"
    session.relocate("policy", moved)
    assert session.moved_documents() == {"policy": str(moved)}
    assert session.citations is not None
    assert session.citations.documents[0].path == tmp_path / "policy.pdf"


def test_a_document_where_the_file_says_is_not_moved(session: Session, tmp_path: Path) -> None:
    session.relocate("policy", tmp_path / "policy.pdf")
    assert session.moved_documents() == {}


def test_plain_pdf(tmp_path: Path) -> None:
    s = Session()
    s.open_pdf(tmp_path / "a.pdf")
    assert s.is_plain_pdf and s.rows() == [] and s.shown_document == "pdf"
