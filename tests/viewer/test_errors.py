"""Unexpected errors become a plain message and a log entry, never a traceback dialog."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from viewer.errors import install_excepthook, plain_message, setup_logging


def test_hook_shows_a_sentence_and_logs_the_traceback(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    log_path = setup_logging(tmp_path / "logs" / "citeview.log")
    assert log_path is not None
    shown: list[str] = []
    hook = install_excepthook(shown.append, log_path)
    assert sys.excepthook is hook
    try:
        raise ValueError("the render cache is confused")
    except ValueError as exc:
        hook(type(exc), exc, exc.__traceback__)
    assert shown == [f"Something went wrong: the render cache is confused\n\n"
                     f"The details were written to {log_path}."]
    assert "Traceback" not in shown[0]
    for handler in logging.getLogger().handlers:
        handler.flush()
    logged = log_path.read_text()
    assert "Traceback" in logged and "the render cache is confused" in logged
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "baseFilename", None) == str(log_path):
            root.removeHandler(handler)
            handler.close()


def test_a_failing_message_box_does_not_recurse(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    calls: list[str] = []

    def broken(message: str) -> None:
        calls.append(message)
        raise RuntimeError("no display")

    hook = install_excepthook(broken, None)
    hook(KeyError, KeyError("x"), None)
    hook(KeyError, KeyError("y"), None)
    assert len(calls) == 2


def test_plain_message_without_text() -> None:
    assert plain_message(RuntimeError(), None) == "Something went wrong: RuntimeError"
