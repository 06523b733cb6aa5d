"""Leaving after a window's run (viewer.app.leave): the command's exit status and what it
printed and logged are as they were before it left without the interpreter's teardown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from viewer import app
from viewer.window.screenshot import EXIT_FAILED, EXIT_OK

REPO = Path(__file__).resolve().parents[2]


def command(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "c"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    return subprocess.run([sys.executable, *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("entry", [["-m", "viewer.app"], ["-c", "from viewer.cli import entry; "
                                                                "entry()"]])
def test_a_screenshot_run_leaves_with_its_status_and_what_it_said(
        tmp_path: Path, entry: list[str]) -> None:
    shot = tmp_path / "shot.png"
    done = command(tmp_path, *entry, "--demo", "--claim", "c3", "--screenshot", str(shot))
    assert done.returncode == EXIT_OK, done.stderr
    assert shot.read_bytes().startswith(b"\x89PNG")
    log = tmp_path / "state" / "citeview" / "log" / "citeview.log"
    assert log.is_file()  # the log's handlers were closed by the exit handlers
    refused = command(tmp_path, *entry, "--demo", "--screenshot", str(tmp_path))
    assert refused.returncode == EXIT_FAILED
    assert f"{tmp_path}: is a folder" in refused.stderr  # said before it left


def test_a_subcommand_and_a_window_not_run_leave_as_usual(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "_finished", False)
    with pytest.raises(SystemExit) as leaving:
        app.leave(3)
    assert leaving.value.code == 3
    missing = command(tmp_path, "-c", "from viewer.cli import entry; entry()", "check",
                      str(tmp_path / "none.cite"))
    assert missing.returncode == 2 and "none.cite" in missing.stderr
