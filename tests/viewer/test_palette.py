"""The highlight colour is used for evidence only: badges and notices keep away from it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QColor

from viewer.palette import (
    BADGE_COLORS,
    DEFAULT_HIGHLIGHT,
    MIN_DISTANCE,
    badge_color,
    distance,
    notice_color,
    parse_color,
)


def test_default_palette_is_far_from_the_default_highlight() -> None:
    h = QColor(DEFAULT_HIGHLIGHT)
    for status in BADGE_COLORS:
        assert distance(badge_color(status, h), h) >= MIN_DISTANCE
    assert distance(notice_color("info", h), h) >= MIN_DISTANCE
    assert distance(notice_color("error", h), h) >= MIN_DISTANCE


@given(st.integers(0, 0xFFFFFF))
@settings(max_examples=300, deadline=None)
def test_badges_stay_distinct_from_any_highlight(rgb: int) -> None:
    h = QColor(f"#{rgb:06X}")
    for status in BADGE_COLORS:
        b = badge_color(status, h)
        assert b.rgb() != h.rgb()
        assert distance(b, h) >= MIN_DISTANCE or b.name() in ("#000000", "#ffffff")


def test_parse_color() -> None:
    assert parse_color("#12abEF") == QColor("#12ABEF")
    assert parse_color("red") is None and parse_color("#12345") is None


def test_every_badge_has_a_colour_and_a_word() -> None:
    from viewer.state.presentation import STATUS_WORDS

    assert set(BADGE_COLORS) == set(STATUS_WORDS)
