"""Quotes in Chinese, Japanese and Korean: matched by characters (no spaces between words),
Hangul whatever its spacing, on PDFs set in the CJK font PyMuPDF ships (Droid Sans
Fallback, through its "china-s", "japan" and "korea" encodings) and on a corpus table."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from matcher.document import PdfSource
from matcher.locate import locate_quote
from matcher.placement import Placement, place_on_page
from matcher.words import PageWords

LINES = [("保险公司应在收到索赔申请后三十日内支付赔款。", "china-s"),
         ("被保险人未如实告知的，保险人有权解除合同。", "china-s"),
         ("保険会社は請求を受けた日から三十日以内に保険金を支払います。", "japan"),
         ("보험회사는 청구를 받은 날부터 삼십일 이내에 보험금을 지급합니다.", "korea"),
         ("피보험자가 사실을 알리지 않은 경우 계약을 해지할 수 있습니다.", "korea")]


@pytest.fixture
def pw(tmp_path: Path) -> PageWords:
    doc = pymupdf.open()
    page = doc.new_page()
    for k, (text, font) in enumerate(LINES):
        page.insert_text((50, 80 + 20 * k), text, fontname=font, fontsize=11)
    doc.save(tmp_path / "cjk.pdf")
    doc.close()
    src = PdfSource(tmp_path / "cjk.pdf")
    words = src.page_words(0)
    read = [" ".join(words.words[w].text for w in ln.words) for ln in words.lines]
    assert read == [t for t, _ in LINES], "the CJK font no longer extracts as set"
    return words


def line_of(pw: PageWords, p: Placement, k: int) -> None:
    assert {pw.words[w].line for w in p.words} == {k}


@pytest.mark.parametrize("quote,line", [
    ("三十日内支付赔款", 0),                      # inside an unbroken run
    ("保险公司应在收到索赔申请后三十日内支付赔款", 0),
    ("被保险人未如实告知", 1),
    ("請求を受けた日から三十日以内に", 2),         # Japanese, kana and kanji
    ("청구를 받은 날부터", 3),                    # Hangul as printed
    ("청구를받은 날 부터 삼십일", 3),              # ...spaced differently
    ("피보험자가사실을알리지 않은", 4),
    ("사실을 알리지 않은 경우 계약을", 4),
])
def test_a_cjk_quote_is_located_on_its_line(pw: PageWords, quote: str, line: int) -> None:
    p = place_on_page(pw, quote)
    assert p.status == "located", p.reason
    line_of(pw, p, line)


def test_a_cjk_quote_from_nowhere_is_not_located(pw: PageWords) -> None:
    assert not place_on_page(pw, "本合同自双方签字之日起生效并持续有效两年").placed
    assert not place_on_page(pw, "계약은 서명한 날부터 이 년 동안 유효합니다").placed


def test_a_negation_inserted_in_chinese_is_never_located(pw: PageWords) -> None:
    p = place_on_page(pw, "保险公司应在收到索赔申请后三十日内不支付赔款")
    assert p.status == "review"
    assert [d.kind for d in p.differences] == ["negation"]


def test_a_chinese_run_of_the_corpus_rotated_table(corpus: Path) -> None:
    with PdfSource(corpus / "table_energy_appendix_rot90.pdf") as src:
        pw = src.page_words(0)
        runs = [m.group() for ln in pw.lines
                for m in re.finditer("[\u4e00-\u9fff]{8,}",
                                     "".join(pw.words[w].text for w in ln.words))]
        assert len(runs) >= 3
        for run in runs[:5]:
            quote = run[1:-1]
            p = locate_quote(src, quote)
            assert p.status == "located" and p.page == 0, (quote, p.reason)
            assert quote in p.found_text.replace(" ", "")


def test_the_cjk_font_is_pymupdfs_own() -> None:
    # The font is PyMuPDF's own: no system font is needed for these tests.
    assert pymupdf.Font("china-s").has_glyph(ord("保"))
    assert pymupdf.Font("korea").has_glyph(ord("보"))
