"""SIGTERM reaches a real citeview while its check process is busy with one claim of
10,000 evidence items (a check of minutes): the viewer exits 143 and leaves no process."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from tests.viewer.test_instance import (  # noqa: F401  (fixtures used by name)
    ask_status,
    env_for,
    runtime,
    status_or_none,
    viewers,
)

from .helpers import paragraph_lines, text_pdf, write_citations

ITEMS = 10_000
PAGES = 20
# Generous: the promise is "promptly", not a speed; a loaded machine must not fail it.
EXIT_LIMIT_S = 30


def many_items(folder: Path) -> Path:
    """One claim quoting the lines of a 20-page PDF again and again, 10,000 items."""
    text_pdf(folder / "policy.pdf", pages=PAGES)
    lines = [(n + 1, line) for n in range(PAGES) for line in paragraph_lines(n, 40)]
    evidence = [{"document": "policy", "page": lines[k % len(lines)][0],
                 "quote": lines[k % len(lines)][1]} for k in range(ITEMS)]
    return write_citations(folder / "many.cite", "policy.pdf",
                           [{"id": "c1", "text": "many", "evidence": evidence}])


def test_sigterm_while_checking_ten_thousand_items_exits_143(
        tmp_path: Path, runtime: Path, qtbot: Any,  # noqa: F811 (the fixtures)
        viewers: Callable[..., Any]) -> None:  # noqa: F811
    cite = many_items(tmp_path)
    env = env_for(runtime, tmp_path)
    sock = runtime / "citeview-offscreen.socket"
    process = viewers(str(cite), "--size", "800x600", env=env, cwd=tmp_path)
    qtbot.waitUntil(lambda: status_or_none(sock) is not None, timeout=60000)
    gui = psutil.Process(process.pid)

    def checking() -> bool:
        window = ask_status(sock)["windows"][0]
        busy = [c for c in gui.children(recursive=True) if c.cpu_percent(0.05) > 0]
        return bool(window["opened"]) and bool(busy)

    qtbot.waitUntil(checking, timeout=60000)
    assert not ask_status(sock)["windows"][0]["checked"]  # signalled mid-check
    children = gui.children(recursive=True)

    os.kill(process.pid, signal.SIGTERM)
    status = process.wait(timeout=EXIT_LIMIT_S)

    assert status == 128 + signal.SIGTERM
    stderr = process.stderr.read() if process.stderr else ""
    assert "Traceback" not in stderr, stderr
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == []
