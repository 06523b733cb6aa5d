"""Windows fit the screen at any scale factor: the first one no larger than the screen's
available area and centred in it, a geometry remembered elsewhere fitted, cascaded windows
wholly on screen. Each case runs citeview's own placing in a process of its own on an
offscreen screen of a given size (Qt's offscreen platform, configured by a JSON file), at
QT_SCALE_FACTOR 1 and 2; and a screenshot run at scale 2 on a 1600×1000 screen is no
larger than that screen."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

from viewer.window.screen_fit import CASCADE_OFFSET, DEFAULT_SIZE

REPO = Path(__file__).resolve().parents[2]


def screen_env(tmp_path: Path, width: int, height: int, scale: int) -> dict[str, str]:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "probe", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    return dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
                QT_SCALE_FACTOR=str(scale), PYTHONPATH=str(REPO),
                XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
                XDG_CACHE_HOME=str(tmp_path / "cache"))


def probe(tmp_path: Path, width: int, height: int, scale: int, count: int, *extra: str
          ) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "tests.viewer.fit_probe", str(count), *extra],
                         env=screen_env(tmp_path, width, height, scale), cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def inside(area: QRect, r: list[int]) -> bool:
    return area.contains(QRect(*r))


@pytest.mark.parametrize(("width", "height", "scale"), [(1600, 1000, 2), (1600, 1000, 1),
                                                         (1024, 768, 2), (2560, 1440, 2)])
@pytest.mark.parametrize("remembered", [False, True], ids=["fresh", "remembered-big"])
def test_every_window_is_wholly_on_the_screen(tmp_path: Path, width: int, height: int,
                                              scale: int, remembered: bool) -> None:
    said = probe(tmp_path, width, height, scale, 5, *(["big"] if remembered else []))
    assert said["dpr"] == scale
    area = QRect(*said["area"])
    assert (area.width(), area.height()) == (width // scale, height // scale)
    for window in said["windows"]:
        assert inside(area, window["frame"]), (area, window)
    # First placed: the default size where the screen has room for it, centred.
    x, y, w, h = said["placed"]
    assert w <= DEFAULT_SIZE.width() and h <= DEFAULT_SIZE.height()
    if area.width() > DEFAULT_SIZE.width() + 40 and area.height() > DEFAULT_SIZE.height() + 60:
        assert (w, h) == (DEFAULT_SIZE.width(), DEFAULT_SIZE.height())
    left, right = x - area.x(), area.x() + area.width() - (x + w)
    top, bottom = y - area.y(), area.y() + area.height() - (y + h)
    assert abs(left - right) <= 20 and abs(top - bottom) <= 60  # centred (a frame's guess)


def test_windows_cascade_where_there_is_room(tmp_path: Path) -> None:
    said = probe(tmp_path, 2560, 1440, 1, 4)
    frames = [QRect(*w["frame"]) for w in said["windows"]]
    steps = {(b.x() - a.x(), b.y() - a.y()) for a, b in itertools.pairwise(frames)}
    assert (CASCADE_OFFSET, CASCADE_OFFSET) in steps


def test_the_first_window_at_scale_2_on_a_1600_by_1000_screen(tmp_path: Path) -> None:
    """The issue's case: it was 2560×1720 device pixels, its panels off screen."""
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    png = tmp_path / "demo.png"
    out = subprocess.run([sys.executable, "-m", "viewer.app", "--demo", "--claim", "c3",
                          "--screenshot", str(png)], env=screen_env(tmp_path, 1600, 1000, 2),
                         cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    image = QImage(str(png))
    assert 0 < image.width() <= 1600 and 0 < image.height() <= 1000, image.size()
