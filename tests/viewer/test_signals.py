"""Ctrl-C and SIGTERM close a real citeview's windows as its close button would, and quit."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.viewer.test_instance import (  # noqa: F401  (fixtures used by name)
    Running,
    ask_status,
    running,
    runtime,
    viewers,
)


@pytest.mark.parametrize(("signum", "whole_group"), [
    (signal.SIGINT, True),    # Ctrl-C in a terminal reaches the process and its children
    (signal.SIGTERM, False),  # a session ending, or `kill PID`
])
def test_a_signal_closes_the_windows_and_quits(running: Running, qtbot: Any,  # noqa: F811
                                               tmp_path: Path,
                                               signum: int, whole_group: bool) -> None:
    qtbot.waitUntil(lambda: ask_status(running.sock)["windows"][0]["checked"], timeout=60000)
    gui = psutil.Process(running.process.pid)
    children = gui.children(recursive=True)
    assert len(children) >= 2  # the check and render processes
    settings = tmp_path / "config" / "citeview" / "citeview.ini"
    assert not settings.exists() or "geometry" not in settings.read_text()

    for p in ([gui, *children] if whole_group else [gui]):
        os.kill(p.pid, signum)
    status = running.process.wait(timeout=30)

    assert status == 128 + signum
    stderr = running.process.stderr.read() if running.process.stderr else ""
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert "QThread: Destroyed" not in stderr, stderr
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == []
    # The window's close ran: it remembered its geometry, as on a click on its close button.
    assert "geometry" in settings.read_text()
    assert not running.sock.exists()  # and it stopped listening for later launches
