"""The claim list's first line: the longest run of whole words that fits beside the id,
found by halving, is the run that measuring word by word finds (viewer.widgets.claims)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from viewer.widgets.claims import _fit

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzMW0123456789.,%$-", max_size=14)


def fit_word_by_word(fm: QFontMetrics, text: str, width: int) -> str:
    """Each longer run measured in turn, up to the first that is too wide."""
    if fm.horizontalAdvance(text) <= width:
        return text
    out = ""
    for w in text.split(" "):
        trial = f"{out} {w}" if out else w
        if fm.horizontalAdvance(trial) > width:
            break
        out = trial
    return out


@settings(max_examples=300, deadline=None)
@given(words=st.lists(WORDS, max_size=40), width=st.integers(0, 900),
       point_size=st.sampled_from([7.0, 9.0, 12.0]), bold=st.booleans())
def test_the_run_found_by_halving_is_the_run_found_word_by_word(
        qapp: QApplication, words: list[str], width: int, point_size: float,
        bold: bool) -> None:
    font = QFont(qapp.font())
    font.setPointSizeF(point_size)
    font.setBold(bold)
    fm = QFontMetrics(font)
    text = " ".join(words)
    got = _fit(fm, text, width)
    assert got == fit_word_by_word(fm, text, width)
    assert got == text or fm.horizontalAdvance(got) <= width
    assert got.split() == text.split()[:len(got.split())]  # whole words from the start


def test_a_long_claim_is_cut_between_words_and_a_short_one_is_whole(
        qapp: QApplication) -> None:
    fm = QFontMetrics(qapp.font())
    text = "The policy covers flood damage to the insured building up to 250,000 EUR"
    width = fm.horizontalAdvance("The policy covers flood") + 2
    assert _fit(fm, text, width) == "The policy covers flood"
    assert _fit(fm, "Short claim", fm.horizontalAdvance("Short claim")) == "Short claim"
    assert _fit(fm, text, 0) == ""
