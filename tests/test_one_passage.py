"""A quote is read against one passage: a table row, a field and its value, a sentence.

Every word of these quotes stands on the page — the figure from the next row, the word
swapped with another of the same sentence — so containment alone would pass them. Read
along the one passage they quote, each has a figure or word where the passage has another:
shown for review, the difference named, never located. Quotes genuinely assembled from two
rows (both rows' labels quoted) stay what they were.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from matcher.document import PdfSource
from matcher.locate import locate_quote
from matcher.placement import Placement, place_on_page
from matcher.rows import row_lines
from matcher.words import PageWords
from tests.simplepdf import Placed, paragraph

ROWS = [("Dwelling (Coverage A)", "$277,000", "$500", "$925.18", "12 months"),
        ("Other Structures (Coverage B)", "$27,700", "$500", "$33.24", "12 months"),
        ("Personal Property (Coverage C)", "$138,500", "$500", "$246.53", "12 months"),
        ("Personal Liability (Coverage E)", "$300,000", "None", "$64.00", "12 months")]
COLUMNS = (72, 260, 340, 420, 500)


def named(p: Placement) -> list[tuple[str, str | None, str | None]]:
    return [(d.kind, d.quote, d.page) for d in p.differences]


def table_page(make_pdf: Callable[..., Path], *, rotation: int = 0) -> PageWords:
    """A premium table whose cells are separate pieces of text, one row every 15 pt."""
    pieces: list[Placed] = [("Coverage", 72, 80), ("Limit", 260, 80), ("Deductible", 340, 80),
                            ("Premium", 420, 80), ("Term", 500, 80)]
    for r, row in enumerate(ROWS):
        pieces += [(cell, x, 100 + 15 * r) for cell, x in zip(row, COLUMNS, strict=True)]
    return PdfSource(make_pdf([pieces], rotation=rotation)).page_words(0)


def row_words(pw: PageWords, row: int) -> set[int]:
    """The words of table row ``row``: the cells beside its label, by geometry."""
    label = ROWS[row][0]
    line = next(k for k, ln in enumerate(pw.lines)
                if " ".join(pw.words[w].text for w in ln.words) == label)
    words = {w for ln in row_lines(pw, line) for w in pw.lines[ln].words}
    assert sorted(pw.words[w].text for w in words) == sorted(" ".join(ROWS[row]).split())
    return words


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_row_quoted_with_the_next_rows_premium_is_review_naming_both_figures(
        make_pdf: Callable[..., Path], rotation: int) -> None:
    pw = table_page(make_pdf, rotation=rotation)
    p = place_on_page(pw, "Dwelling (Coverage A) $277,000 $500 $246.53 12 months")
    assert p.status == "review"
    assert named(p) == [("number", "$246.53", "$925.18")]
    # Shown on the Dwelling row itself, its premium included: nothing of the row below.
    assert set(p.words) == row_words(pw, 0)
    assert "$925.18" in p.found_text and "$246.53" not in p.found_text


@pytest.mark.parametrize("row", range(len(ROWS)))
def test_each_row_quoted_as_printed_is_located(make_pdf: Callable[..., Path], row: int
                                               ) -> None:
    pw = table_page(make_pdf)
    p = place_on_page(pw, " ".join(ROWS[row]))
    assert p.status == "located", p.reason
    assert set(p.words) == row_words(pw, row)


def test_every_premium_taken_from_another_row_is_named(make_pdf: Callable[..., Path]) -> None:
    pw = table_page(make_pdf)
    checked = 0
    for r, row in enumerate(ROWS):
        for o, other in enumerate(ROWS):
            if o == r:
                continue
            quote = " ".join((*row[:3], other[3], row[4]))
            p = place_on_page(pw, quote)
            assert p.status == "review", quote
            assert named(p) == [("number", other[3], row[3])], quote
            checked += 1
    assert checked == len(ROWS) * (len(ROWS) - 1)


def test_a_quote_of_two_rows_with_both_labels_is_no_changed_figure(
        make_pdf: Callable[..., Path]) -> None:
    # Clearly two rows: the quote names both coverages. It reads along no single row.
    pw = table_page(make_pdf)
    p = place_on_page(pw, "Dwelling (Coverage A) $277,000 Personal Property (Coverage C) "
                          "$246.53")
    assert p.placed and p.differences == ()
    assert row_words(pw, 0) & set(p.words) and row_words(pw, 2) & set(p.words)


def test_the_demo_claims_next_row_premium_is_review(corpus: Path) -> None:
    from resources.demo import __file__ as demo_init

    pdf = Path(demo_init).parent / "policy.pdf"
    with PdfSource(pdf) as src:
        p = locate_quote(src, "Dwelling (Coverage A) $277,000 $500 $246.53 12 months",
                         hints=[1])
    assert p.status == "review"
    assert named(p) == [("number", "$246.53", "$925.18")]


def _row_text(pw: PageWords, label: str) -> list[str]:
    line = next(k for k, ln in enumerate(pw.lines) if pw.words[ln.words[0]].text == label)
    return [pw.words[w].text for ln in row_lines(pw, line) for w in pw.lines[ln].words]


def test_a_state_row_of_the_nics_table_with_the_next_states_figure(corpus: Path) -> None:
    with PdfSource(corpus / "table_nics_background_checks.pdf") as src:
        pw = src.page_words(0)
        arizona, arkansas = _row_text(pw, "Arizona"), _row_text(pw, "Arkansas")
        good = " ".join(arizona[:5])
        assert place_on_page(pw, good).status == "located"
        # Arizona's fourth figure (9,041) replaced by Arkansas's (6,359): same shape.
        quote = " ".join([*arizona[:3], arkansas[2], arizona[4]])
        p = place_on_page(pw, quote)
        assert p.status == "review"
        assert named(p) == [("number", arkansas[2], arizona[3])]


def test_a_rotated_expense_row_with_the_next_rows_amount(corpus: Path) -> None:
    # The page is turned 90°: its rows run up the page.
    with PdfSource(corpus / "rotated_senate_expenditures_table.pdf") as src:
        pw = src.page_words(0)
        row = _row_text(pw, "DHAW20190002")
        nxt = _row_text(pw, "DHAW20190003")
        assert place_on_page(pw, " ".join(row)).status == "located"
        quote = " ".join([*row[:-1], nxt[-1]])
        p = place_on_page(pw, quote)
        assert p.status == "review"
        assert named(p) == [("number", nxt[-1], row[-1])]
        assert not {w for w in p.words if pw.words[w].text == nxt[-1]}


PROSE = ["The insurance starts on the first day of the month after approval and",
         "ends on the last day of the policy year, unless the insured cancels it.",
         "Claims are paid to the insured within thirty days of the adjuster report."]


def test_two_words_swapped_are_both_named(make_pdf: Callable[..., Path]) -> None:
    pw = PdfSource(make_pdf([paragraph(PROSE)])).page_words(0)
    p = place_on_page(pw, "The insurance starts on the last day of the month after approval "
                          "and ends on the first day of the policy year")
    assert p.status == "review"
    assert sorted(named(p)) == [("word", "first", "last"), ("word", "last", "first")]
    p = place_on_page(pw, "Claims are paid to the adjuster within thirty days of the "
                          "insured report.")
    assert p.status == "review"
    assert sorted(named(p)) == [("word", "adjuster", "insured"), ("word", "insured", "adjuster")]


def test_two_words_swapped_beside_a_word_hyphenated_at_a_line_end(
        make_pdf: Callable[..., Path]) -> None:
    # The word after the first of the two is split over two lines ("Nev- ertheless"):
    # the reading goes on across the split, so the swap is seen.
    lines = ["a small change in the set of tone hole positions",
             "inevitably worsens the instrument. Nev-",
             "ertheless there might exist better shapes that", "play in tune."]
    pw = PdfSource(make_pdf([paragraph(lines)])).page_words(0)
    p = place_on_page(pw, "inevitably worsens the exist. Nevertheless there might "
                          "instrument better shapes that")
    assert p.status == "review"
    assert sorted(named(p)) == [("word", "exist", "instrument"),
                                ("word", "instrument", "exist")]
    ok = place_on_page(pw, "inevitably worsens the instrument. Nevertheless there might "
                           "exist better shapes that")
    assert ok.status == "located" and not ok.differences


def test_a_changed_word_that_also_stands_beside_the_passage_on_its_line(
        make_pdf: Callable[..., Path]) -> None:
    # "last" stands on the highlighted line, just after the passage read.
    pw = PdfSource(make_pdf([paragraph(["Premiums are due on the first day of each month, "
                                        "not the last", "Late payments cost a fee."])])
                   ).page_words(0)
    p = place_on_page(pw, "Premiums are due on the last day of each month")
    assert p.status == "review"
    assert named(p) == [("word", "last", "first")]


def test_the_same_sentences_as_printed_are_located(make_pdf: Callable[..., Path]) -> None:
    pw = PdfSource(make_pdf([paragraph(PROSE)])).page_words(0)
    for quote in ("The insurance starts on the first day of the month after approval and "
                  "ends on the last day of the policy year",
                  "Claims are paid to the insured within thirty days",
                  # lines quoted in another order, words moved within a line
                  "Claims are paid to the insured within thirty days of the adjuster report. "
                  "The insurance starts on the first day of the month"):
        assert place_on_page(pw, quote).status == "located", quote


WARNINGS = ["Arkansas: Any person who knowingly presents a false or fraudulent claim for",
            "payment of a loss or benefit is guilty of a crime and may be subject to fines",
            "and confinement in prison.",
            "Colorado: Any person who knowingly presents a false or fraudulent claim for",
            "payment of a loss or benefit is guilty of a crime and may be subject to fines",
            "and confinement in prison under the laws of Colorado."]


def test_two_words_swapped_in_repeated_boilerplate_are_named(
        make_pdf: Callable[..., Path]) -> None:
    # Every word stands in both copies; read along the Colorado one, "loss" and "claim"
    # are exchanged.
    pw = PdfSource(make_pdf([paragraph(WARNINGS)])).page_words(0)
    p = place_on_page(pw, "Colorado: Any person who knowingly presents a false or fraudulent "
                          "loss for payment of a claim or benefit is guilty of a crime")
    assert p.status == "review"
    assert sorted(named(p)) == [("word", "claim", "loss"), ("word", "loss", "claim")]
    assert "Colorado:" in p.found_text and "Arkansas:" not in p.found_text
    ok = place_on_page(pw, "Colorado: Any person who knowingly presents a false or fraudulent "
                           "claim for payment of a loss or benefit is guilty of a crime")
    assert ok.status == "located" and not ok.differences


def test_a_contents_line_quoted_with_the_next_lines_number(
        make_pdf: Callable[..., Path]) -> None:
    # "2.1.5." stands word for word on the next line, and the page number "5" on the
    # quoted line itself: neither is the quoted line's own number.
    lines = ["2.1.4. Archival and Campaign Storage ........................ 5",
             "2.1.5. Burst Buffer ..................................... 6"]
    pw = PdfSource(make_pdf([paragraph(lines)])).page_words(0)
    p = place_on_page(pw, "2.1.5. Archival and Campaign Storage")
    assert p.status == "review"
    assert named(p) == [("number", "2.1.5", "2.1.4")]
    assert "Burst" not in p.found_text
    for quote in ("2.1.4. Archival and Campaign Storage", "2.1.5. Burst Buffer"):
        ok = place_on_page(pw, quote)
        assert ok.status == "located" and not ok.differences, quote


def test_a_row_quoted_with_a_count_of_another_row_whose_digit_it_also_prints(
        make_pdf: Callable[..., Path]) -> None:
    # The quote's "4,144" (Florida's) begins with a "4" that Delaware's row prints in
    # another cell: that lone "4" is not the quote's figure.
    rows = [("Delaware", "204", "2,152", "2,424", "65", "4"),
            ("Florida", "310", "4,144", "3,017", "88", "9")]
    xs = (72, 160, 220, 290, 360, 420)
    pieces: list[Placed] = [(cell, x, 100 + 15 * r) for r, row in enumerate(rows)
                            for cell, x in zip(row, xs, strict=True)]
    pw = PdfSource(make_pdf([pieces])).page_words(0)
    p = place_on_page(pw, "Delaware 204 4,144 2,424 65 4")
    assert p.status == "review"
    assert named(p) == [("number", "4,144", "2,152")]
    for row in rows:
        ok = place_on_page(pw, " ".join(row))
        assert ok.status == "located" and not ok.differences, row
