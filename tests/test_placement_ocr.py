"""Placement over OCR words: misread letters must not send the highlight to another copy."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pymupdf
import pytest

from matcher.document import PdfSource
from matcher.normalize import atoms
from matcher.ocr.tesseract import recognize_page
from matcher.pagemodel import ocr_aliases
from matcher.placement import place_on_page
from matcher.words import PageWords, Word, WordSource


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
    ("form7004", "form7006", False),  # nor a code with a digit changed
    ("male", "female", False),       # a beginning added: another word
    ("valid", "invalid", False),
    ("claim", "clause", False),
])
def test_what_counts_as_a_misreading(page_word: str, quote_word: str, aliased: bool) -> None:
    pw = page_of([f"the {page_word} stands here"], "ocr")
    quote = Counter(atoms(f"the {quote_word} stands"))
    alias = ocr_aliases(pw, quote)
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


# --- tables read column by column ----------------------------------------------------------
# With its rules erased, tesseract reads a table the way it reads columns of text: one
# block per column, each cell a line, so a row's cells stand far apart in reading order.
# The pages below are real PDFs; their words are re-read in that order as OCR words.

WARN = [["09/01/2015", "11/01/2015", "09/11/2015", "Zenith Education Group", "Layoff Permanent"],
        ["09/04/2015", "09/04/2015", "09/11/2015", "Quiksilver, Inc.", "Layoff Permanent"],
        ["09/04/2015", "11/06/2015", "09/14/2015", "Maslow Media Group, Inc.",
         "Layoff Unknown at this time"],
        ["09/10/2015", "11/09/2015", "09/14/2015", "Maslow Media Group, Inc.",
         "Layoff Unknown at this time"],
        ["09/11/2015", "09/14/2015", "09/14/2015", "Maslow Media Group, Inc.", "Layoff Permanent"],
        ["09/11/2015", "09/29/2015", "09/14/2015", "AT&T", "Closure Permanent"]]
COLUMNS = (30.0, 98.0, 166.0, 235.0, 430.0)
ROW_PITCH = 13.2


def ocr_table(make_pdf: Callable[..., Path], rows: list[list[str]]) -> PageWords:
    """``rows`` printed as a table, its words read back column after column as OCR words."""
    pieces = [(cell, x, 40 + ROW_PITCH * r) for r, row in enumerate(rows)
              for cell, x in zip(row, COLUMNS, strict=True)]
    text = PdfSource(make_pdf([pieces], size=(792, 612))).page_words(0)
    column = {w: max(c for c, x in enumerate(COLUMNS) if x <= text.words[w].rect[0] + 1)
              for w in range(len(text.words))}
    raw = []
    for w in sorted(column, key=lambda w: (column[w], text.words[w].rect[1],
                                           text.words[w].rect[0])):
        x0, y0, x1, y1 = text.words[w].rect
        raw.append((x0, y0, x1, y1, text.words[w].text, column[w],
                    round((y0 - 40) / ROW_PITCH), 0))
    return PageWords.from_raw(0, raw, source="ocr")


def cells(pw: PageWords, words: Sequence[int]) -> set[tuple[int, str]]:
    """The highlighted words as (row, cell text), rows counted from 0."""
    out: dict[int, list[str]] = {}
    for w in words:
        out.setdefault(pw.words[w].line, []).append(pw.words[w].text)
    return {(round((pw.lines[ln].bbox[3] - 40) / ROW_PITCH), " ".join(ws))
            for ln, ws in out.items()}


def test_a_cell_printed_in_several_rows_is_taken_from_the_row_of_the_rest(
        make_pdf: Callable[..., Path]) -> None:
    pw = ocr_table(make_pdf, WARN)
    p = place_on_page(pw, "11/09/2015 Maslow Media Group, Inc.")
    assert p.status == "located"
    assert cells(pw, p.words) == {(3, "Maslow Media Group, Inc."), (3, "11/09/2015")}


def test_neighbouring_cells_quoted_in_row_order_pin_their_row(
        make_pdf: Callable[..., Path]) -> None:
    # "09/04/2015", "09/11/2015" and "Layoff Permanent" each stand in several rows; only
    # the second row prints the two dates side by side, as quoted.
    pw = ocr_table(make_pdf, WARN)
    p = place_on_page(pw, "09/04/2015 09/11/2015 Quiksilver")
    assert p.status == "located"
    assert cells(pw, p.words) == {(1, "09/04/2015"), (1, "09/11/2015"), (1, "Quiksilver,")}
    assert sorted(pw.words[w].rect[0] for w in p.words)[0] > COLUMNS[1] - 1  # not column 1


@pytest.mark.parametrize(("quote", "flagged"), [
    ("11/06/2015 09/14/2015 Layoff Unknown at this time", False),
    ("Layoff Unknown at this time 11/06/2015 09/14/2015", True),
])
def test_a_cell_quoted_out_of_its_rows_order_also_shows_its_copy_a_row_away(
        make_pdf: Callable[..., Path], quote: str, flagged: bool) -> None:
    # The third row's status is printed the same in the fourth. Quoted after its row's
    # dates it belongs to their row; quoted before them, the text it came from may have
    # paired it with the next record, so both copies are shown for review.
    pw = ocr_table(make_pdf, WARN)
    p = place_on_page(pw, quote)
    mine = {(2, "11/06/2015"), (2, "09/14/2015"), (2, "Layoff Unknown at this time")}
    assert cells(pw, p.words) == mine
    if not flagged:
        assert p.status == "located" and not p.alternatives
        return
    assert p.status == "review" and len(p.alternatives) == 1
    shown = {(round((r[3] - 40) / ROW_PITCH), round(r[0])) for r in p.rects}
    other = {(round((r[3] - 40) / ROW_PITCH), round(r[0])) for r in p.alternatives[0]}
    assert other == {(2, round(COLUMNS[1])), (2, round(COLUMNS[2])), (3, round(COLUMNS[4]))}
    assert other <= shown


# --- rules erased before tesseract reads a page (real corpus pages) ------------------------


def image_only(src: Path, page: int, dst: Path, *, dpi: int = 200) -> pymupdf.Page:
    """Page ``page`` of ``src`` as a picture on a page of the same size, as a scan."""
    with pymupdf.open(src) as doc:
        pix = doc[page].get_pixmap(dpi=dpi)
        rect = doc[page].rect
    out = pymupdf.open()
    out.new_page(width=rect.width, height=rect.height).insert_image(rect, pixmap=pix)
    out.save(dst)
    return pymupdf.open(dst)[0]


def shown_on_truth(corpus: Path, tmp_path: Path, name: str, page: int, lines: list[str],
                   band: tuple[float, float]) -> list[str]:
    """OCR the page's picture, place ``lines`` joined: the truth words left unhighlighted.

    The truth is the text layer's own words of ``lines``, each taken where its middle
    lies within ``band`` (top, bottom in points); highlighted means under a word drawn.
    """
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract binary is not installed")
    text = PdfSource(corpus / name).page_words(page)
    truth = [w for ln in text.lines if " ".join(text.words[i].text for i in ln.words) in lines
             and band[0] <= (ln.bbox[1] + ln.bbox[3]) / 2 <= band[1]
             for w in (text.words[i] for i in ln.words)]
    assert len({w.line for w in truth}) == len(lines)  # the lines quoted, there
    pw = recognize_page(image_only(corpus / name, page, tmp_path / "scan.pdf")).to_page_words()
    p = place_on_page(pw, " ".join(lines))
    found = [pw.words[w] for w in p.words]

    def under(w: Word) -> bool:
        cx, cy = (w.rect[0] + w.rect[2]) / 2, (w.rect[1] + w.rect[3]) / 2
        return any(f.rect[0] <= cx <= f.rect[2] and f.rect[1] <= cy <= f.rect[3] for f in found)

    return [w.text for w in truth if atoms(w.text) and not under(w)]  # "&" is no word


@pytest.mark.parametrize(("name", "page", "lines", "band"), [
    # A caption beside a checkbox, over a row of field boxes: read as one line of junk
    # ("tony dain") while the boxes were there.
    ("form_va_21_0966_intent_to_file.pdf", 0,
     ["18. E-MAIL ADDRESS (If applicable)", "to my claim."], (690, 720)),
    # Table cells against their column rules: "{09/04/2015" at confidence 16, dropped.
    ("table_ca_warn_report.pdf", 3, ["11/06/2015 09/04/2015", "Acclarent, Inc."], (360, 376)),
])
def test_words_against_rules_and_boxes_are_read(corpus: Path, tmp_path: Path, name: str,
                                                page: int, lines: list[str],
                                                band: tuple[float, float]) -> None:
    assert shown_on_truth(corpus, tmp_path, name, page, lines, band) == []


def test_a_run_along_a_scanned_row_does_not_borrow_the_next_cells_word(corpus: Path,
                                                                        tmp_path: Path) -> None:
    # Along its row "…LLC Mountain View" goes on "Closure" (of "Closure Permanent"); the
    # quote's "Closure" starts a cell twelve rows up.
    lines = ["Barnes & Noble College Booksellers, LLC Mountain View",
             "Closure Unknown at this time"]
    assert shown_on_truth(corpus, tmp_path, "table_ca_warn_report.pdf", 13, lines,
                          (300, 520)) == []
