"""The page view's rectangle fill (viewer.render.view.fill_rect) paints what QPainter's
fillRect paints, pixel for pixel, and leaves the painter as it found it; painting the
demo window makes none of QGradient's enums, which fillRect's overloads made."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QApplication

from viewer.render.view import fill_rect

REPO = Path(__file__).resolve().parents[2]
MODES = [QPainter.CompositionMode.CompositionMode_SourceOver,
         QPainter.CompositionMode.CompositionMode_Difference,
         QPainter.CompositionMode.CompositionMode_Multiply]
_cases: Counter[str] = Counter()


def painted(fill: bool, rect: QRect | QRectF, color: QColor, antialiased: bool,
            scale: float, mode: QPainter.CompositionMode, clipped: bool) -> QImage:
    image = QImage(96, 96, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#3A6EA5"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialiased)
    painter.setTransform(QTransform.fromScale(scale, scale))
    painter.setCompositionMode(mode)
    painter.setPen(QPen(QColor("#FF00FF"), 3))
    if clipped:
        clip = QPainterPath()
        clip.addEllipse(8, 6, 60, 44)
        painter.setClipPath(clip)
    if fill:
        painter.fillRect(rect, color)
    else:
        fill_rect(painter, rect, color)
    # What the painter holds afterwards shows in what it draws next.
    painter.drawLine(0, 90, 90, 0)
    painter.end()
    return image


@settings(max_examples=200, deadline=None)
@given(x=st.floats(-8, 60), y=st.floats(-8, 60), w=st.floats(0, 50), h=st.floats(0, 50),
       whole=st.booleans(), rgba=st.tuples(*[st.integers(0, 255)] * 3,
                                           st.sampled_from([255, 120, 40])),
       antialiased=st.booleans(), scale=st.sampled_from([1.0, 1.5, 2.0]),
       mode=st.sampled_from(MODES), clipped=st.booleans())
def test_fill_rect_paints_what_fill_rect_of_qpainter_paints(
        qapp: QApplication, x: float, y: float, w: float, h: float, whole: bool,
        rgba: tuple[int, int, int, int], antialiased: bool, scale: float,
        mode: QPainter.CompositionMode, clipped: bool) -> None:
    rect: QRect | QRectF = QRect(int(x), int(y), int(w), int(h)) if whole \
        else QRectF(x, y, w, h)
    color = QColor(*rgba)
    args = (rect, color, antialiased, scale, mode, clipped)
    assert painted(False, *args) == painted(True, *args)
    _cases["whole" if whole else "fractional"] += 1
    _cases["antialiased" if antialiased else "aliased"] += 1


def test_fill_cases_were_reached() -> None:
    assert {"whole", "fractional", "antialiased", "aliased"} <= set(_cases), _cases


ENUMS_MADE = """
import enum, sys
made = []
create = enum.EnumType._create_
def logged(cls, class_name, *args, **kwargs):
    made.append(kwargs.get("qualname") or class_name)
    return create(cls, class_name, *args, **kwargs)
enum.EnumType._create_ = logged
from viewer.app import main
code = main(sys.argv[1:])
print(sorted(n for n in made if "Gradient" in n or n in ("Preset", "Spread")))
"""


def test_painting_the_demo_window_makes_no_gradient_enums(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               XDG_CONFIG_HOME=str(tmp_path / "c"), XDG_STATE_HOME=str(tmp_path / "s"))
    done = subprocess.run([sys.executable, "-c", ENUMS_MADE, "--demo", "--claim", "c3",
                           "--screenshot", str(tmp_path / "shot.png")], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "shot.png").is_file()
    assert done.stdout.strip().splitlines()[-1] == "[]"
