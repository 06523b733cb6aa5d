"""The window at the sizes people use, down to 800×600, with everything open at once:
the side panel, the find bar, the review panel and a save problem. The pages keep room
to read, no button is squeezed below what its text needs, and the problem's sentence is
as tall as its lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QTextBrowser
from pytestqt.qtbot import QtBot

from viewer.window.shell import MainWindow

from .review_helpers import demo_window, press, sidecar

MakeWindow = Callable[..., MainWindow]
# What the pages keep at the smallest window with every panel open (logical pixels): a
# column of text at fit-width zoom and a dozen of its lines.
MIN_PAGES_WIDTH, MIN_PAGES_HEIGHT = 280, 200


@pytest.mark.parametrize("size", [(800, 600), (1024, 700), (1280, 800)])
def test_everything_open_at_once_fits(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                      size: tuple[int, int]) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, size)
    window.reader.panel.set_shown(True)
    window.reader.find.open()
    window.session.select("c8")
    press(qtbot, window, "C")
    review_file = tmp_path / "demo.review.json"
    other = sidecar(review_file)
    other["claims"].append({"claim": "c9", "support": "partly", "note": "", "reviewer": "amy",
                            "at": "2026-12-01T09:00:00Z"})
    review_file.write_text(json.dumps(other), encoding="utf-8")
    press(qtbot, window, "S")  # the file changed meanwhile: the problem bar shows
    panel = window.review.panel
    qtbot.waitUntil(lambda: panel.problem_bar.isVisible())
    qtbot.waitUntil(lambda: window.reader.panel.splitter.sizes()[0]
                    <= max(window.reader.panel.panel.minimumWidth(), 200))
    window.layout().activate()
    viewport = window.view.viewport()
    assert viewport.width() >= MIN_PAGES_WIDTH and viewport.height() >= MIN_PAGES_HEIGHT, \
        (viewport.width(), viewport.height())
    problem = panel.problem
    assert abs(problem.height() - problem.heightForWidth(problem.width())) <= 2
    assert problem.width() >= panel.width() * 0.8  # the sentence spans the panel
    squeezed = [b.text() for b in window.findChildren(QAbstractButton)
                if b.isVisibleTo(window) and b.text()
                and b.width() < b.minimumSizeHint().width()]
    assert squeezed == []
    # Nothing stands outside the window.
    assert window.centralWidget().geometry().right() < window.width()
    assert window.statusBar().geometry().bottom() < window.height()


def test_a_message_in_the_status_bar_is_whole_beside_the_summary(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (800, 600))
    bar, summary = window.statusBar(), window.reader.summary
    whole = summary.text()
    qtbot.waitUntil(lambda: summary.width() >= summary.fontMetrics().horizontalAdvance(whole))
    message = "Drag across the words meant, then press Enter (Esc cancels)."
    bar.showMessage(message)
    # The bar lays its widgets out in more than one pass: wait for the last one.
    qtbot.waitUntil(lambda: summary.x() > bar.fontMetrics().horizontalAdvance(message)
                    and summary.geometry().right() < bar.width())
    assert summary.x() > bar.fontMetrics().horizontalAdvance(message)
    assert summary.geometry().right() < bar.width()
    assert summary.text() == whole and whole in summary.toolTip()  # cut, whole in its tip
    bar.clearMessage()
    qtbot.waitUntil(lambda: summary.width() >= summary.fontMetrics().horizontalAdvance(whole))


def test_the_shortcut_list_fits_the_smallest_window(qtbot: QtBot, make_window: MakeWindow,
                                                    tmp_path: Path) -> None:
    from viewer.window.actions import shortcuts_dialog

    _cite, window = demo_window(qtbot, make_window, tmp_path, (800, 600))
    dialog = shortcuts_dialog(window)
    qtbot.addWidget(dialog)
    assert dialog.height() <= window.height() - 40 and dialog.width() <= window.width()
    dialog.show()
    qtbot.waitExposed(dialog)
    text = dialog.findChild(QTextBrowser)
    assert text is not None and text.verticalScrollBar().maximum() > 0  # it scrolls instead
