""""Found under the highlight" reads as the page does: in reading order, only what the
highlight covers, in visible characters (``found_text`` and the word diff's found words,
which the window, ``check --json`` and every export show)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from matcher.document import PdfSource
from matcher.locate import locate_quote
from matcher.placement import place_on_page
from matcher.report import word_diff_json
from tests.simplepdf import Placed, paragraph

INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\u0000-\u001f]")

LEFT = ["Section 4. The insurer pays the claim within thirty days",
        "of receiving the proof of loss and the adjuster report,",
        "unless the claim is disputed in writing by the insurer."]
RIGHT = ["A disputed claim goes to an appraiser chosen by both",
         "parties, whose decision binds the insurer and the insured",
         "unless either party asks a court to review it in time."]


def two_columns(make_pdf: Callable[..., Path]) -> PdfSource:
    # The right column is set a line higher than the left, so by height alone its first
    # line would come before the left column's last.
    pieces = paragraph(LEFT, x=50, y=120, leading=13) + paragraph(RIGHT, x=320, y=107,
                                                                   leading=13)
    return PdfSource(make_pdf([pieces], fontsize=9))


def test_a_quote_across_two_columns_reads_left_column_first(
        make_pdf: Callable[..., Path]) -> None:
    src = two_columns(make_pdf)
    pw = src.page_words(0)
    p = place_on_page(pw, f"{LEFT[2]} {RIGHT[0]}")
    assert p.placed
    assert p.found_text == f"{LEFT[2]} / {RIGHT[0]}"
    # The word diff's found words read the same way, and only what is highlighted.
    found = [t["text"] for t in (word_diff_json(p.diff) or {})["found"]]
    assert " ".join(found) == f"{LEFT[2]} {RIGHT[0]}"


def test_part_of_a_line_shows_only_the_words_under_the_highlight(
        make_pdf: Callable[..., Path]) -> None:
    pw = PdfSource(make_pdf([paragraph(["1) The claim is paid within thirty days. 2) The "
                                        "insurer may ask for proof.",
                                        "3) Disputes go to an appraiser."])])).page_words(0)
    p = place_on_page(pw, "The claim is paid within thirty days.")
    assert p.status == "located"
    found = [t["text"] for t in (word_diff_json(p.diff) or {})["found"]]
    assert found == "The claim is paid within thirty days.".split()
    assert p.found_text == "The claim is paid within thirty days."


ROWS = [("Dwelling", "$277,000", "$925.18"), ("Contents", "$138,500", "$246.53"),
        ("Liability", "$300,000", "$64.00")]


def column_major_table(make_pdf: Callable[..., Path]) -> PdfSource:
    """A table written column by column, as many generators do: the extractor's order of
    its cells is down each column."""
    pieces: list[Placed] = []
    for c, x in enumerate((72, 220, 340)):
        pieces += [(row[c], x, 100 + 15 * r) for r, row in enumerate(ROWS)]
    return PdfSource(make_pdf([pieces]))


def test_a_table_read_column_by_column_shows_its_rows_in_order(
        make_pdf: Callable[..., Path]) -> None:
    pw = column_major_table(make_pdf).page_words(0)
    first = pw.words[pw.lines[0].words[0]].text
    assert first == "Dwelling" and pw.words[pw.lines[1].words[0]].text == "Contents"
    p = place_on_page(pw, " ".join(ROWS[0] + ROWS[1]))
    assert p.status == "located"
    assert p.found_text == " / ".join(ROWS[0] + ROWS[1])
    found = [t["text"] for t in (word_diff_json(p.diff) or {})["found"]]
    assert found == [w for cell in ROWS[0] + ROWS[1] for w in cell.split()]
    one = place_on_page(pw, " ".join(ROWS[2]))
    assert one.status == "located" and one.found_text == " / ".join(ROWS[2])


def test_no_soft_hyphen_or_invisible_character_in_found_text(corpus: Path) -> None:
    # This form's text layer has soft hyphens (U+00AD) in its address lines.
    pdf = corpus / "form_in_motor_insurance_schedule.pdf"
    with PdfSource(pdf) as src:
        pw = src.page_words(0)
        lines = [" ".join(pw.words[w].text for w in ln.words) for ln in pw.lines]
        soft = [t for t in lines if "\u00ad" in t]
        assert soft, "the corpus form no longer has a soft hyphen"
        checked = 0
        for text in soft:
            quote = text.replace("\u00ad", "")
            p = locate_quote(src, quote, hints=[1])
            assert p.placed, quote
            assert not INVISIBLE.search(p.found_text), repr(p.found_text)
            tokens = (word_diff_json(p.diff) or {}).get("found", [])
            assert not any(INVISIBLE.search(t["text"]) for t in tokens)
            checked += 1
    assert checked == len(soft)
    # And through the command line's JSON, which the exports read.
    out = subprocess.run([sys.executable, "-m", "viewer.cli", "locate", str(pdf), "--json",
                          "--page", "1", "--quote", soft[0].replace("\u00ad", "")],
                         capture_output=True, text=True, timeout=120, check=True)
    data = json.loads(out.stdout)
    assert data["found_text"] and not INVISIBLE.search(data["found_text"])
