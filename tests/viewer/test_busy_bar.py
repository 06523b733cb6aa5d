"""The status bar's progress: work starting, ending or changing shown at once; its count
shown within PROGRESS_EVERY_MS, as the latest count, with few repaints of the bar."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QPushButton, QStatusBar
from pytestqt.qtbot import QtBot

from viewer.window.controller import Busy
from viewer.window.shell import PROGRESS_EVERY_MS, BusyBar, busy_widgets


class Paints(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def make(qtbot: QtBot) -> tuple[QStatusBar, BusyBar, QPushButton]:
    bar = QStatusBar()
    qtbot.addWidget(bar)
    progress, cancel = busy_widgets(bar, lambda: None)
    bar.resize(600, 30)
    bar.show()
    qtbot.waitExposed(bar)
    return bar, BusyBar(progress, cancel), cancel


def test_a_count_racing_on_is_shown_late_by_at_most_a_beat_and_painted_seldom(
        qtbot: QtBot) -> None:
    _bar, busy, cancel = make(qtbot)
    paints = Paints()
    busy.progress.installEventFilter(paints)
    busy.show(Busy("Checking %v/500", 0, 500, cancellable=True))
    assert busy.progress.isVisible() and cancel.isVisible()  # at once
    assert busy.progress.format() == "Checking %v/500"
    qtbot.wait(PROGRESS_EVERY_MS)
    before = paints.count
    for done in range(1, 501):  # a check's items, far faster than a person can read
        busy.show(Busy("Checking %v/500", done, 500, cancellable=True))
    assert busy.progress.value() < 500  # not yet: the bar catches up on its beat
    qtbot.waitUntil(lambda: busy.progress.value() == 500, timeout=PROGRESS_EVERY_MS * 10)
    assert paints.count - before < 20  # was one repaint per count
    busy.show(None)  # the work ended: hidden at once
    assert not busy.progress.isVisible() and not cancel.isVisible()
    qtbot.wait(PROGRESS_EVERY_MS * 2)
    assert not busy.progress.isVisible()  # no late count brings it back


def test_other_work_and_its_label_are_shown_at_once(qtbot: QtBot) -> None:
    _bar, busy, cancel = make(qtbot)
    busy.show(Busy("Checking %v/4", 1, 4, cancellable=True))
    busy.show(Busy("Exporting %v/9", 2, 9))
    assert (busy.progress.format(), busy.progress.value(), busy.progress.maximum()) == (
        "Exporting %v/9", 2, 9)
    assert not cancel.isVisible()
    busy.show(Busy("Opening"))  # no count known: a busy indicator, at once
    assert busy.progress.maximum() == 0 and busy.progress.format() == "Opening"
