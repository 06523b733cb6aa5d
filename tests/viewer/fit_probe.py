"""Open windows as citeview does and print where they went, as one JSON line.

``python -m tests.viewer.fit_probe N [big]`` (run by the tests with ``QT_SCALE_FACTOR=2``
on an offscreen screen of a given size): the first window as an interactive start places
it (:func:`viewer.window.screen_fit.place_first`; with ``big``, then a geometry
remembered on a larger screen restored and fitted), then ``N - 1`` more cascaded after
it as the window set opens them. Prints the screen's available area and each window's
frame and client rectangles, in logical pixels, and the device pixel ratio.
"""

from __future__ import annotations

import json
import sys
import tempfile

from PySide6.QtCore import QEventLoop, QRect, QSettings
from PySide6.QtWidgets import QApplication

from viewer.window.screen_fit import available_area, keep_on_screen, place_first
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow
from viewer.window.windows import Application, WindowSet


def rect(r: QRect) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def main(count: int, big: bool) -> int:
    app = Application(sys.argv[:1])
    folder = tempfile.mkdtemp()
    prefs = Preferences(QSettings(f"{folder}/citeview.ini", QSettings.Format.IniFormat))
    if big:  # a geometry remembered on a larger screen: 2400×1500 at (300, 200)
        other = MainWindow(prefs, interactive=False)
        other.setGeometry(300, 200, 2400, 1500)
        prefs.set_geometry(other.saveGeometry())
        other.deleteLater()
    first = MainWindow(prefs, interactive=False)
    place_first(first)
    placed = first.geometry()
    first.restore_layout()
    keep_on_screen(first)
    first.show()
    windows = WindowSet(app, first)
    for _ in range(count - 1):
        windows.new_window()
    QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 100)
    print(json.dumps({
        "dpr": first.devicePixelRatioF(),
        "area": rect(available_area(first)),
        "placed": rect(placed),
        "windows": [{"frame": rect(w.frameGeometry()), "client": rect(w.geometry())}
                    for w in windows.windows()],
    }))
    for w in windows.windows():
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), sys.argv[2:3] == ["big"]))
