"""`citeview check`: a claim that misstates its located evidence is flagged, its
evidence keeping its status; ``--fail-on differs``; a confirmed review item counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.simplepdf import paragraph, write_pdf
from tests.test_cli import citeview

LINES = ["Dwelling (Coverage A) limit $277,000, deductible $500, premium $925.18 for",
         "12 months. The authorization is valid for twenty-four months from signing.",
         "The applicant has not been treated for heart disease."]


@pytest.fixture
def cite(tmp_path: Path) -> Path:
    write_pdf(tmp_path / "policy.pdf", [paragraph(LINES)])
    claims = [
        ("wrong", "The dwelling premium is $952.18 a year.", "premium $925.18 for"),
        ("words", "The authorization runs for 24 months.",
         "valid for twenty-four months from signing"),
        ("polar", "The applicant has been treated for heart disease.",
         "has not been treated for heart disease"),
        ("none", "Nothing is known.", "Mould is covered in full"),
    ]
    data = {"version": 1, "documents": [{"id": "policy", "path": "policy.pdf"}],
            "claims": [{"id": i, "text": t, "evidence": [{"document": "policy", "page": 1,
                                                          "quote": q}]}
                       for i, t, q in claims]}
    path = tmp_path / "answer.cite"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_check_json_gives_each_claim_its_consistency(cite: Path) -> None:
    out = citeview("check", str(cite), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    by_id = {c["id"]: c for c in report["claims"]}
    assert by_id["wrong"]["consistency"] == {"status": "differs", "differences": [
        {"kind": "number", "claim": "$952.18", "evidence": "$925.18"}]}
    assert by_id["wrong"]["evidence"][0]["status"] == "located"  # the quote is right
    assert by_id["words"]["consistency"] == {"status": "consistent", "differences": []}
    assert by_id["polar"]["consistency"]["differences"] == [
        {"kind": "negation", "claim": None, "evidence": "not"}]
    assert by_id["none"]["evidence"][0]["status"] == "not_located"
    assert by_id["none"]["consistency"]["status"] == "unchecked"
    assert report["summary"]["differs"] == 2 and report["summary"]["located"] == 3


def test_fail_on_differs_and_the_text_table(cite: Path) -> None:
    out = citeview("check", str(cite), "--fail-on", "differs")
    assert out.returncode == 1
    assert "claim 'wrong': its figures differ from its evidence" in out.stderr
    assert "The claim says $952.18; its evidence says $925.18" in out.stdout
    assert "2 claims differ from their evidence" in out.stdout
    assert citeview("check", str(cite), "--fail-on", "not_located").returncode == 1


def test_a_confirmed_review_item_is_evidence_the_claim_is_read_against(
        cite: Path, tmp_path: Path) -> None:
    """The quote changed the premium too: placed for review, so the claim is unchecked;
    once a person confirms the highlight, its words ($925.18) are the evidence."""
    from viewer.state.review import Decisions, EvidenceDecision, sha256_text
    from viewer.state.sidecar import dumps

    data = json.loads(cite.read_text(encoding="utf-8"))
    misquote = "limit $277,000, deductible $500, premium $952.18 for"
    data["claims"][0]["evidence"][0]["quote"] = misquote
    cite.write_text(json.dumps(data), encoding="utf-8")
    before = json.loads(citeview("check", str(cite), "--json").stdout)["claims"][0]
    assert before["evidence"][0]["status"] == "review"
    assert before["consistency"]["status"] == "unchecked"

    decisions = Decisions(citations=cite.name)
    decisions.evidence[("wrong", 0)] = EvidenceDecision(
        "wrong", 0, "confirmed", sha256_text(misquote), reviewer="me",
        at="2026-12-02T00:00:00Z")
    side = tmp_path / "answer.review.json"
    side.write_bytes(dumps(decisions))
    out = citeview("check", str(cite), "--json", "--review", str(side))
    assert out.returncode == 0, out.stderr
    after = json.loads(out.stdout)["claims"][0]
    assert after["evidence"][0]["status"] == "review"  # the matcher's own, kept
    assert after["evidence"][0]["decision"]["placement"] == "confirmed"
    assert after["consistency"] == {"status": "differs", "differences": [
        {"kind": "number", "claim": "$952.18", "evidence": "$925.18"}]}


@pytest.mark.parametrize("placement, status", [("wrong_place", "unchecked"),
                                               ("absent", "unchecked"),
                                               ("confirmed", "differs")])
def test_a_rejected_placement_is_no_evidence(cite: Path, tmp_path: Path, placement: str,
                                             status: str) -> None:
    from viewer.state.review import Decisions, EvidenceDecision, sha256_text
    from viewer.state.sidecar import dumps

    decisions = Decisions(citations=cite.name)
    decisions.evidence[("wrong", 0)] = EvidenceDecision(
        "wrong", 0, placement, sha256_text("premium $925.18 for"),  # type: ignore[arg-type]
        reviewer="me", at="2026-12-02T00:00:00Z")
    side = tmp_path / "answer.review.json"
    side.write_bytes(dumps(decisions))
    out = citeview("check", str(cite), "--json", "--review", str(side))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    wrong = report["claims"][0]
    assert wrong["consistency"]["status"] == status
    assert report["summary"]["differs"] == (2 if status == "differs" else 1)
