"""Several windows in one process: each its own file, one set of preferences, cascaded;
a file already open is raised, not opened twice; macOS's QFileOpenEvent opens a file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QRect, QSize
from PySide6.QtGui import QColor, QFileOpenEvent
from PySide6.QtWidgets import QApplication

from viewer.window.screen_fit import CASCADE_OFFSET, cascaded
from viewer.window.shell import MainWindow
from viewer.window.windows import Application, WindowSet, shown_file

from .helpers import paragraph_lines, text_pdf, write_citations


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    pdf = text_pdf(tmp_path / "policy.pdf", pages=2)
    lines = paragraph_lines(0, 40)
    claims = [{"id": "c1", "text": "t", "evidence": [
        {"document": "policy", "page": 1, "quote": lines[3]}]},
              {"id": "c2", "text": "t", "evidence": [
        {"document": "policy", "page": 1, "quote": lines[7]}]}]
    return (write_citations(tmp_path / "a.cite", "policy.pdf", claims),
            write_citations(tmp_path / "b.cite", "policy.pdf", claims), pdf)


@pytest.fixture
def window_set(make_window: Callable[..., MainWindow], qapp: QApplication
               ) -> Iterator[WindowSet]:
    first = make_window((400, 300), interactive=False)
    first.move(10, 10)
    windows = WindowSet(qapp, first)
    yield windows
    for window in windows.windows():
        window.close()
    windows.setParent(None)  # the next test's set takes the file-open events
    windows.deleteLater()


def opened(window: MainWindow) -> Callable[[], bool]:
    return lambda: window.session.report is not None and not window.is_busy()


def test_each_window_keeps_its_own_file(window_set: WindowSet, files: tuple[Path, ...],
                                        qtbot: Any) -> None:
    a, b, pdf = files
    first = window_set.open(a)
    assert first is window_set.windows()[0]  # the empty window is used first
    second = window_set.open(b)
    third = window_set.open(pdf)
    assert len({id(first), id(second), id(third)}) == 3
    qtbot.waitUntil(opened(first), timeout=30000)
    qtbot.waitUntil(opened(second), timeout=30000)
    qtbot.waitUntil(lambda: third.view.page_count() == 2, timeout=30000)
    assert [shown_file(w) for w in window_set.windows()] == [a.resolve(), b.resolve(),
                                                             pdf.resolve()]
    assert second.windowTitle() == "b.cite — citeview"
    # Selecting in one window leaves the other alone.
    second.session.select("c2")
    assert second.session.selected == "c2" and first.session.selected == "c1"


def test_a_window_still_opening_its_file_is_not_taken(window_set: WindowSet,
                                                      files: tuple[Path, ...],
                                                      qtbot: Any) -> None:
    # As at start-up: the first window was given its file before the set took over.
    a, b, _ = files
    first = window_set.windows()[0]
    first.open_path(a)
    second = window_set.open(b)
    assert second is not first
    qtbot.waitUntil(opened(first), timeout=30000)
    qtbot.waitUntil(opened(second), timeout=30000)
    assert (shown_file(first), shown_file(second)) == (a.resolve(), b.resolve())


def test_a_file_already_open_raises_its_window(window_set: WindowSet,
                                               files: tuple[Path, ...], qtbot: Any) -> None:
    a, b, _ = files
    first = window_set.open(a)
    second = window_set.open(b)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is second, timeout=5000)
    # Asked again by another spelling of the same path, before or after it has opened.
    again = window_set.open(a.parent / "." / a.name, {"claim": "c2"})
    assert again is first and len(window_set.windows()) == 2
    qtbot.waitUntil(lambda: QApplication.activeWindow() is first, timeout=5000)
    qtbot.waitUntil(lambda: first.session.selected == "c2", timeout=30000)


def test_windows_share_preferences_and_cascade(window_set: WindowSet, files: tuple[Path, ...],
                                               qtbot: Any) -> None:
    a, b, _ = files
    first = window_set.open(a)
    first.set_highlight_color(QColor("#33AA55"), remember=True)
    second = window_set.open(b)
    assert second.prefs is first.prefs
    assert second.view.highlighter.color.name() == "#33aa55"  # the remembered colour
    assert second.size() == first.size()
    assert second.pos() - first.pos() == QPoint(CASCADE_OFFSET, CASCADE_OFFSET)


def test_a_closed_window_is_not_reused(window_set: WindowSet, files: tuple[Path, ...],
                                       qtbot: Any) -> None:
    a, b, _ = files
    window_set.open(a)
    second = window_set.open(b)
    qtbot.waitUntil(opened(second), timeout=30000)
    second.close()
    assert len(window_set.windows()) == 1
    reopened = window_set.open(b)
    assert len(window_set.windows()) == 2 and reopened is window_set.windows()[1]
    qtbot.waitUntil(opened(reopened), timeout=30000)


@pytest.mark.parametrize(("previous", "expected"), [
    (QRect(100, 100, 400, 300), QPoint(132, 132)),
    (QRect(700, 100, 400, 300), QPoint(16, 16)),  # would leave the screen on the right
    (QRect(100, 500, 400, 300), QPoint(16, 16)),  # ... at the bottom
])
def test_cascade_stays_on_the_screen(previous: QRect, expected: QPoint) -> None:
    assert cascaded(previous, QSize(400, 300), QRect(0, 0, 1024, 768)) == expected


def test_a_file_open_event_opens_the_file(window_set: WindowSet, files: tuple[Path, ...],
                                          qapp: QApplication, qtbot: Any) -> None:
    # What macOS sends for a document opened from the Finder (or dropped on the dock icon).
    assert isinstance(qapp, Application)
    a, b, _ = files
    QCoreApplication.postEvent(qapp, QFileOpenEvent(str(a)))
    qtbot.waitUntil(lambda: shown_file(window_set.windows()[0]) == a.resolve(), timeout=30000)
    QCoreApplication.postEvent(qapp, QFileOpenEvent(str(b)))
    qtbot.waitUntil(lambda: len(window_set.windows()) == 2
                    and shown_file(window_set.windows()[1]) == b.resolve(), timeout=30000)
    qtbot.waitUntil(opened(window_set.windows()[1]), timeout=30000)
