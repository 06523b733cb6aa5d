"""Two words exchanged, and a row's figure taken from another row, where the reading is
not plain: a separator between the two, a word split at a line end, a word the quote
dropped beside one of them, a negation or a lone digit, a figure opening the quote, and
pieces of a row of counts that would meet inside a figure.

Each quote has every word on the page, so containment alone would pass it; each is shown
for review with the difference named, and the same passage quoted as printed is located.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from matcher.document import PdfSource
from matcher.placement import Placement, place_on_page
from matcher.words import PageWords
from tests.simplepdf import Placed, paragraph


def named(p: Placement) -> list[tuple[str, str | None, str | None]]:
    return sorted((d.kind, d.quote, d.page) for d in p.differences)


def page_of(make_pdf: Callable[..., Path], pieces: list[Placed]) -> PageWords:
    return PdfSource(make_pdf([pieces])).page_words(0)


def assert_located(pw: PageWords, quote: str) -> None:
    p = place_on_page(pw, quote)
    assert p.status == "located" and not p.differences, (quote, p.reason)


def assert_figure_changed(pw: PageWords, quote: str, quoted: str, printed: str,
                          original: str) -> None:
    """``quote`` is shown for review with its figure ``quoted`` named against the
    ``printed`` one, and the passage as printed (``original``) is located."""
    p = place_on_page(pw, quote)
    assert p.status == "review"
    assert named(p) == [("number", quoted, printed)]
    assert_located(pw, original)


def test_two_words_exchanged_around_a_dash_are_named(make_pdf: Callable[..., Path]) -> None:
    # A table header: "Seller" and "Private" are neighbours once the dash, which has no
    # atom, is left out; the dash printed between them fixes each one's place.
    pw = page_of(make_pdf, [("Return to Seller - Private Sale", 300, 100),
                            ("Permit Handgun Long Gun", 72, 100)])
    p = place_on_page(pw, "Return to Private - Seller Sale")
    assert p.status == "review"
    assert named(p) == [("word", "Private", "Seller"), ("word", "Seller", "Private")]
    assert_located(pw, "Return to Seller - Private Sale")


def test_two_neighbours_exchanged_without_a_separator_are_no_change(
        make_pdf: Callable[..., Path]) -> None:
    # "Coverage A" read "A Coverage": as often the layout read another way as a change.
    pw = page_of(make_pdf, paragraph(["The Dwelling Coverage A limit is shown on the schedule."]))
    assert_located(pw, "The Dwelling A Coverage limit is shown on the schedule.")


def test_nics_header_exchanged_around_its_dash(corpus: Path) -> None:
    with PdfSource(corpus / "table_nics_background_checks.pdf") as src:
        pw = src.page_words(0)
        p = place_on_page(pw, "Return to Private - Seller Sale")
        assert p.status == "review"
        assert named(p) == [("word", "Private", "Seller"), ("word", "Seller", "Private")]
        assert_located(pw, "Return to Seller - Private Sale")


LINES = ["after a period of years. If it continues to make sense to facilitate free ex-",
         "change of content, supported through a taxation system, then it can be kept."]


def test_a_swapped_word_the_page_splits_at_a_line_end(make_pdf: Callable[..., Path]) -> None:
    pw = page_of(make_pdf, paragraph(LINES))
    p = place_on_page(pw, "If it continues to exchange sense to facilitate free make of "
                          "content, supported through a taxation system")
    assert p.status == "review"
    assert {d.quote for d in p.differences} == {"exchange", "make"}
    assert_located(pw, "If it continues to make sense to facilitate free exchange of "
                       "content, supported through a taxation system")


def test_a_swap_beside_a_word_the_quote_dropped(make_pdf: Callable[..., Path]) -> None:
    # The title on the first page prints "Individual" before "Life"; the quote, taken
    # from a running head without it, has "Company" and "Life" exchanged.
    pw = page_of(make_pdf, paragraph(["Harborline Mutual Life & Casualty Company", "",
                                      "APPLICATION FOR INDIVIDUAL LIFE AND HOMEOWNERS "
                                      "INSURANCE"]))
    p = place_on_page(pw, "Harborline Mutual Life & Casualty Life - Application for Company "
                          "and Homeowners Insurance")
    assert p.status == "review"
    assert {d.quote for d in p.differences} == {"Life", "Company"}


def test_a_heading_swap_beside_an_elided_article(corpus: Path) -> None:
    # "D’INCIDENCES": the quote's "INCIDENCES" without the article, and "LES" exchanged.
    with PdfSource(corpus / "rotated_fr_environment_report.pdf") as src:
        pw = src.page_words(3)
        p = place_on_page(pw, "EVALUATION DU RISQUE LES SUR INCIDENCES")
        assert p.status == "review"
        assert {d.quote for d in p.differences} == {"LES", "INCIDENCES"}
        assert_located(pw, "EVALUATION DU RISQUE D’INCIDENCES SUR LES")


def test_a_negation_and_lone_digits_exchanged(make_pdf: Callable[..., Path]) -> None:
    pw = page_of(make_pdf, paragraph(["Checking a box below will not change your tax.",
                                      "(8) In the Operating Procedures chapter,",
                                      "add the information in figure 7 to paragraph 2."]))
    p = place_on_page(pw, "Checking a box not will below change your tax.")
    assert p.status == "review"
    assert {d.quote for d in p.differences} == {"not", "below"}
    p = place_on_page(pw, "(7) In the Operating Procedures chapter, add the information in "
                          "figure 8 to paragraph")
    assert p.status == "review"
    assert named(p) == [("number", "7", "8"), ("number", "8", "7")]
    assert_located(pw, "(8) In the Operating Procedures chapter, add the information in "
                       "figure 7 to paragraph")


def test_a_row_quoted_with_another_rows_opening_figure(make_pdf: Callable[..., Path]) -> None:
    # Headings numbered in cells of their own, two columns: "5.2" stands word for word
    # in the other column, but the row the quote reads along opens with "6.1".
    pw = page_of(make_pdf, [("5.2", 72, 100), ("Register Allocation", 92, 100),
                            ("6.1", 320, 100), ("Calling Compiled Traces", 340, 100)])
    p = place_on_page(pw, "5.2 Calling Compiled Traces")
    assert p.status == "review"
    assert named(p) == [("number", "5.2", "6.1")]
    assert_located(pw, "6.1 Calling Compiled Traces")


ROWS = [("access-fannkuch", "10", "34", "57", "24", "0", "3.4", "1.7", "5.7", "2.20x"),
        ("crypto-sha1", "5", "5", "10", "0", "0", "1.0", "2.0", "2.0", "5.95x")]
XS = (72, 160, 190, 220, 250, 280, 310, 350, 390, 430)


def test_a_row_of_counts_with_another_rows_figure(make_pdf: Callable[..., Path]) -> None:
    # The quote's "5.7 2.0 5.95x" would be exact pieces of the page meeting inside
    # "2.20x" ("5.7 2." and ".0 5.95x"): the row, read along, has "2.0" for "5.7".
    pw = page_of(make_pdf, [(cell, x, 100 + 15 * r) for r, row in enumerate(ROWS)
                            for cell, x in zip(row, XS, strict=True)])
    p = place_on_page(pw, "crypto-sha1 5 5 10 0 0 1.0 5.7 2.0 5.95x")
    assert p.status == "review"
    assert named(p) == [("number", "5.7", "2.0")]
    for row in ROWS:
        assert_located(pw, " ".join(row))


def test_a_warn_row_quoted_with_another_rows_date(corpus: Path) -> None:
    with PdfSource(corpus / "table_ca_warn_report.pdf") as src:
        pw = src.page_words(4)
        p = place_on_page(pw, "11/14/2015 09/29/2015 09/14/2015 AT&T San Ramon 219 Layoff "
                              "Permanent")
        assert p.status == "review"
        assert named(p) == [("number", "11/14/2015", "09/11/2015")]
        assert "09/11/2015" in p.found_text


def test_three_words_rotated_among_their_places(make_pdf: Callable[..., Path]) -> None:
    # The page asks the other question; the quote reads along it with "work", "impacts"
    # and "family" each at another's place.
    pw = page_of(make_pdf, paragraph(["(2) What are the most negative impacts of family on "
                                      "your work?", "(3) How often do you work at night?"]))
    p = place_on_page(pw, "What are the most negative work of impacts on your family?")
    assert p.status == "review"
    assert {d.quote for d in p.differences} == {"work", "impacts", "family"}
    assert_located(pw, "What are the most negative impacts of family on your work?")
    # A word moved past its neighbours puts those out of place too: no rotation.
    assert_located(pw, "What are the most negative of family impacts on your work?")


def test_a_chinese_name_exchanged_with_a_word(corpus: Path) -> None:
    # The name is one word of twelve characters, each an atom: a run against one word.
    with PdfSource(corpus / "table_energy_appendix_rot90.pdf") as src:
        pw = src.page_words(0)
        p = place_on_page(pw, "Hydrogen-Ammonia Integrated Zero Carbon "
                              "通辽千万千瓦级风光储氢氨 Park Project (Industrial")
        assert p.status == "review"
        assert named(p) == [("word", "Industrial", "通"), ("word", "通", "Industrial")]
        assert_located(pw, "Hydrogen-Ammonia Integrated Zero Carbon Industrial Park Project "
                           "(通辽千万千瓦级风光储氢氨")


def test_a_shuffled_heading_is_no_swap_read_across_into_the_next_line(
        make_pdf: Callable[..., Path]) -> None:
    # Read from "3", the quote's "SECTION" and "INSURANCE" would be exchanged only by
    # stepping over "List all life" on the next line: not one word dropped beside a half.
    pw = page_of(make_pdf, paragraph(["SECTION 3 - EXISTING INSURANCE AND REPLACEMENT",
                                      "List all life insurance and annuities in force."]))
    assert_located(pw, "INSURANCE - 3 EXISTING REPLACEMENT SECTION AND")


def test_a_heading_quoted_with_another_headings_number(make_pdf: Callable[..., Path]) -> None:
    # The heading's own "2.1.3." stands where the quote has "2.1.2."; the quoted number
    # stands too, heading another section: a section number changed, not one moved.
    pw = page_of(make_pdf, [("2.1.2. Components of the Data Storage Zone", 72, 100),
                            ("Several classes of storage systems may be present.", 72, 118),
                            ("2.1.3. Parallel File System", 72, 300),
                            ("Since HPC workloads can vary significantly, a PFS is used", 72, 318)])
    assert_figure_changed(pw, "2.1.2. Parallel File System Since HPC workloads can vary",
                          "2.1.2", "2.1.3",
                          "2.1.3. Parallel File System Since HPC workloads can vary")


def test_nist_heading_with_another_headings_number(corpus: Path) -> None:
    with PdfSource(corpus / "text_nist_sp800_223.pdf") as src:
        pw = src.page_words(11)
        tail = "Parallel File System Since HPC workloads can vary significantly, a PFS"
        assert_figure_changed(pw, f"2.1.2. {tail}", "2.1.2", "2.1.3", f"2.1.3. {tail}")


def test_a_formulas_terms_with_another_terms_figure(make_pdf: Callable[..., Path]) -> None:
    # Four terms, a short quote: its figure read where the formula has another, the
    # quoted one standing in the next formula, is a figure changed.
    # Set as an equation is: numerators above their subscripts, each a piece of its own.
    pw = page_of(make_pdf, [("Zc = Z0", 270, 265), ("1 + 0.369", 324, 258), ("rv", 348, 272),
                            ("-j", 375, 265), ("0.369", 397, 258), ("rv", 404, 272),
                            ("+ 1.149", 423, 258), ("r2", 440, 272),
                            ("G = k", 277, 294), ("1.045", 314, 287), ("rv", 321, 301),
                            ("+ 1.080", 340, 287), ("+ j", 376, 294), ("1 + 1.045", 397, 294),
                            ("rv", 421, 301)])
    assert_figure_changed(pw, "1 + 0.369 0.369 + 1.045", "1.045", "1.149",
                          "1 + 0.369 0.369 + 1.149")


def test_acta_acustica_formula_with_another_terms_figure(corpus: Path) -> None:
    with PdfSource(corpus / "text_acta_acustica_cropbox.pdf") as src:
        pw = src.page_words(1)
        assert_figure_changed(pw, "1 + 0.369 0.369 + 1.045", "1.045", "1.149",
                              "1 + 0.369 0.369 + 1.149")

