"""A quote with one word changed, whose words also stand elsewhere on the page, is never green.

The page reads along one passage as the quote but for one word; the same words are also
found assembled from other lines or as exact pieces. That passage is shown, the word
named; where the other reading is as plausible (a quote of a list's first and third
lines), both are shown for review. Generated PDFs, placed with the real matcher.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.placement import Placement, place_on_page
from matcher.words import PageWords
from tests.simplepdf import paragraph, write_pdf

FCC = ["the installation verification, if the approved",
       "software part number is not shown as being",
       "installed on FCC A and FCC B, before further",
       "flight, do corrective actions until the",
       "approved software part number is installed",
       "on FCC A and FCC B. Later-approved",
       "software versions are only those Boeing"]
MANUAL = ["Before further flight, revise the existing",
          "AFM to include the changes specified in",
          "paragraphs (h)(1) through (10) of this AD.",
          "Revising the existing AFM to include the",
          "changes specified in paragraphs (h)(2)",
          "through (10) of this AD may be done by"]
FEES = ["Normale Mitgliedschaft für 70 Euro pro Jahr.",
        "Normale Hackerspace Mitgliedschaft für 42 Euro pro Monat.",
        "Ermäßigte Mitgliedschaft für 35 Euro pro Jahr.",
        "Ermäßigte Hackerspace Mitgliedschaft für 23 Euro pro Monat."]


def page(make_pdf: Callable[..., Path], lines: Sequence[str]) -> PageWords:
    return PdfSource(make_pdf([paragraph(lines)])).page_words(0)


def lines_of(pw: PageWords, words: Sequence[int]) -> list[str]:
    return [" ".join(pw.words[w].text for w in pw.lines[ln].words)
            for ln in sorted({pw.words[w].line for w in words})]


def named(p: Placement) -> list[tuple[str, str | None, str | None]]:
    return [(d.kind, d.quote, d.page) for d in p.differences]


def test_an_inserted_not_that_stands_four_lines_up_is_not_the_quotes(
        make_pdf: Callable[..., Path]) -> None:
    pw = page(make_pdf, FCC)
    # The quote's words are all on the page: "approved software part number is not" at
    # the top, "installed on FCC A and FCC B" below it. But it reads along lines 5–7
    # word for word, "not" apart: that is the passage quoted.
    p = place_on_page(pw, "approved software part number is not installed on FCC A and "
                          "FCC B. Later-approved software versions are only those Boeing")
    assert p.status == "review"
    assert named(p) == [("negation", "not", None)]
    assert lines_of(pw, p.words) == FCC[4:]


def test_a_quote_is_never_cut_into_exact_pieces_at_a_changed_figure(
        make_pdf: Callable[..., Path]) -> None:
    pw = page(make_pdf, MANUAL)
    # "paragraphs (h)(2) through (10) of this AD" and "Revising the existing AFM to include
    # the" each stand on the page word for word, but the page reads the whole quote along
    # lines 3–4 with (h)(1) for (h)(2).
    p = place_on_page(pw, "paragraphs (h)(2) through (10) of this AD. Revising the existing "
                          "AFM to include the")
    assert p.status == "review"
    [d] = p.differences
    assert d.kind == "number" and "2" in (d.quote or "") and "1" in (d.page or "")
    assert lines_of(pw, p.words) == MANUAL[2:4]


def test_a_list_quoted_by_its_first_and_third_lines_shows_both_readings(
        make_pdf: Callable[..., Path]) -> None:
    pw = page(make_pdf, FEES)
    # Assembled from the 42 and 23 Euro lines, every word stands; read along the 42 and
    # 35 Euro lines, one figure differs. Which was meant is open: review, both shown.
    p = place_on_page(pw, "Mitgliedschaft für 42 Euro pro Monat. Mitgliedschaft für 23 Euro "
                          "pro")
    assert p.status == "review"
    assert named(p) == [("number", "23", "35")]
    assert lines_of(pw, p.words) == FEES[1:3]
    [other] = p.alternatives
    assert len(other) == 2 and set(other) <= set(p.rects)
    shown = {pw.words[w].line for w in range(len(pw.words))
             if any(r[0] <= pw.words[w].x0 and pw.words[w].x1 <= r[2] + 0.5 and
                    r[1] <= pw.words[w].y0 + 0.5 and pw.words[w].y1 <= r[3] + 0.5
                    for r in other)}
    assert [" ".join(pw.words[w].text for w in pw.lines[ln].words) for ln in sorted(shown)] \
        == [FEES[1], FEES[3]]


def test_the_same_quotes_unchanged_are_located(make_pdf: Callable[..., Path]) -> None:
    for lines, quote in ((FCC, "approved software part number is installed on FCC A and "
                               "FCC B. Later-approved software versions are only those Boeing"),
                         (MANUAL, "paragraphs (h)(1) through (10) of this AD. Revising the "
                                  "existing AFM to include the"),
                         (FEES, "Mitgliedschaft für 42 Euro pro Monat. Ermäßigte "
                                "Mitgliedschaft für 35 Euro pro")):
        p = place_on_page(page(make_pdf, lines), quote)
        assert p.status == "located", (quote, p.reason)
        assert p.differences == ()


@settings(max_examples=15, deadline=None)
@given(numbers=st.lists(st.integers(1, 40), min_size=3, max_size=3, unique=True),
       letter=st.sampled_from("abc"))
def test_a_figure_changed_at_the_end_to_a_label_on_the_next_line_is_named(
        tmp_path_factory: pytest.TempPathFactory, numbers: list[int], letter: str) -> None:
    # A form: "… Do not include on line 8a . . . 8b" above a field labelled "9a". The
    # quote ending "on line 9a" reads along the first line but for its last figure; the
    # "9a" on the line below is another field's label, not the words between dropped.
    own, box, below = (f"{n}{letter}" for n in numbers)
    lines = [f"Tax-exempt interest. Do not include on line {own} . . . . {box} Enter the sum",
             f"{below}", "Ordinary dividends. Attach Schedule B if required"]
    pdf = write_pdf(tmp_path_factory.mktemp("p") / "p.pdf", [paragraph(lines)])
    pw = PdfSource(pdf).page_words(0)
    p = place_on_page(pw, f"Tax-exempt interest. Do not include on line {below}")
    assert p.status == "review", p.reason
    assert named(p) == [("number", below, own)]
