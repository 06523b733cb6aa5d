"""A chunk's lines lost with the worker that computed them: the batch does not wait on
them forever, and gets them once a worker computes them again (a real scheduler)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.batch.conftest import BIN, RUN_SECONDS, _wait_for, dask_cluster, worker_pids
from viewer.commands.batch import run


def test_lines_lost_with_their_worker_are_computed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import Client, wait

    monkeypatch.setattr(run, "FETCH_SECONDS", 2.0)
    lines = [{"citations": "a.cite", "exit": 0}]
    with dask_cluster(tmp_path, workers=1) as cluster, \
            Client(cluster.address, timeout=10) as client:
        fut = client.submit(list, lines, pure=False)
        wait(fut, timeout=RUN_SECONDS)
        assert fut.status == "finished"
        (pid,) = worker_pids(cluster).values()
        os.kill(pid, signal.SIGKILL)  # it held the only copy of the lines
        assert run.fetched(fut) is None
        assert fut.status != "finished"
        cluster.workers.append(subprocess.Popen(
            [str(BIN / "dask"), "worker", cluster.address, "--nthreads", "1", "--no-nanny",
             "--no-dashboard", "--host", "127.0.0.1"], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_for("a new worker joining", lambda: len(worker_pids(cluster)) == 1)
        assert fut.result(timeout=RUN_SECONDS) == lines
