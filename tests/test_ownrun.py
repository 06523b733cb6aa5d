"""A figure read against its own run, where the quote dropped words beside it: the
quote's figure stands a line away (or in another row), and read in order the passage
prints another figure in its place. Shown for review with both figures named; the
passage as printed, or with those words dropped around the right figure, is located.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.normalize import atoms
from matcher.placement import place_on_page
from matcher.stretches import swapped_stretch, words_in
from tests.simplepdf import Placed, paragraph, write_pdf
from tests.test_swaps import assert_figure_changed, assert_located, named, page_of


def test_a_phone_number_from_a_line_up_for_the_lines_own(corpus: Path) -> None:
    # "… contractor, call 1-800-MEDICARE (1-800-633-4227). TTY users / should call
    # 1-877-486-2048.": the quote drops the first call and keeps its number.
    with PdfSource(corpus / "form_cms_1490s_medical_claim_filled.pdf") as src:
        pw = src.page_words(2)
        assert_figure_changed(pw, "contractor. TTY users should call 1-800-633-4227.",
                              "1-800-633-4227", "1-877-486-2048",
                              "contractor. TTY users should call 1-877-486-2048.")


def test_a_warn_row_with_another_rows_date_and_its_company_dropped(corpus: Path) -> None:
    # The row "12/24/2015 | 01/04/2016 01/05/2016 | A-List, Inc. & H-List Inc. dba Kitson
    # | Brea | 6 | Closure Permanent", quoted without the company and with a date that
    # stands in another row.
    with PdfSource(corpus / "table_ca_warn_report.pdf") as src:
        pw = src.page_words(9)
        p = place_on_page(pw, "12/24/2015 01/04/2016 03/31/2016 Brea 6 Closure Permanent")
        assert p.status == "review"
        assert named(p) == [("number", "03/31/2016", "01/05/2016")]
        assert "01/05/2016" in p.found_text and "03/31/2016" not in p.found_text


LINES = ["For claims call 555-0100 on weekdays. For sales and renewals",
         "call 555-0199 today, or write to us at the address below."]


def test_the_other_lines_number_for_the_lines_own(make_pdf: Callable[..., Path]) -> None:
    pw = page_of(make_pdf, paragraph(LINES))
    assert_figure_changed(pw, "For sales and renewals call 555-0100 today", "555-0100",
                          "555-0199", "For sales and renewals call 555-0199 today")


def test_a_number_dropped_beside_the_one_quoted_is_no_change(
        make_pdf: Callable[..., Path]) -> None:
    # "call 555-0142 or 555-0199": quoting "call 555-0199" drops the first number and
    # the "or"; the figure quoted stands right there.
    pw = page_of(make_pdf, paragraph(["For sales and renewals call 555-0142 or 555-0199",
                                      "today, or write to us at the address below."]))
    assert_located(pw, "For sales and renewals call 555-0199 today")
    assert_located(pw, "For sales and renewals call 555-0142 today")


STATES = ["Kentucky", "Washington"]
WARNING = ("Any person who knowingly and with intent to defraud any insurance company "
           "files a statement of claim containing any materially false information, or "
           "conceals for the purpose of misleading information concerning any fact "
           "material thereto, commits a fraudulent insurance act under the laws of {}.")


def test_two_words_exchanged_in_the_second_of_two_warnings(
        make_pdf: Callable[..., Path]) -> None:
    # The first warning, read on across "Kentucky." into the next heading "Washington:",
    # reads as the quote too, a word further: the closer reading is the passage.
    pieces: list[Placed] = []
    y = 100.0
    for state in STATES:
        text = f"{state}: " + WARNING.format(state)
        words = text.split()
        lines = [" ".join(words[k:k + 14]) for k in range(0, len(words), 14)]
        pieces += paragraph(lines, y=y)
        y += 13 * len(lines) + 20
    pw = page_of(make_pdf, pieces)
    quote = ("statement of claim containing any materially false information, or conceals "
             "insurance the purpose of misleading information concerning any fact material "
             "thereto, commits a fraudulent for act under the laws of Washington.")
    stretch = swapped_stretch(pw, atoms(quote))
    assert stretch is not None
    second = min(w.y0 for w in pw.words if w.text == "Washington:")
    assert all(pw.words[w].y0 > second for w in words_in(pw, *stretch))
    p = place_on_page(pw, quote)
    assert p.status == "review"
    assert named(p) == [("word", "for", "insurance"), ("word", "insurance", "for")]
    assert all(r[1] > second for r in p.rects)
    assert_located(pw, quote.replace("conceals insurance", "conceals for")
                   .replace("fraudulent for", "fraudulent insurance"))


COVERS = ["Dwelling (Coverage A)", "Other Structures (Coverage B)",
          "Personal Property (Coverage C)", "Loss of Use (Coverage D)",
          "Personal Liability (Coverage E)"]
XS = (72, 250, 330, 400, 470)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_a_row_quoted_with_another_rows_premium_is_never_located(
        tmp_path_factory: object, data: st.DataObject) -> None:
    """Any schedule of cover, its cells written row by row or column by column: a row
    quoted with another row's premium is never located; shown (always, where the rows
    are read row by row), it is for review with both premiums named. Each row as
    printed is located."""
    n = data.draw(st.integers(2, len(COVERS)), label="rows")
    money = st.integers(100, 99_999).map(lambda c: f"${c // 100:,}.{c % 100:02d}")
    premiums = data.draw(st.lists(money, min_size=n, max_size=n, unique=True), label="premiums")
    limits = data.draw(st.lists(st.integers(10, 900).map(lambda k: f"${k * 1000:,}"),
                                min_size=n, max_size=n, unique=True), label="limits")
    rows = [(COVERS[r], limits[r], "$500", premiums[r], "12 months") for r in range(n)]
    by_column = data.draw(st.booleans(), label="written column by column")
    cells = [(cell, XS[c], 100 + 16 * r) for r, row in enumerate(rows)
             for c, cell in enumerate(row)]
    if by_column:
        cells.sort(key=lambda piece: (piece[1], piece[2]))
    folder = tmp_path_factory.mktemp("schedule")  # type: ignore[attr-defined]
    pw = PdfSource(write_pdf(folder / "schedule.pdf", [cells])).page_words(0)
    r = data.draw(st.integers(0, n - 1), label="row quoted")
    s = data.draw(st.integers(0, n - 2).map(lambda k: k if k < r else k + 1), label="taken from")
    quote = " ".join((*rows[r][:3], premiums[s], "12 months"))
    p = place_on_page(pw, quote)
    assert p.status != "located", (quote, p.reason)
    if p.placed or not by_column:
        # (Read column by column, a table of look-alike rows — every deductible the same,
        # figures a cent apart — can leave too little weight to show the row at all.)
        assert ("number", premiums[s], premiums[r]) in named(p), (quote, p.reason)
    assert_located(pw, " ".join(rows[r]))


def test_a_swap_whose_word_ends_a_word_on_the_next_line(make_pdf: Callable[..., Path]) -> None:
    # "cigarettes" read against the next line's "e-cigarettes" is no copy of it: the
    # quote exchanged "cigarettes" and "tobacco".
    pw = page_of(make_pdf, paragraph([
        "Within the past five years, has the Proposed Insured used cigarettes, cigars, a "
        "pipe, chewing tobacco,", "e-cigarettes, or any other nicotine product?"]))
    p = place_on_page(pw, "Within the past five years, has the Proposed Insured used tobacco, "
                          "cigars, a pipe, chewing cigarettes,")
    assert p.status == "review"
    assert named(p) == [("word", "cigarettes", "tobacco"), ("word", "tobacco", "cigarettes")]
    assert "e-cigarettes" not in p.found_text
