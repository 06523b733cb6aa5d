"""Decisions survive the writer being killed at any moment, and a disk that refuses writes.

A writer process saves decisions in a loop, printing each one once its save returned; it
is killed with SIGKILL at random moments, 500 times. After every kill the sidecar must
parse, and hold every decision printed before the kill (the current value, or an earlier
one kept in the history). A full disk (a small tmpfs, filled) and a file-size limit each
make a save fail with a plain reason, the file on disk as it was, no temporary file left.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from viewer.state.review import Decisions, EvidenceDecision
from viewer.state.review_store import ReviewStore, SaveError
from viewer.state.sidecar import dumps, loads

from .fsutil import fill, full_disk

REPO = Path(__file__).resolve().parents[2]
KILLS = 500
# A fresh sidecar every so many kills, so each save stays small and the test quick.
FRESH_EVERY = 50
# After how many acknowledged saves (at most) a writer is killed, and how long after the
# last one (at most, seconds): together, kills land anywhere in the save cycle.
MAX_ACKS, MAX_DELAY_S = 4, 0.003
# Only to catch a writer that hangs: an fsync on a disk busy with other writes (a bundle
# being built beside this test) has been seen to take many seconds.
READ_TIMEOUT_S = 90.0


def writer(*args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "tests.viewer.sidecar_writer", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO, env=env)


class Lines:
    """Lines from a pipe, each read with a time limit (a hung writer fails the test).

    Read straight from the descriptor into a buffer of its own: a buffered ``readline``
    after ``select`` can take two lines from the pipe at once, and the second then waits in
    Python's buffer while ``select`` waits on an empty pipe (the writer, having said
    "dead", says nothing more)."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.fd = pipe.fileno()
        self.buffer = b""

    def next(self) -> list[str]:
        deadline = time.monotonic() + READ_TIMEOUT_S
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"the writer said nothing for {READ_TIMEOUT_S:.0f} s")
            chunk = os.read(self.fd, 1 << 16)
            assert chunk, "the writer process ended"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode().split()


def order(note: str) -> tuple[int, int]:
    round_no, seq = note.split(":")
    return int(round_no), int(seq)


def check_survivors(path: Path, acked: dict[str, str], every: set[str]) -> None:
    """The sidecar parses and holds every acknowledged decision."""
    if not every:
        return  # nothing acknowledged yet: the file may not even exist
    decisions = loads(path.read_bytes(), path=path)
    current = {claim: d.note for (claim, _), d in decisions.evidence.items()}
    earlier = {h["previous"]["note"] for h in decisions.history
               if isinstance(h, dict) and "previous" in h}
    earlier |= {h.previous.note for h in decisions.history if not isinstance(h, dict)}
    assert every <= set(current.values()) | earlier, "an acknowledged decision was lost"
    for claim, note in acked.items():  # the latest acknowledged, or one made after it
        assert order(current[claim]) >= order(note)


def spin(seconds: float) -> None:
    """Wait a moment without giving up the core: the kill's timing is the point."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_decisions_survive_kill_9_at_random_moments(tmp_path: Path) -> None:
    path = tmp_path / "answer.review.json"
    proc = writer("forker", str(path))
    assert proc.stdin is not None and proc.stdout is not None
    lines = Lines(proc.stdout)
    rng = random.Random(20261201)
    acked: dict[str, str] = {}
    every: set[str] = set()
    leftovers = 0
    try:
        for round_no in range(KILLS):
            if round_no % FRESH_EVERY == 0:
                path.unlink(missing_ok=True)
                acked.clear()
                every.clear()
            proc.stdin.write(f"go {round_no}\n".encode())
            proc.stdin.flush()
            word, pid = lines.next()
            assert word == "pid"
            for _ in range(rng.randrange(MAX_ACKS + 1)):
                _, claim, note = lines.next()
                acked[claim] = note
                every.add(note)
            spin(rng.uniform(0, MAX_DELAY_S))
            os.kill(int(pid), signal.SIGKILL)
            while (said := lines.next())[0] != "dead":
                _, claim, note = said  # acknowledged before it died: it counts too
                acked[claim] = note
                every.add(note)
            leftovers += any(n.endswith(".tmp") for n in os.listdir(tmp_path))
            check_survivors(path, acked, every)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    # Kills landed mid-save (a temporary file was left), and the next save cleared them.
    assert leftovers > 0
    store = ReviewStore(path)
    store.save(store.load())
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []


def some_decisions() -> Decisions:
    d = Decisions("answer.cite")
    for i in range(5):
        d.evidence[(f"c{i}", 0)] = EvidenceDecision(f"c{i}", 0, "confirmed", "a" * 64,
                                                    note="kept")
    return d


def test_a_file_size_limit_fails_the_save_plainly_and_keeps_the_file(tmp_path: Path) -> None:
    path = tmp_path / "answer.review.json"
    ReviewStore(path).save(some_decisions())
    before = path.read_bytes()
    proc = writer("limited", str(path), str(len(before) + 200))
    out, _ = proc.communicate(timeout=60)
    said = json.loads(out)
    assert said == {"saved": False, "path": str(path), "reason": "the file would be larger "
                    "than this program may write (a file-size limit)"}
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["answer.review.json"]


def test_a_full_disk_fails_the_save_plainly_and_keeps_the_file(tmp_path: Path) -> None:
    with full_disk(tmp_path / "disk") as disk:
        path = disk / "answer.review.json"
        store = ReviewStore(path)
        decisions = some_decisions()
        store.save(decisions)
        before = path.read_bytes()
        filler = fill(disk)
        decisions.evidence[("c9", 0)] = EvidenceDecision("c9", 0, "absent", "b" * 64,
                                                         note="n" * 4000)
        with pytest.raises(SaveError) as caught:
            store.save(decisions)
        assert caught.value.reason == "the disk is full"
        assert path.read_bytes() == before
        assert sorted(os.listdir(disk)) == ["answer.review.json", "filler.bin"]
        filler.unlink()  # space again: the decisions kept in memory are saved whole
        store.save(decisions)
        assert path.read_bytes() == dumps(decisions)
