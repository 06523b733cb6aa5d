"""Relocate a quote, or copy words, by dragging in a window of its own process, and
print the result.

``python -m tests.viewer.drag_probe CITATIONS [copy]`` (run with ``QT_SCALE_FACTOR=2`` by
the tests): opens the file, presses R, drags from the fourth word of page 2's ninth line
to the second word of its eleventh, presses Enter, and prints one JSON line: the device
pixel ratio, the relocated rectangles and those PyMuPDF's own words give. With ``copy``
it drags the same way without R, presses Ctrl+C and prints what the clipboard holds.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEventLoop, QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow
from viewer.window.windows import Application

from .review_helpers import (
    drag,
    open_and_check,
    pdf_words,
    press,
    relocate_by_drag,
    show_page,
    word_centre,
    word_index,
)


class Bot:
    """The few pytest-qt calls the helpers make, done with QTest and the event loop."""

    def waitUntil(self, ready: Callable[[], object], timeout: int = 5000) -> None:
        end = time.monotonic() + timeout / 1000
        while not ready():
            if time.monotonic() > end:
                raise TimeoutError("waited too long")
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)

    def keyClick(self, widget: QWidget, key: Qt.Key,
                 modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(widget, key, modifiers)

    def mousePress(self, widget: QWidget, button: Qt.MouseButton,
                   pos: QPoint) -> None:
        QTest.mousePress(widget, button, Qt.KeyboardModifier.NoModifier, pos)

    def mouseMove(self, widget: QWidget, pos: QPoint) -> None:
        QTest.mouseMove(widget, pos)

    def mouseRelease(self, widget: QWidget, button: Qt.MouseButton,
                     pos: QPoint) -> None:
        QTest.mouseRelease(widget, button, Qt.KeyboardModifier.NoModifier, pos)


def copy_by_drag(bot: Bot, window: MainWindow, pdf: Path) -> str:
    """Drag across the same words with no relocation under way, and copy them."""
    show_page(bot, window, 1)  # type: ignore[arg-type]
    cache = window.selecting.cache
    cache.words_of(1)
    bot.waitUntil(lambda: cache.ready(1))
    words = pdf_words(pdf, 1)
    drag(bot, window, word_centre(window, pdf, 1, words[word_index(pdf, 1, 9, 3)]),  # type: ignore[arg-type]
         word_centre(window, pdf, 1, words[word_index(pdf, 1, 11, 1)]))
    bot.waitUntil(lambda: window.selecting.selection is not None)
    press(bot, window, "Ctrl+C")  # type: ignore[arg-type]
    return QApplication.clipboard().text()


def main(cite: Path, mode: str = "relocate") -> int:
    app = Application(sys.argv[:1])
    folder = tempfile.mkdtemp()
    window = MainWindow(Preferences(QSettings(f"{folder}/citeview.ini",
                                              QSettings.Format.IniFormat)),
                        interactive=False)
    window.resize(1000, 760)
    window.show()
    bot = Bot()
    try:
        open_and_check(bot, window, cite)  # type: ignore[arg-type]
        window.view.set_zoom(1.5)
        pdf = cite.parent / "policy.pdf"
        if mode == "copy":
            print(json.dumps({"dpr": window.devicePixelRatioF(),
                              "copied": copy_by_drag(bot, window, pdf)}))
            return 0
        expected = relocate_by_drag(bot, window, pdf, 1,  # type: ignore[arg-type]
                                    word_index(pdf, 1, 9, 3), word_index(pdf, 1, 11, 1))
        decision = window.review.controller.review.decisions.evidence[("lost", 0)]
        print(json.dumps({"dpr": window.devicePixelRatioF(),
                          "rects": [list(r) for r in decision.rects],
                          "expected": [list(r) for r in expected]}))
    finally:
        window.close()
        app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), *sys.argv[2:3]))
