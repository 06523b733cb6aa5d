"""Colours: the highlight (evidence rectangles only) and a badge palette kept apart from it.

The highlight colour is the colour a highlight shows on white paper; it is painted in
multiply mode, so text under it stays as dark as it was. Nothing else in the window may
use it — no badge, swatch or marker — so a highlight can be found by its colour alone
(the tests do exactly that), and so the reader never mistakes a badge for evidence.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QColor

from .state.presentation import BadgeStatus

# A soft highlighter yellow: visible on white, black text stays black under multiply.
DEFAULT_HIGHLIGHT = "#FFE066"
# Find hits are outlined, never filled with the highlight: a strong blue, far from any
# highlighter colour and readable as a frame over text.
DEFAULT_FIND = "#1565C0"

# Badge backgrounds (white text on top), chosen to read as "good, look, bad, bad, none" and
# to stay distinguishable for the common colour-vision deficiencies by lightness as well as
# hue. None of them is near a highlighter colour.
BADGE_COLORS: dict[BadgeStatus, str] = {
    "located": "#2E7D32",
    "review": "#A15C00",
    "not_located": "#C62828",
    "rejected": "#6A1B9A",
    "uncited": "#546E7A",
    "pending": "#78909C",
    "missing": "#5D4037",
    "unreadable": "#283593",
    "differs": "#AD1457",
}
# Neutral colours for the notice bar (information / a problem).
NOTICE_INFO = "#E3EAF3"
NOTICE_ERROR = "#F6DADA"
# The text on those light colours, dark whatever the palette (a dark palette's light text
# would vanish on them).
INK = "#1F2328"

# Two colours closer than this (Euclidean distance in RGB, 0..441) count as the same to a
# person glancing at the screen; a badge that close to the highlight is shifted away.
MIN_DISTANCE = 90.0

# Text must stand out from what it is written on by at least this contrast ratio (WCAG
# 2's, 1..21; 4.5 is its minimum for body text), whatever the palette: colours chosen for
# a light window (dark red, slate) all but vanish on a dark one's background.
TEXT_CONTRAST = 4.5
# Words dimmed on purpose (the page words a quote left out) stay this readable: the
# dimmed grey's own contrast on the light window's white (3.2), WCAG's floor for large
# text and marks.
DIMMED_CONTRAST = 3.0

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def parse_color(text: str) -> QColor | None:
    """A ``#RRGGBB`` string as an opaque QColor, or None when it is not one."""
    if not _HEX.match(text.strip()):
        return None
    return QColor(text.strip())


def distance(a: QColor, b: QColor) -> float:
    return float(((a.red() - b.red()) ** 2 + (a.green() - b.green()) ** 2
                  + (a.blue() - b.blue()) ** 2) ** 0.5)


def distinct(color: QColor, avoid: QColor) -> QColor:
    """``color``, or a darker/lighter shade of it when it is too close to ``avoid``."""
    if distance(color, avoid) >= MIN_DISTANCE:
        return color
    # Move away from the highlight in lightness: darker when the highlight is light.
    darker = avoid.lightnessF() > 0.45
    shade = QColor(color)
    for _ in range(12):
        shade = shade.darker(130) if darker else shade.lighter(130)
        if distance(shade, avoid) >= MIN_DISTANCE:
            return shade
    return QColor("#000000") if darker else QColor("#FFFFFF")


def badge_color(status: BadgeStatus, highlight: QColor) -> QColor:
    """The background of a status badge, kept apart from the highlight colour."""
    return distinct(QColor(BADGE_COLORS.get(status, BADGE_COLORS["pending"])), highlight)


def notice_color(kind: str, highlight: QColor) -> QColor:
    return distinct(QColor(NOTICE_ERROR if kind == "error" else NOTICE_INFO), highlight)


def luminance(color: QColor) -> float:
    """WCAG 2's relative luminance of an opaque colour (0 black .. 1 white)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return (0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF())
            + 0.0722 * linear(color.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2's contrast ratio of two colours (1: the same lightness .. 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def legible(color: QColor, background: QColor, minimum: float = TEXT_CONTRAST) -> QColor:
    """``color``, or the least change of it towards white (on a dark background) or black
    (on a light one) that reads at ``minimum`` contrast on ``background``: the hue kept
    as long as it can be. Black or white always reach 4.5 on one side of any colour."""
    if contrast(color, background) >= minimum:
        return QColor(color)
    white, black = QColor("#FFFFFF"), QColor("#000000")
    end = white if contrast(white, background) >= contrast(black, background) else black
    for step in range(1, 21):
        t = step / 20
        # Rounded to 8 bits a channel before it is measured: that is what is painted.
        mixed = QColor.fromRgbF(color.redF() + t * (end.redF() - color.redF()),
                                color.greenF() + t * (end.greenF() - color.greenF()),
                                color.blueF() + t * (end.blueF() - color.blueF()))
        mixed = QColor(mixed.name())
        if contrast(mixed, background) >= minimum:
            return mixed
    return end
