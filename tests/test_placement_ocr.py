"""Placement over OCR words: misread letters must not send the highlight to another copy."""

from __future__ import annotations

from collections import Counter

import pytest

from matcher.normalize import atoms
from matcher.placement import _ocr_aliases, place_on_page
from matcher.words import PageWords, WordSource


def page_of(lines: list[str], source: WordSource) -> PageWords:
    """One word box per word, 14 pt apart, in the (x0, y0, x1, y1, text, block, line, n) form."""
    raw = []
    for i, line in enumerate(lines):
        x = 72.0
        for n, word in enumerate(line.split()):
            raw.append((x, 100 + 14 * i, x + 6 * len(word), 110 + 14 * i, word, 0, i, n))
            x += 6 * len(word) + 4
    return PageWords.from_raw(0, raw, source=source)


# The reduced-fee line was read with "Ermäßigte" garbled; the full-fee line cleanly.
MISREAD = ["Mitgliedsantrag Hackerspace Bremen e.V.",
           "Ermafsigte Hackerspace Mitgliedschaft fur 23€ pro Monat.",
           "Name, Vorname und Anschrift der Antragstellerin",
           "Hackerspace Mitgliedschaft fur 42€ pro Monat."]


def test_a_misread_word_still_picks_its_own_line_on_ocr_pages() -> None:
    pw = page_of(MISREAD, "ocr")
    p = place_on_page(pw, "Ermäßigte Hackerspace Mitgliedschaft für pro")
    assert p.status == "located"
    assert {pw.words[w].line for w in p.words} == {1}


def test_text_layers_are_read_exactly() -> None:
    # A text layer says what it says: "Ermafsigte" is not "Ermäßigte" there, so the two
    # fee lines hold the quote equally and both are shown for review.
    pw = page_of(MISREAD, "text")
    p = place_on_page(pw, "Ermäßigte Hackerspace Mitgliedschaft für pro")
    assert p.status == "review" and len(p.alternatives) == 1
    shown = {round(r[1]) for r in p.rects}
    assert shown == {100 + 14 * 1, 100 + 14 * 3}


@pytest.mark.parametrize(("page_word", "quote_word", "aliased"), [
    ("expiraci6n", "expiración", True),
    ("informacién", "información", True),
    ("aire", "aires", False),        # another form of the word, printed on the page
    ("sections", "section", False),
    ("2016", "2015", False),         # another number, never a misreading
    ("claim", "clause", False),
])
def test_what_counts_as_a_misreading(page_word: str, quote_word: str, aliased: bool) -> None:
    pw = page_of([f"the {page_word} stands here"], "ocr")
    quote = Counter(atoms(f"the {quote_word} stands"))
    alias = _ocr_aliases(pw, quote)
    assert (atoms(page_word)[0] in alias) is aliased


# OCR reads a turned table's rows whole: each row one line, the quoted cell a minority.
ROWS = ["DHAW20190029 05/16/2019 CITIBANK TRAVEL CBA CARD 05/07/2019 STAFF TRANSPORTATION 477.60",
        "AIRFARE FOR D HARTMAN SAINT LOUIS MO TO WASHINGTON DC AND RETURN",
        "DHAW20190031 05/28/2019 CITIBANK SENATOR IBA CARD 05/10/2019 SENATOR'S TRANSPORTATION",
        "AIRFARE FOR SEN HAWLEY WASHINGTON DC TO SPRINGFIELD MO AND RETURN",
        "DHAW20190032 06/13/2019 CITIBANK SENATOR IBA CARD 05/24/2019 SENATOR'S TRANSPORTATION",
        "AIRFARE FOR SEN HAWLEY WASHINGTON DC TO SAINT LOUIS MO AND RETURN"]


@pytest.mark.parametrize("context", [1, 3, 5])
def test_a_quoted_table_cell_is_highlighted_in_the_row_before_its_context(context: int
                                                                          ) -> None:
    # "label + the line after it": the label stands in the rows above and below the
    # context line alike; quoted first, it is the copy printed first.
    pw = page_of(ROWS, "ocr")
    label = " ".join(ROWS[context - 1].split()[2:6])
    p = place_on_page(pw, f"{label} {ROWS[context]}")
    assert p.placed
    lines = {pw.words[w].line for w in p.words}
    assert lines == {context - 1, context}
    cell = [pw.words[w].text for w in p.words if pw.words[w].line == context - 1]
    assert cell == label.split()
