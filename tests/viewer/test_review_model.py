"""The Qt-free review: what needs a person, what is decided, stale decisions, what the page
shows once decisions apply, what ``--fail-on`` finds left, and the history of changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from matcher.report import Alternative as ReportAlternative
from matcher.report import ClaimResult
from viewer.state.records import Citations, Difference, Report
from viewer.state.review import Decisions, HistoryEntry, Refused, Review, copies, sha256_text
from viewer.state.review_text import panel_text

from .helpers import citations, evidence, report

H1, H2 = "1" * 64, "2" * 64  # two documents' hashes
CITATIONS = {
    "version": 1,
    "documents": [{"id": "policy", "path": "policy.pdf"}],
    "claims": [
        {"id": "ok", "text": "Located", "evidence": [{"quote": "q-ok"}]},
        {"id": "rev", "text": "Review", "evidence": [{"quote": "q-rev"}, {"quote": "q-fine"}]},
        {"id": "gone", "text": "Not located", "evidence": [{"quote": "q-gone"}]},
        {"id": "flag", "text": "Flagged upstream", "flag": "the model hedged",
         "evidence": [{"quote": "q-flag"}]},
        {"id": "none", "text": "Uncited", "evidence": []},
    ],
}
A, B = (10.0, 10.0, 50.0, 20.0), (10.0, 40.0, 50.0, 50.0)


def the_report() -> Report:
    rev = evidence("review", page=2, rects=[A, B], index=0).model_copy(
        update={"alternatives": [ReportAlternative(page=2, rects=[B])]})
    return report(
        ClaimResult(id="ok", evidence=[evidence("located", page=1, rects=[A])]),
        ClaimResult(id="rev", evidence=[rev, evidence("located", page=3, rects=[A], index=1)]),
        ClaimResult(id="gone", evidence=[evidence("not_located")]),
        ClaimResult(id="flag", evidence=[evidence("located", page=1, rects=[B])]),
        ClaimResult(id="none", evidence=[], uncited=True))


@pytest.fixture
def cites(tmp_path: Path) -> Citations:
    return citations(CITATIONS, tmp_path / "x.cite")


@pytest.fixture
def review(cites: Citations) -> Review:
    r = Review()
    r.attach(cites, the_report(), {"policy": H1})
    return r


def decide(r: Review, claim: str, index: int, placement: str, **kw: object) -> None:
    d = r.placement(claim, index, placement, reviewer="jdoe", at="2026-12-01T13:00:00Z",
                    **kw)  # type: ignore[arg-type]
    r.decisions.put_evidence(d.key, d, by="jdoe", at="2026-12-01T13:00:00Z")


def support(r: Review, claim: str, value: str) -> None:
    s = r.support(claim, value, reviewer="jdoe", at="2026-12-01T13:00:01Z")  # type: ignore[arg-type]
    r.decisions.put_claim(claim, s, by="jdoe", at="2026-12-01T13:00:01Z")


def test_the_queue_is_what_needs_a_person(review: Review) -> None:
    assert review.queue() == ["rev", "gone", "flag"]
    state = review.claim_state("rev")
    assert state is not None
    assert [i.needs for i in state.items] == [("needs review",), ()]
    assert [i.index for i in state.required()] == [0]
    assert review.progress() == (0, 3)
    review.everything = True
    assert review.queue() == ["ok", "rev", "gone", "flag", "none"]
    assert review.progress() == (0, 5)


def test_nothing_to_review_is_said_so(tmp_path: Path) -> None:
    calm = {**CITATIONS, "claims": [c for c in CITATIONS["claims"]  # type: ignore[attr-defined]
                                    if c["id"] in ("ok", "none")]}
    r = Review()
    r.attach(citations(calm, tmp_path / "calm.cite"), report(
        ClaimResult(id="ok", evidence=[evidence("located", page=1, rects=[A])]),
        ClaimResult(id="none", evidence=[], uncited=True)), {"policy": H1})
    assert r.queue() == []
    assert panel_text(r, None, 0, location="").progress == "Nothing to review"
    r.everything = True
    assert panel_text(r, None, 0, location="").progress == "0 of 2 all claims decided"


def test_a_claim_is_decided_once_its_items_and_its_support_are(review: Review) -> None:
    decide(review, "rev", 0, "confirmed")
    assert review.progress() == (0, 3)  # support still open
    support(review, "rev", "supported")
    assert review.progress() == (1, 3)
    assert review.next_in_queue("rev", 1) == "gone"
    assert review.next_in_queue("flag", 1) == "gone"  # wraps around, skipping decided "rev"
    support(review, "flag", "partly")  # flagged upstream: only its support is asked
    assert review.progress() == (2, 3)
    review.everything = True  # a full audit asks for every item
    assert not review.claim_state("flag").decided  # type: ignore[union-attr]


def test_decisions_apply_to_the_page(review: Review) -> None:
    assert review.highlights("rev", "policy") == {1: [A, B], 2: [A]}
    decide(review, "rev", 0, "wrong_place")  # no highlight until relocated
    assert review.highlights("rev", "policy") == {2: [A]}
    decide(review, "rev", 0, "relocated", page=5, rects=[B], text="w")
    assert review.highlights("rev", "policy") == {4: [B], 2: [A]}
    assert review.focus("rev", "policy") == (4, [B])
    decide(review, "ok", 0, "absent")
    assert review.highlights("ok", "policy") == {}


def test_copies_are_the_matchers_own_first(review: Review) -> None:
    outcome = review.outcome("rev", 0)
    assert outcome is not None
    assert [(c.page, c.rects) for c in copies(outcome)] == [(2, (A,)), (2, (B,))]
    assert copies(review.outcome("ok", 0)) == ()  # type: ignore[arg-type]


def test_a_changed_quote_or_document_makes_a_decision_stale(cites: Citations,
                                                            review: Review) -> None:
    decide(review, "rev", 0, "relocated", page=5, rects=[B])
    support(review, "rev", "supported")
    item = review.claim_state("rev").items[0]  # type: ignore[union-attr]
    assert item.decided and not item.stale
    review.attach(cites, the_report(), {"policy": H2})  # the PDF's bytes changed
    state = review.claim_state("rev")
    assert state is not None and "document has changed" in state.items[0].stale
    assert not state.decided and state.support_decided  # support is about the quotes
    assert review.highlights("rev", "policy") == {1: [A, B], 2: [A]}  # not applied
    review.attach(cites, the_report(), {"policy": None})  # the PDF cannot be read
    assert "cannot be read" in review.claim_state("rev").items[0].stale  # type: ignore[union-attr]
    edited = replace(cites, claims=tuple(
        replace(c, evidence=(replace(c.evidence[0], quote="q-rev edited"), c.evidence[1]))
        if c.id == "rev" else c for c in cites.claims))
    review.attach(edited, the_report(), {"policy": H1})
    state = review.claim_state("rev")
    assert state is not None and "quote has changed" in state.items[0].stale
    assert "quotes have changed" in state.support_stale
    assert review.progress() == (0, 3)


def test_what_remains_for_fail_on(review: Review) -> None:
    assert review.remaining(["undecided"]) == [
        "claim 'rev': undecided", "claim 'gone': undecided", "claim 'flag': undecided"]
    assert review.remaining(["review"]) == ["claim 'rev' evidence 0: needs review"]
    assert review.remaining(["not_located"]) == ["claim 'gone' evidence 0: not located"]
    decide(review, "rev", 0, "confirmed")  # confirmed words are located
    decide(review, "gone", 0, "absent")  # still not located: the quote is not there
    support(review, "gone", "not_supported")
    assert review.remaining(["review"]) == []
    assert review.remaining(["not_located"]) == ["claim 'gone' evidence 0: not located"]
    assert review.remaining(["not_supported"]) == ["claim 'gone': not supported"]
    decide(review, "ok", 0, "wrong_place")
    assert review.remaining(["not_located"])[0] == "claim 'ok' evidence 0: not located"


def test_every_replaced_or_withdrawn_value_is_kept_in_the_history(review: Review) -> None:
    decide(review, "rev", 0, "confirmed")
    first = review.decisions.evidence[("rev", 0)]
    decide(review, "rev", 0, "wrong_place")
    second = review.decisions.evidence[("rev", 0)]
    review.decisions.put_evidence(("rev", 0), None, by="amy", at="2026-12-02T09:00:00Z")
    assert ("rev", 0) not in review.decisions.evidence
    assert review.decisions.history == [
        HistoryEntry("changed", first, "jdoe", "2026-12-01T13:00:00Z"),
        HistoryEntry("removed", second, "amy", "2026-12-02T09:00:00Z")]


def test_decisions_record_the_hashes_of_what_they_are_about(review: Review) -> None:
    decide(review, "rev", 0, "confirmed")
    d = review.decisions.evidence[("rev", 0)]
    assert d.quote_sha256 == sha256_text("q-rev") and d.document_sha256 == H1
    support(review, "rev", "partly")
    s = review.decisions.claims["rev"]
    assert s.claim_sha256 == sha256_text("Review")
    assert s.quotes_sha256 == (sha256_text("q-rev"), sha256_text("q-fine"))
    with pytest.raises(ValueError, match="page and rectangles"):
        decide(review, "rev", 0, "relocated")


def test_orphan_decisions_are_kept_but_not_shown(cites: Citations) -> None:
    r = Review(Decisions())
    r.attach(cites, the_report(), {"policy": H1})
    decide(r, "rev", 0, "confirmed")
    smaller = replace(cites, claims=tuple(c for c in cites.claims if c.id != "rev"))
    r.attach(smaller, the_report(), {"policy": H1})
    assert r.claim_state("rev") is None and ("rev", 0) in r.decisions.evidence
    assert "rev" not in r.queue()


def test_differences_put_an_item_in_the_queue_and_are_named(cites: Citations) -> None:
    located = evidence("located", page=1, rects=[A], quote="q-ok")
    said = [{"kind": "number", "quote": "952.18", "page": "925.18"},
            {"kind": "negation", "quote": "not", "page": None}]
    raw = {"summary": {}, "claims": [{"id": "ok", "evidence": [
        {**located.model_dump(mode="json"), "differences": said}]}]}
    r = Review()
    r.attach(cites, Report.from_json(raw), {"policy": H1})
    assert r.queue() == ["ok", "flag"]  # "flag" is flagged upstream
    assert r.claim_state("ok").items[0].needs == ("differences",)  # type: ignore[union-attr]
    assert r.outcome("ok", 0).differences[0] == Difference("number", "952.18", "925.18")  # type: ignore[union-attr]
    text = panel_text(r, "ok", 0, location="")
    assert text.differences == ("Differs from the page: 952.18 ≠ 925.18 · “not” is not on the "
                                "page")
    assert panel_text(r, "none", 0, location="").claim.startswith("none · no evidence")
    # Confirming the place says both: the words are the right ones, the quote differs —
    # and the record is never shaded as fine.
    decide(r, "ok", 0, "confirmed")
    text = panel_text(r, "ok", 0, location="")
    assert text.placement.startswith("Placement: confirmed") and \
        "· the quote differs" in text.placement and text.differences
    [drawn] = r.records("ok")
    assert drawn.outcome == "confirmed" and drawn.shade == "differs"


def test_a_rejected_item_names_no_document_so_any_of_the_files_will_do(
        cites: Citations, review: Review) -> None:
    decide(review, "gone", 0, "absent")  # an item whose outcome names its document
    item = replace(review.decisions.evidence[("gone", 0)], document_sha256=H1)
    review.decisions.evidence[("gone", 0)] = item
    bare = report(ClaimResult(id="gone", evidence=[evidence("rejected", document=None)]))  # type: ignore[arg-type]
    review.attach(cites, bare, {"policy": H1, "other": H2})
    assert not review.claim_state("gone").items[0].stale  # type: ignore[union-attr]
    review.attach(cites, bare, {"policy": H2})
    assert "none of the file's documents" in review.claim_state("gone").items[0].stale  # type: ignore[union-attr]


def test_a_confirmation_records_what_it_confirmed(review: Review) -> None:
    got = review.outcome("rev", 1)
    assert got is not None
    decide(review, "rev", 1, "confirmed")
    d = review.decisions.evidence[("rev", 1)]
    assert (d.page, d.rects, d.document, d.text) == (got.page, got.rects, got.document,
                                                     got.found_text)
    item = review.claim_state("rev").items[1]  # type: ignore[union-attr]
    assert item.decided and not item.stale


def test_confirming_other_words_than_the_check_draws_is_stale(review: Review) -> None:
    decide(review, "ok", 0, "confirmed", page=1, rects=[B], document="policy")  # not A
    item = review.claim_state("ok").items[0]  # type: ignore[union-attr]
    assert item.stale == "the check now draws other words than those confirmed"
    assert not item.decided and "decision stale" in item.needs
    assert "ok" in review.queue()  # a person is asked again
    assert review.highlights("ok", "policy") == {0: [A]}  # the check's words, not applied
    # A copy the check draws (an alternative) is words it draws: it holds.
    decide(review, "rev", 0, "confirmed", page=2, rects=[B], document="policy")
    assert review.claim_state("rev").items[0].decided  # type: ignore[union-attr]


def test_an_old_confirmation_without_rects_reads_as_before(review: Review) -> None:
    d = review.placement("ok", 0, "confirmed", reviewer="jdoe", at="2026-12-01T13:00:00Z")
    old = replace(d, page=None, rects=(), text=None, document=None)
    review.decisions.put_evidence(old.key, old, by="jdoe", at="2026-12-01T13:00:00Z")
    item = review.claim_state("ok").items[0]  # type: ignore[union-attr]
    assert item.decided and not item.stale
    assert review.highlights("ok", "policy") == {0: [A]}


def test_confirm_with_nothing_drawn_or_without_a_document_hash_is_refused(
        cites: Citations) -> None:
    r = Review()
    r.attach(cites, the_report(), {"policy": H1})
    with pytest.raises(Refused, match=r"Absent.*Relocate"):
        decide(r, "gone", 0, "confirmed")  # not located: nothing is drawn to confirm
    decide(r, "gone", 0, "absent")  # what it offers instead
    unread = Review()
    unread.attach(cites, the_report(), {"policy": None})  # the document cannot be read
    for placement in ("confirmed", "absent", "wrong_place"):
        with pytest.raises(Refused, match="cannot be read"):
            decide(unread, "ok", 0, placement)
    assert unread.decisions.evidence == {}


def test_the_model_tells_one_change_per_decision_without_qt(tmp_path: Path) -> None:
    """The review model is Qt-free and evented: a decision that moves the queue on is
    one change told once; applying and undoing go through it too."""
    from viewer.state.reviewing import ReviewModel
    from viewer.state.session import Session

    session = Session()
    session.open_citations(tmp_path / "x.cite", citations(CITATIONS, tmp_path / "x.cite"))
    model = ReviewModel(session, "jdoe")
    session.set_report(the_report())
    model.review.hashes = {"policy": H1}
    told: list[None] = []
    model.connect(lambda: told.append(None))
    session.select("gone")
    assert len(told) == 1 and model.current == 0
    told.clear()
    with model.one_change():
        change = model.placement_change("absent")
        assert change is not None and change.old is None
        model.apply(change.key, change.new)
        support = model.support_change("not_supported")
        assert support is not None
        model.apply(support.key, support.new)
        model.after_decision()  # "gone" decided: on to the next claim to review
    assert len(told) == 1 and session.selected == "flag"
    assert model.review.claim_state("gone").decided  # type: ignore[union-attr]
    model.review.hashes = {"policy": None}  # the document can no longer be read
    with pytest.raises(Refused, match="cannot be read"):
        model.placement_change("confirmed")
