"""Saving a review file with other writers about: two processes racing on one sidecar lose
no acknowledged decision; a lock held too long is said plainly; a read-only review file is
not replaced; a link is written through; a file nested too deep is refused on read."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from matcher.locks import held
from viewer.state.review import Decisions, EvidenceDecision
from viewer.state.review_store import ReviewStore, SaveError
from viewer.state.sidecar import SidecarError, dumps

REPO = Path(__file__).resolve().parents[2]
RACE = 200  # decisions each of the two racers saves, one save each


def decision(claim: str, note: str = "") -> EvidenceDecision:
    return EvidenceDecision(claim, 0, "confirmed", "a" * 64, note=note, reviewer="t",
                            at="2026-12-01T13:00:00Z")


def racer(path: Path, name: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "tests.viewer.sidecar_writer", "racer",
                             str(path), name, str(RACE)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                            env=env, text=True)


def test_two_processes_racing_lose_no_acknowledged_decision(tmp_path: Path) -> None:
    path = tmp_path / "answer.review.json"
    path.write_bytes(dumps(Decisions("answer.cite")))
    a, b = racer(path, "a"), racer(path, "b")
    outs = [p.communicate(timeout=600) for p in (a, b)]
    assert [p.returncode for p in (a, b)] == [0, 0], [err for _, err in outs]
    acked = {line.split()[1] for out, _ in outs for line in out.splitlines()}
    assert len(acked) == 2 * RACE  # every save returned, so every decision must be there
    saved = {claim for claim, _ in ReviewStore(path).load().evidence}
    assert acked - saved == set()
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []


def test_a_lock_held_too_long_is_said_and_nothing_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from viewer.state import review_store

    monkeypatch.setattr(review_store, "LOCK_TIMEOUT_S", 0.2)
    path = tmp_path / "answer.review.json"
    path.write_bytes(dumps(Decisions("answer.cite")))
    store = ReviewStore(path)
    d = store.load()
    d.evidence[("c1", 0)] = decision("c1")
    holding, release = threading.Event(), threading.Event()

    def other_writer() -> None:  # another process's lock: flock locks are per open file
        with held(path):
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=other_writer)
    thread.start()
    try:
        assert holding.wait(10)
        with pytest.raises(SaveError) as caught:
            store.save(d)
        assert caught.value.kind == "locked" and "another program is saving it" in \
            caught.value.reason and caught.value.path == path
    finally:
        release.set()
        thread.join()
    assert ReviewStore(path).load().evidence == {}
    store.save(d)  # once the other writer is done, the save goes through
    assert ReviewStore(path).load().evidence.keys() == {("c1", 0)}


def test_a_read_only_review_file_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "answer.review.json"
    path.write_bytes(dumps(Decisions("answer.cite")))
    path.chmod(0o444)
    before = path.read_bytes()
    store = ReviewStore(path)
    d = store.load()
    d.evidence[("c1", 0)] = decision("c1")
    for write in (store.save, store.overwrite):
        with pytest.raises(SaveError) as caught:
            write(d)
        assert caught.value.kind == "read_only" and "is read-only" in caught.value.reason
        assert "another name" in caught.value.reason
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444
    elsewhere = tmp_path / "mine.review.json"
    store.save_as(elsewhere, d)  # what the person is offered
    assert ReviewStore(elsewhere).load() == d


def test_a_linked_review_file_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "shared" / "answer.review.json"
    real.parent.mkdir()
    real.write_bytes(dumps(Decisions("answer.cite")))
    real.chmod(0o640)
    link = tmp_path / "answer.review.json"
    link.symlink_to(real)
    store = ReviewStore(link)
    d = store.load()
    d.evidence[("c1", 0)] = decision("c1", "through the link")
    store.save(d)
    d.evidence[("c2", 0)] = decision("c2")
    store.save(d)  # the second save sees its own first one, not a conflict
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert ReviewStore(real).load() == d and stat.S_IMODE(real.stat().st_mode) == 0o640


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("extra, said", [
    (nested(980), "JSON nested more than 100 levels deep"),
    (nested(101), "JSON nested more than 100 levels deep"),
    ('"\\ud800 a lone surrogate"', "holds a lone surrogate (\\ud800)"),
])
def test_a_review_file_beyond_the_limits_is_refused_on_read(
        tmp_path: Path, extra: str, said: str) -> None:
    path = tmp_path / "answer.review.json"
    body = json.loads(dumps(Decisions("answer.cite")))
    text = json.dumps(body)[:-1] + f', "x-extra": {extra}}}'
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SidecarError) as caught:
        ReviewStore(path).load()
    assert caught.value.path == path
    assert any((where == "$" or where.startswith("$.x-extra")) and said in msg
               for where, msg in caught.value.problems), caught.value.problems


def test_a_review_file_nested_within_the_limit_is_read_and_saved(tmp_path: Path) -> None:
    path = tmp_path / "answer.review.json"
    body = json.loads(dumps(Decisions("answer.cite")))
    path.write_text(json.dumps(body)[:-1] + f', "x-extra": {nested(90)}}}')
    store = ReviewStore(path)
    d = store.load()
    d.evidence[("c1", 0)] = decision("c1")
    store.save(d)
    assert json.loads(path.read_text())["x-extra"] == json.loads(nested(90))
