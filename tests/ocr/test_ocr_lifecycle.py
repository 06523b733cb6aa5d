"""``citeview prepare`` killed or stopped at any moment: no worker or tesseract outlives it,
no page image or tesseract file stays in $TMPDIR, and what was stored is whole."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from conftest import PdfMaker, tesseract_or_skip

REPO = Path(__file__).resolve().parents[2]
DEADLINE_SECONDS = 60.0  # generous: the machine may be shared and busy


@pytest.fixture(autouse=True)
def _needs_tesseract() -> None:
    tesseract_or_skip()


def session_processes(sid: int) -> list[psutil.Process]:
    """Every live process of a session (zombies, already dead, excluded)."""
    found = []
    for p in psutil.process_iter(["status"]):
        try:
            if os.getsid(p.pid) == sid and p.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(p)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


def files_under(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*"))


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


class PrepareRun:
    """A ``citeview prepare`` in its own session, over four 3-page scans at 300 dpi (slow
    enough to be caught mid-page), with its own $TMPDIR."""

    def __init__(self, scan_pdf: PdfMaker, tmp_path: Path) -> None:
        self.docs = tmp_path / "docs"
        for i in range(4):
            scan_pdf(f"doc{i}.pdf", folder=self.docs, pages=3)
        self.tmp = tmp_path / "tmpdir"
        self.tmp.mkdir()
        self.store = tmp_path / "store"
        env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(self.tmp)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "matcher.ocr.cli", str(self.docs), "--store",
             str(self.store), "--dpi", "300", "--jobs", "2"],
            env=env, cwd=REPO, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.sid = self.proc.pid  # a new session's id is its leader's pid

    def reading(self) -> list[psutil.Process]:
        """The tesseract processes reading a page image (not checking the version)."""
        found = []
        for p in session_processes(self.sid):
            try:
                if p.name() == "tesseract" and any("page.pgm" in a for a in p.cmdline()):
                    found.append(p)
            except psutil.Error:
                continue
        return found

    def wait_until_tesseract_runs(self) -> None:
        def running() -> bool:
            assert self.proc.poll() is None, "prepare ended before it could be stopped"
            return bool(self.reading())
        wait_for(running, "a tesseract to read a page")

    def entries(self) -> list[Path]:
        return sorted(self.store.rglob("page-*.json"))

    def close(self) -> None:
        for p in session_processes(self.sid):
            p.kill()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()


@pytest.fixture
def run(scan_pdf: PdfMaker, tmp_path: Path):  # type: ignore[no-untyped-def]
    r = PrepareRun(scan_pdf, tmp_path)
    yield r
    r.close()


def assert_nothing_left(run: PrepareRun) -> None:
    wait_for(lambda: not session_processes(run.sid), "every worker and tesseract to end")
    wait_for(lambda: not files_under(run.tmp), f"{run.tmp} to be empty")
    assert not list(run.store.rglob("*.tmp"))
    for entry in run.entries():
        assert json.loads(entry.read_text())["format"] == 1  # whole entries only


def test_kill_9_of_the_parent_takes_the_workers_and_their_files(run: PrepareRun) -> None:
    run.wait_until_tesseract_runs()
    assert any(files_under(run.tmp))  # page images and tesseract files, mid-page
    os.kill(run.proc.pid, signal.SIGKILL)
    run.proc.wait(timeout=DEADLINE_SECONDS)
    assert_nothing_left(run)


def test_sigterm_to_the_parent_stops_the_run_cleanly(run: PrepareRun) -> None:
    run.wait_until_tesseract_runs()
    os.kill(run.proc.pid, signal.SIGTERM)
    _, err = run.proc.communicate(timeout=DEADLINE_SECONDS)
    assert run.proc.returncode == 143, err
    assert "Terminated: " in err and "Run the same command again" in err
    assert "Traceback" not in err
    assert_nothing_left(run)


def test_sigterm_to_the_whole_group_stops_the_run_cleanly(run: PrepareRun) -> None:
    run.wait_until_tesseract_runs()
    os.killpg(run.proc.pid, signal.SIGTERM)
    _, err = run.proc.communicate(timeout=DEADLINE_SECONDS)
    assert run.proc.returncode == 143 and "Traceback" not in err, err
    assert_nothing_left(run)


def test_a_worker_killed_outright_leaves_no_files_once_the_run_ends(run: PrepareRun) -> None:
    run.wait_until_tesseract_runs()
    run.reading()[0].parent().kill()  # the worker, SIGKILL: it cannot clean up after itself
    _, err = run.proc.communicate(timeout=DEADLINE_SECONDS * 5)
    # Its unfinished pages are tried once more on a fresh pool, and all get done.
    assert run.proc.returncode == 0 and "Traceback" not in err, err
    assert "A worker died" in err and "failed:" not in err
    assert len(run.entries()) == 12
    assert_nothing_left(run)


def test_a_finished_run_leaves_nothing_behind(run: PrepareRun) -> None:
    _, err = run.proc.communicate(timeout=DEADLINE_SECONDS * 5)
    assert run.proc.returncode == 0, err
    assert len(run.entries()) == 12
    assert_nothing_left(run)
