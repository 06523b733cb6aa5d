"""A real Dask cluster on 127.0.0.1 for the batch tests: ``dask scheduler`` and ``dask
worker`` processes started by the test, bounded in time, and always stopped (checked)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.batch_corpus import write_citations_files

BIN = Path(sys.executable).parent
START_SECONDS = 60  # a scheduler or worker that is not up by then fails the test
RUN_SECONDS = 240  # a batch that has not finished by then is a hang


@dataclass
class Cluster:
    """A running scheduler and its workers (``--no-nanny``: a killed worker stays dead)."""

    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def processes(self) -> list[subprocess.Popen[bytes]]:
        return [self.scheduler, *self.workers]


def _wait_for(what: str, test: Any, timeout: float = START_SECONDS) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = test()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Stop the processes and their children; SIGKILL what does not end in 10 s."""
    for p in processes:
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
    for p in processes:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)


@contextlib.contextmanager
def dask_cluster(tmp: Path, *, workers: int = 2, env: dict[str, str] | None = None
                 ) -> Iterator[Cluster]:
    """``dask scheduler`` + ``workers`` ``dask worker`` processes on 127.0.0.1."""
    info = tmp / "scheduler.json"
    penv = {**os.environ, **(env or {})}
    common: dict[str, Any] = {"env": penv, "start_new_session": True,
                              "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
         "--no-dashboard", "--scheduler-file", str(info)], **common)
    cluster = Cluster("", scheduler)
    try:
        cluster.address = _wait_for("the scheduler's start", lambda: info.exists() and
                                    json.loads(info.read_text() or "{}").get("address"))
        for _ in range(workers):
            cluster.workers.append(subprocess.Popen(
                [str(BIN / "dask"), "worker", cluster.address, "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"], **common))
        _wait_for(f"{workers} workers joining", lambda: len(worker_pids(cluster)) == workers)
        yield cluster
    finally:
        stop(cluster.processes())
        left = [p.pid for p in cluster.processes() if psutil.pid_exists(p.pid)
                and psutil.Process(p.pid).status() != psutil.STATUS_ZOMBIE]
        assert not left, f"cluster processes left running: {left}"


def worker_pids(cluster: Cluster) -> dict[str, int]:
    """Each connected worker's address and process id, as the scheduler knows them."""
    from distributed import Client

    try:
        with Client(cluster.address, timeout=10) as client:
            return dict(client.run(os.getpid))
    except (OSError, TimeoutError):
        return {}


def processing(cluster: Cluster) -> dict[str, list[str]]:
    """The task keys each worker is running now."""
    from distributed import Client

    with Client(cluster.address, timeout=10) as client:
        return {w: [str(k) for k in keys] for w, keys in client.processing().items()}


def check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], int]:
    """``citeview check --json PATH`` run in this process: its report and exit status."""
    from viewer.cli import main

    capsys.readouterr()
    status = main(["check", "--json", "--quiet", str(path)])
    out = capsys.readouterr().out
    return json.loads(out), status


def read_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a results file, each of which must be a whole JSON object."""
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "the results file ends in a torn line"
    return [json.loads(line) for line in io.BytesIO(data)]


def batch(*args: str | Path, timeout: float = RUN_SECONDS, mark: str | None = None
          ) -> subprocess.CompletedProcess[str]:
    """Run ``citeview batch`` as a user would (its own process), bounded in time;
    ``mark`` is put in its environment (and so its workers'), to find them after."""
    env = {**os.environ, MARK: mark} if mark else None
    return subprocess.run([str(BIN / "citeview"), "batch", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


MARK = "CITEVIEW_TEST_BATCH_MARK"


def marked_processes(mark: str, *, wait: float = 10.0) -> list[int]:
    """Processes still alive (after ``wait`` s at most) with ``mark`` in their environment."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for p in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if p.environ().get(MARK) == mark and p.status() != psutil.STATUS_ZOMBIE:
                    found.append(p.pid)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def start_batch(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen([str(BIN / "citeview"), "batch", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(autouse=True)
def own_ocr_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The check here, the batch and its workers read one fresh OCR store."""
    store = tmp_path / "ocr-store"
    monkeypatch.setenv("CITEVIEW_OCR_STORE", str(store))
    return store


@pytest.fixture
def answers(tmp_path: Path, corpus: Path) -> list[Path]:
    """Ten citations files over a few corpus PDFs (document sets repeat)."""
    return write_citations_files(tmp_path / "answers", corpus, 10, seed=25)


# Copies of the corpus book a slow file cites, each searched whole: seconds of work on a
# quiet machine (about half a second a copy), so a kill lands while its task runs.
SLOW_COPIES = 6


def slow_answer(folder: Path, corpus: Path) -> Path:
    """A citations file that takes seconds to check: quotes without page hints over
    :data:`SLOW_COPIES` copies of a 352-page book, each a document of its own, so every
    copy's whole index is built (time to kill its worker mid-task)."""
    import random
    import shutil

    from tests.batch_corpus import citations

    book = "text_free_culture_book.pdf"
    copies = folder / "slow-books"
    copies.mkdir(parents=True, exist_ok=True)
    doc = citations(random.Random(3), corpus, [book], 2 * SLOW_COPIES)
    refs = []
    for k in range(SLOW_COPIES):
        shutil.copyfile(corpus / book, copies / f"book-{k}.pdf")
        refs.append({"id": f"d{k}", "path": str(copies / f"book-{k}.pdf")})
    doc["documents"] = refs
    for n, claim in enumerate(doc["claims"]):  # type: ignore[attr-defined]
        for ev in claim["evidence"]:
            ev.pop("page")
            ev["document"] = f"d{n % SLOW_COPIES}"
    path = folder / "slow.cite"
    path.write_text(json.dumps(doc))
    return path
