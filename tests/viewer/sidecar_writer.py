"""A writer of review decisions for the durability tests, run as its own process.

``python -m tests.viewer.sidecar_writer forker SIDECAR``: reads commands on stdin. For
``go N`` it forks a writer (the sidecar module imported once, so each writer starts in
a millisecond), prints ``pid PID``, and once the writer is gone prints ``dead PID``. The
writer loads the sidecar as it is, then saves decisions in a loop, one more each time,
and after each save has returned prints ``ack CLAIM NOTE``: from then on the decision
must survive whatever happens to the writer. The test kills writers at random moments.

``python -m tests.viewer.sidecar_writer racer SIDECAR NAME COUNT``: decides ``COUNT``
claims of its own (``NAME0``, ``NAME1``…) one after the other, saving after each — on a
conflict (another writer saved meanwhile) merging with the file, as the window offers —
and prints ``ack CLAIM`` once the save has returned. Two racers run at once on one file.

``python -m tests.viewer.sidecar_writer limited SIDECAR BYTES``: saves one more decision
under a file-size limit of ``BYTES`` (``RLIMIT_FSIZE``) and prints what happened as JSON.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from pathlib import Path

from viewer.state.review import EvidenceDecision
from viewer.state.review_store import ConflictError, ReviewStore, SaveError

CLAIMS = 40  # decisions cycle over this many claims, so later ones replace earlier ones


def decision(claim: str, note: str) -> EvidenceDecision:
    return EvidenceDecision(claim, 0, "confirmed", "a" * 64, note=note, reviewer="durability",
                            at="2026-12-01T13:00:00Z")


def write_forever(path: Path, round_no: int) -> None:
    store = ReviewStore(path)
    decisions = store.load()
    rng = random.Random(os.getpid())
    for seq in range(1, 10**9):
        claim = f"c{rng.randrange(CLAIMS)}"
        note = f"{round_no}:{seq}"
        decisions.put_evidence((claim, 0), decision(claim, note), by="durability",
                               at="2026-12-01T13:00:00Z")
        store.save(decisions)
        os.write(1, f"ack {claim} {note}\n".encode())


def forker(path: Path) -> None:
    for line in sys.stdin:
        round_no = int(line.split()[1])
        pid = os.fork()
        if pid == 0:
            try:
                write_forever(path, round_no)
            finally:
                os._exit(1)
        os.write(1, f"pid {pid}\n".encode())
        os.waitpid(pid, 0)
        os.write(1, f"dead {pid}\n".encode())


def racer(path: Path, name: str, count: int) -> None:
    store = ReviewStore(path)
    decisions = store.load()
    for i in range(count):
        claim = f"{name}{i}"
        decisions.put_evidence((claim, 0), decision(claim, name), by=name,
                               at="2026-12-01T13:00:00Z")
        try:
            store.save(decisions)
        except ConflictError:
            decisions = store.merge(decisions, by=name, at="2026-12-01T13:00:00Z")
        os.write(1, f"ack {claim}\n".encode())


def limited(path: Path, limit: int) -> None:
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
    store = ReviewStore(path)
    decisions = store.load()
    decisions.put_evidence(("big", 0), decision("big", "x" * (2 * limit)), by="durability",
                           at="2026-12-01T13:00:00Z")
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    try:
        store.save(decisions)
    except SaveError as exc:
        print(json.dumps({"saved": False, "reason": exc.reason, "path": str(exc.path)}))
    else:
        print(json.dumps({"saved": True}))


if __name__ == "__main__":
    mode, target = sys.argv[1], Path(sys.argv[2])
    if mode == "forker":
        forker(target)
    elif mode == "racer":
        racer(target, sys.argv[3], int(sys.argv[4]))
    else:
        limited(target, int(sys.argv[3]))
