"""The window under a dark system palette (a dark or high-contrast desktop theme): text
readable on what it is written on, badges as on a light one, the highlight colour the
same. Colours chosen for a light window (the differences' red, the dimmed grey, the
review tags' slate, the find field's pink) are made legible by one rule
(:func:`viewer.palette.legible`), measured here as WCAG contrast ratios."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from viewer.palette import (
    BADGE_COLORS,
    DEFAULT_HIGHLIGHT,
    DIMMED_CONTRAST,
    NOTICE_ERROR,
    TEXT_CONTRAST,
    badge_color,
    contrast,
    distinct,
    legible,
)
from viewer.state.files import demo_path
from viewer.widgets.claims import TAG_COLOR
from viewer.widgets.detail import DIFF_STYLES, diff_styles
from viewer.window.shell import MainWindow

from .review_helpers import demo_window, open_and_check

MakeWindow = Callable[..., MainWindow]
R = QPalette.ColorRole
DARK = {R.Window: "#202124", R.WindowText: "#E8EAED", R.Base: "#17181A",
        R.AlternateBase: "#26282B", R.Text: "#E8EAED", R.Button: "#2D2F33",
        R.ButtonText: "#E8EAED", R.ToolTipBase: "#2D2F33", R.ToolTipText: "#E8EAED",
        R.Highlight: "#3D6FB6", R.HighlightedText: "#FFFFFF", R.Link: "#8AB4F8",
        R.PlaceholderText: "#9AA0A6"}


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, color in DARK.items():
        palette.setColor(role, QColor(color))
    return palette


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QPalette]:
    """The application's palette dark for one test, then as it was."""
    before = QPalette(qapp.palette())
    qapp.setPalette(dark_palette())
    try:
        yield qapp.palette()
    finally:
        qapp.setPalette(before)


colors = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)).map(
    lambda rgb: QColor(*rgb))
reached: list[int] = []


@settings(max_examples=300, deadline=None)
@given(colors, colors, st.sampled_from([DIMMED_CONTRAST, TEXT_CONTRAST]))
def test_legible_reads_on_any_background_and_keeps_what_already_reads(
        color: QColor, background: QColor, minimum: float) -> None:
    made = legible(color, background, minimum)
    assert contrast(made, background) >= minimum
    if contrast(color, background) >= minimum:
        assert made.name() == color.name()
    reached.append(1)


def test_the_property_reached_its_assertions() -> None:
    assert len(reached) >= 100


def test_the_light_palettes_marks_are_as_designed() -> None:
    assert diff_styles(QColor("#FFFFFF")) == DIFF_STYLES


def span_colors(html: str) -> list[QColor]:
    return [QColor(c) for c in re.findall(r"color:(#[0-9A-Fa-f]{6})", html)]


def test_the_window_reads_under_a_dark_palette(qtbot: QtBot, make_window: MakeWindow,
                                               dark: QPalette) -> None:
    window = make_window((1280, 860))
    open_and_check(qtbot, window, demo_path())  # the demo as shipped, claim c13 with it
    window.session.select("c13")  # a quote that differs from the page: marked words
    pane = window.detail
    base = pane.palette().color(R.Base)
    assert base.name() == DARK[R.Base].lower()
    marked = re.findall(r'<span style="color:(#[0-9A-F]{6}); font-weight:bold', pane.html())
    assert marked, "c13's changed words are marked"
    for color in marked:
        assert contrast(QColor(color), base) >= TEXT_CONTRAST, color
    assert contrast(pane.palette().color(R.Text), base) >= TEXT_CONTRAST
    # The highlight colour, and the badges, mean what they meant on a light window.
    assert window.view.highlighter.color == QColor(DEFAULT_HIGHLIGHT)
    for status, color in BADGE_COLORS.items():
        assert badge_color(status, window.view.highlighter.color) == QColor(color)
    # Nothing found: the field's pink, with dark text on it, not the palette's light one.
    find = window.reader.find
    qtbot.keyClick(window, "F", modifier=Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(find.bar.field, "zzqxv")
    qtbot.keyClick(find.bar.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: find.results.state == "done", timeout=20000)
    qtbot.waitUntil(lambda: "background" in find.bar.field.styleSheet(), timeout=5000)
    field = find.bar.field
    image = field.grab().toImage()
    # The typed text's pixels, left of the text cursor (drawn dark in any palette).
    inside = [image.pixelColor(x, y) for x in range(3, field.cursorRect().left() - 1)
              for y in range(3, image.height() - 3)]
    pink = QColor(NOTICE_ERROR)
    assert any(c == pink for c in inside)  # the field is pink
    assert max(contrast(c, pink) for c in inside) >= TEXT_CONTRAST  # and its text reads


def test_review_tags_read_on_a_dark_list(qtbot: QtBot, make_window: MakeWindow,
                                         tmp_path: Path, dark: QPalette) -> None:
    """c14 is flagged upstream: its row's tag is outlined in the slate made legible on
    the dark list (the light window's slate on it reads at 1.8:1)."""
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 860))
    claims = window.claims
    row = next(i for i, r in enumerate(window.session.rows()) if r.id == "c14")
    window.session.select("c8")  # c14's row unselected: on the list's own background
    index = claims.model_.index(row, 0)
    claims.scrollTo(index)
    qtbot.waitUntil(lambda: claims.viewport().rect().contains(claims.visualRect(index)),
                    timeout=5000)
    image = claims.viewport().grab(claims.visualRect(index)).toImage()
    base = claims.palette().color(R.Base)
    ink = legible(distinct(QColor(TAG_COLOR), window.view.highlighter.color), base)
    assert contrast(QColor(TAG_COLOR), base) < TEXT_CONTRAST <= contrast(ink, base)
    drawn = sum(image.pixelColor(x, y) == ink
                for x in range(image.width()) for y in range(image.height()))
    assert drawn > 20  # the tag's outline and words, in the legible slate
