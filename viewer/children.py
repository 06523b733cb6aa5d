"""How the viewer's child processes (check and render) are started and stopped. No Qt.

Both speak over a :mod:`multiprocessing` connection and leave when they read None.
"""

from __future__ import annotations

import multiprocessing
import sys
from typing import Any

# Seconds a child is given to leave when asked, and again after it is terminated.
STOP_TIMEOUT_S = 2.0


def context() -> Any:
    """fork on Linux: the child starts in milliseconds and, started before Qt is imported
    (as ``citeview`` does), inherits no threads; a spawned interpreter would spend a good
    part of a second on imports first. spawn elsewhere."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def stop(process: Any, conn: Any) -> None:
    """Ask a child to leave (None on its connection), wait, terminate it if it does not."""
    try:
        conn.send(None)
    except (OSError, ValueError):  # it is gone already
        pass
    process.join(STOP_TIMEOUT_S)
    if process.is_alive():
        process.terminate()
        process.join(STOP_TIMEOUT_S)
