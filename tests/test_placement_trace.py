"""explain_placement: the same answer as place_on_page, and a trace that explains it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from matcher.document import PdfSource
from matcher.placement import explain_placement, place_on_page
from matcher.words import PageWords
from tests.simplepdf import paragraph
from tests.test_placement import LINES, form_page


@pytest.fixture
def pages(make_pdf: Callable[..., Path]) -> list[PageWords]:
    src = PdfSource(make_pdf([form_page(), paragraph(LINES)]))
    return [src.page_words(0), src.page_words(1)]


QUOTES = [
    (0, "Signature of Applicant /s/ Margaret Okafor, Print Name Margaret Okafor, Date 03/14/2025"),
    (0, "a fraudulent insurance act, which is a crime."),
    (0, "APPLICATION FOR HOMEOWNERS INSURANCE Personal property $175,000 deductible $1,000"),
    (1, " ".join(LINES[2:4])),
    (1, "The quick brown fox jumps over the lazy dog near the river bank"),
    (1, ""),
]


@pytest.mark.parametrize(("page", "quote"), QUOTES)
def test_the_trace_carries_the_very_placement_place_on_page_returns(
        pages: list[PageWords], page: int, quote: str) -> None:
    trace = explain_placement(pages[page], quote)
    assert trace.placement == place_on_page(pages[page], quote)


@pytest.mark.parametrize(("page", "quote"), [QUOTES[0], QUOTES[2], QUOTES[3]])
def test_a_placed_quote_is_explained_by_its_runs_bands_and_citation(
        pages: list[PageWords], page: int, quote: str) -> None:
    pw = pages[page]
    trace = explain_placement(pw, quote)
    assert trace.placement.placed and trace.best is not None and trace.citation is not None
    # Every highlighted word was taken by the citation band, on a candidate line.
    taken = {w for ws in trace.citation.taken.values() for w in ws}
    assert set(trace.placement.words) <= taken
    candidate_lines = {c.line for c in trace.candidates}
    assert {pw.words[w].line for w in trace.placement.words} <= candidate_lines
    # The chosen band accounts for at least as much of the quote as any other.
    best = trace.bands[trace.best]
    assert all(best.coverage >= b.coverage - 0.02 for b in trace.bands)
    # Runs are quote atoms in the quoted order, read off the page at those positions.
    for run in trace.runs:
        assert [pw.atoms[p].text for p in run.positions] == list(run.atoms)
        assert " ".join(run.atoms) in " ".join(trace.quote_atoms)


def test_a_refused_quote_has_an_empty_trace_and_says_why(pages: list[PageWords]) -> None:
    trace = explain_placement(pages[1], "")
    assert trace.placement.status == "not_located" and trace.placement.reason
    assert trace.bands == () and trace.best is None and trace.citation is None
