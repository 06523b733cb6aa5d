"""A changed fact is never green: at text level (spans), in check --json and locate --json.

The chunk's words around a quote choose among its copies, and a short exact quote is
placed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from matcher.check import check_citations
from matcher.citations import parse_citations
from matcher.span import fuzzy_verdict, locate_span
from tests.simplepdf import paragraph, write_pdf

CHUNK = ("Dwelling (Coverage A) limit $277,000, deductible $500, annual premium $925.18, "
         "term 12 months. The policy does not cover flood damage from surface water.")


@pytest.mark.parametrize(("quote", "named"), [
    ("Dwelling (Coverage A) limit $277,000, deductible $500, annual premium $952.18",
     ("number", "$952.18", "$925.18")),
    ("The policy does cover flood damage from surface water.", ("negation", None, "not")),
    ("The policy does not cover flood damage from ground water.",
     ("word", "ground", "surface")),
])
def test_a_fuzzy_span_that_changes_a_fact_is_review_with_the_fact_named(
        quote: str, named: tuple[str, str | None, str | None]) -> None:
    m = locate_span(CHUNK, quote)
    assert m is not None and m.kind == "review" and not m.accepted
    assert [(d.kind, d.quote, d.page) for d in m.differences] == [named]


def test_a_near_verbatim_copy_that_only_drops_a_word_is_accepted() -> None:
    m = locate_span(CHUNK, "Dwelling (Coverage A) limit $277,000, deductible $500, annual "
                           "premium $925.18, term 12 months. The policy does not cover "
                           "flood from surface water.")
    assert m is not None and m.kind == "fuzzy" and m.differences == ()


def test_the_verdict_keeps_the_score_and_length_rules() -> None:
    same = "annual premium $925.18"
    assert fuzzy_verdict(same, same, 94.0, 1.0)[0] == "review"
    assert fuzzy_verdict(same, same, 99.0, 1.5)[0] == "review"
    assert fuzzy_verdict(same, same, 99.0, 1.0) == ("fuzzy", "near-verbatim (score 99.0)", ())


LINES = ["Coverage A Dwelling limit $277,000 with a deductible of $500 and an annual",
         "premium of $925.18 payable on the policy date. Signed by Elena K. Lindqvist",
         "on 06/19/2025 at the Worcester office of the agency named below."]


def citeview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "policy.pdf", [paragraph(LINES)])


def test_locate_json_names_the_changed_figure(pdf: Path) -> None:
    out = citeview("locate", str(pdf), "--page", "1", "--json", "--quote",
                   "an annual premium of $952.18 payable on the policy date")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["status"] == "review" and got["page"] == 1 and got["rects"]
    assert got["differences"] == [{"kind": "number", "quote": "$952.18", "page": "$925.18"}]
    assert "the quote says $952.18; the page says $925.18" in got["reason"]
    quote_ops = [(t["text"], t["op"]) for t in got["word_diff"]["quote"]]
    assert ("$952.18", "differs") in quote_ops and ("premium", "same") in quote_ops


def test_locate_json_of_an_exact_quote_has_no_differences(pdf: Path) -> None:
    out = citeview("locate", str(pdf), "--json", "--quote", "Elena K. Lindqvist")
    got = json.loads(out.stdout)
    assert got["status"] == "located" and got["differences"] == []
    assert got["found_text"] == "Elena K. Lindqvist"


def test_check_reports_differences_at_text_and_page_level(pdf: Path, tmp_path: Path) -> None:
    text = "\n".join(LINES)
    data = {"version": 1, "documents": [{"id": "p", "path": "policy.pdf"}],
            "chunks": [{"id": "p#0", "document": "p", "text": text, "pages": [1]}],
            "claims": [
                {"id": "same", "text": "", "evidence": [
                    {"chunk_id": "p#0", "quote": "an annual premium of $925.18 payable"}]},
                {"id": "changed", "text": "", "evidence": [
                    {"chunk_id": "p#0", "quote": "an annual premium of $952.18 payable"}]},
                {"id": "date", "text": "", "evidence": [
                    {"chunk_id": "p#0", "quote": "Elena K. Lindqvist on 06/19/2024"}]},
                {"id": "name", "text": "", "evidence": [
                    {"chunk_id": "p#0", "quote": "Elena K. Lindqvist"}]}]}
    cite = tmp_path / "a.cite"
    cite.write_text(json.dumps(data))
    report = check_citations(parse_citations(data), cite)
    ev = {c.id: c.evidence[0] for c in report.claims}
    assert ev["same"].status == "located" and ev["same"].differences == []
    changed = ev["changed"]
    assert changed.status == "review" and changed.text_match == "review"
    assert [(d.kind, d.quote, d.page) for d in changed.differences] == \
        [("number", "$952.18", "$925.18")]
    assert changed.word_diff is not None and changed.rects
    assert [(d.quote, d.page) for d in ev["date"].differences] == \
        [("06/19/2024", "06/19/2025")]
    # A short exact quote with an exact char span is placed, never lost for being short.
    assert ev["name"].status == "located" and ev["name"].text_match == "exact"


def test_the_chunk_around_a_quote_picks_its_copy_on_the_page(tmp_path: Path) -> None:
    # The same line twice on the page; the chunk says which one: the one after "Ohio".
    line = "Any person who knowingly files a false claim commits a crime."
    pieces = [("Kentucky residents:", 72, 100), (line, 72, 113),
              ("Ohio residents:", 72, 200), (line, 72, 213)]
    write_pdf(tmp_path / "w.pdf", [pieces])
    text = f"Kentucky residents:\n{line}\nOhio residents:\n{line}\n"
    start = text.rindex(line)
    data = {"version": 1, "documents": [{"id": "w", "path": "w.pdf"}],
            "chunks": [{"id": "w#0", "document": "w", "text": text, "pages": [1]},
                       {"id": "w#1", "document": "w", "text": text[start - 16:], "pages": [1]}],
            "claims": [{"id": "plain", "text": "", "evidence": [
                            {"document": "w", "page": 1, "quote": line}]},
                       {"id": "chunk", "text": "", "evidence": [
                            {"chunk_id": "w#1", "quote": line}]}]}
    cite = tmp_path / "w.cite"
    cite.write_text(json.dumps(data))
    report = check_citations(parse_citations(data), cite)
    plain, chunk = (c.evidence[0] for c in report.claims)
    assert plain.status == "review" and len(plain.rects) == 2  # both copies shown
    assert chunk.status == "located" and len(chunk.rects) == 1
    assert chunk.rects[0][1] > 200  # the copy below "Ohio residents:"


def test_the_demo_flags_its_changed_premium() -> None:
    from importlib import resources
    demo = resources.files("resources") / "demo" / "demo.cite"
    out = citeview("check", str(demo), "--json")
    report = json.loads(out.stdout)
    [c13] = [c for c in report["claims"] if c["id"] == "c13"]
    [ev] = c13["evidence"]
    assert ev["status"] == "review"
    assert ev["differences"] == [{"kind": "number", "quote": "$952.18", "page": "$925.18"}]
    # c14 takes the next row's premium: every word is on the page, read along the row
    # it is the Dwelling row's figure changed, shown on that row.
    [c14] = [c for c in report["claims"] if c["id"] == "c14"]
    [ev] = c14["evidence"]
    assert ev["status"] == "review"
    assert ev["differences"] == [{"kind": "number", "quote": "$246.53", "page": "$925.18"}]
    assert ev["found_text"] == "Dwelling (Coverage A) / $277,000 / $500 / $925.18 / 12 months"
    others = [e for c in report["claims"] if c["id"] not in ("c13", "c14")
              for e in c["evidence"]]
    assert all(e["differences"] == [] for e in others if e["status"] == "located")
