"""Short quotes (1–4 whole words): placed where they stand once, every copy shown for review
where they stand several times, and a piece of a word ("optimiz") is no quote at all."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from matcher.document import PdfSource
from matcher.placement import place_on_page
from matcher.words import PageWords
from tests.simplepdf import paragraph

LINES = ["Policy HM-4657-2013 covers the dwelling at 456 Larkspur Court.",
         "The optimization of premiums is reviewed every 10 Tuesday meeting.",
         "Premiums are annual. Premiums are due in advance."]


@pytest.fixture
def pw(make_pdf: Callable[..., Path]) -> PageWords:
    return PdfSource(make_pdf([paragraph(LINES)])).page_words(0)


@pytest.mark.parametrize("quote", ["HM-4657-2013", "Larkspur Court", "10 Tuesday",
                                   "the optimization of"])
def test_a_short_quote_standing_once_is_located(pw: PageWords, quote: str) -> None:
    p = place_on_page(pw, quote)
    assert p.status == "located", p.reason
    assert " ".join(pw.words[w].text for w in p.words).strip(".").lower() == quote.lower()


def test_a_short_quote_standing_twice_shows_both_for_review(pw: PageWords) -> None:
    p = place_on_page(pw, "Premiums are")
    assert p.status == "review" and p.copies == 2 and len(p.alternatives) == 1


@pytest.mark.parametrize("piece,word", [("optimiz", "optimization"), ("Larksp", "larkspur"),
                                        ("o", "policy")])
def test_a_piece_of_a_word_is_not_located_and_the_reason_says_so(
        pw: PageWords, piece: str, word: str) -> None:
    p = place_on_page(pw, piece)
    assert p.status == "not_located" and not p.rects
    assert "only part of a word" in p.reason and piece.lower() in p.reason
    assert f"'{word}'" in p.reason or piece == "o"
