"""The window tells a PDF from a citations file by its content, whatever its name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.viewer.helpers import text_pdf
from viewer.window.shell import MainWindow

MakeWindow = Callable[..., MainWindow]


def test_a_pdf_without_the_pdf_suffix_opens_as_a_pdf(qtbot: QtBot, make_window: MakeWindow,
                                                      tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "scan-0001.cite", pages=2)  # misnamed by a scanner's software
    window = make_window()
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.page_count() == 2, timeout=20000)
    assert not window.failed_to_open and not window.left_panel.isVisible()


def test_a_device_is_refused_with_a_message(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    window.open_path(Path("/dev/zero"))  # once read until memory ran out
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert "is a character device, not a regular file" in window.notice.text()
