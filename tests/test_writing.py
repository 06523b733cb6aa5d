"""The one writer (matcher.files.write_atomically): only a regular file or nothing is ever
replaced, a link is written through, the mode is kept, and no temporary file outlives a
write — not even one whose writer was killed. Real devices, FIFOs, sockets and links."""

from __future__ import annotations

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.files import (
    WriteError,
    check_output,
    output_target,
    produce_atomically,
    remove_leftovers,
    write_atomically,
    write_bytes_atomically,
)

from .viewer.fsutil import fill, full_disk

REPO = Path(__file__).resolve().parents[1]


def temporaries(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def a_socket(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


def test_a_character_device_is_refused_and_stays_one() -> None:
    before = os.stat("/dev/null")
    for check in (output_target, check_output,
                  lambda p: write_bytes_atomically(p, b"replaced")):
        with pytest.raises(WriteError) as caught:
            check(Path("/dev/null"))
        assert caught.value.kind == "not_regular"
        assert "is a character device, not a regular file" in caught.value.reason
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert after.st_ino == before.st_ino
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]


def test_a_fifo_a_socket_and_a_folder_are_refused_and_left_as_they_are(
        tmp_path: Path) -> None:
    fifo, sock_path, folder = tmp_path / "fifo", tmp_path / "sock", tmp_path / "folder"
    os.mkfifo(fifo)
    sock = a_socket(sock_path)
    folder.mkdir()
    (folder / "inside.txt").write_text("kept")
    try:
        expect = {fifo: ("a FIFO (named pipe)", stat.S_ISFIFO),
                  sock_path: ("a socket", stat.S_ISSOCK),
                  folder: ("a folder", stat.S_ISDIR)}
        for path, (said, is_kind) in expect.items():
            started = time.monotonic()
            with pytest.raises(WriteError, match=re.escape(said)) as caught:
                write_bytes_atomically(path, b"x")  # a FIFO is never opened: no wait
            assert time.monotonic() - started < 5
            assert caught.value.path == path and caught.value.kind == "not_regular"
            assert is_kind(os.lstat(path).st_mode)
        assert (folder / "inside.txt").read_text() == "kept"
        assert temporaries(tmp_path) == []
    finally:
        sock.close()


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real" / "report.csv"
    real.parent.mkdir()
    real.write_bytes(b"old")
    real.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    chain = tmp_path / "chain.csv"
    chain.symlink_to(link)
    assert write_bytes_atomically(chain, b"new") == real
    assert chain.is_symlink() and link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new" and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert temporaries(tmp_path) == [] and temporaries(real.parent) == []


@pytest.mark.parametrize("to", ["nothing", "/dev/null", "fifo", "folder"])
def test_a_link_to_anything_but_a_regular_file_is_refused(tmp_path: Path, to: str) -> None:
    where = {"nothing": tmp_path / "absent", "/dev/null": Path("/dev/null"),
             "fifo": tmp_path / "fifo", "folder": tmp_path}[to]
    if to == "fifo":
        os.mkfifo(where)
    link = tmp_path / "out.html"
    link.symlink_to(where)
    with pytest.raises(WriteError, match=re.escape(f"is a link to {where}")) as caught:
        write_bytes_atomically(link, b"x")
    assert caught.value.kind == "not_regular"
    assert link.is_symlink() and os.readlink(link) == str(where)
    assert not os.path.lexists(tmp_path / "absent") and temporaries(tmp_path) == []


def test_a_read_only_file_is_not_replaced_not_even_by_root(tmp_path: Path) -> None:
    target = tmp_path / "review.json"
    target.write_bytes(b"theirs")
    target.chmod(0o444)
    with pytest.raises(WriteError, match="is read-only") as caught:
        write_bytes_atomically(target, b"mine")
    assert caught.value.kind == "read_only" and "another name" in caught.value.reason
    assert target.read_bytes() == b"theirs" and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_the_mode_of_a_replaced_file_is_kept(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "out.csv"
    target.write_bytes(b"a")
    target.chmod(mode)
    old = os.umask(0o077)
    try:
        write_bytes_atomically(target, b"b")
        fresh = write_bytes_atomically(tmp_path / "new.csv", b"c")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_bytes() == b"b"
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600  # a new file: 0o666 less the umask
    assert stat.S_IMODE(write_bytes_atomically(tmp_path / "menu.desktop", b"d",
                                               new_mode=0o644).stat().st_mode) == 0o644


class Boom(Exception):
    pass


def _raise(exc: BaseException) -> Callable[..., None]:
    def fail(_: object) -> None:
        raise exc
    return fail


@pytest.mark.parametrize("exc", [Boom("producer failed"), KeyboardInterrupt(),
                                 OSError(28, "No space left on device")])
def test_every_failure_removes_the_temporary_file_and_keeps_the_old(
        tmp_path: Path, exc: BaseException) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    for write in (write_atomically, produce_atomically):
        expected = WriteError if isinstance(exc, OSError) else type(exc)
        with pytest.raises(expected) as caught:
            write(target, _raise(exc))
        if isinstance(exc, OSError):
            assert "the disk is full" in str(caught.value)
        assert target.read_bytes() == b"old" and temporaries(tmp_path) == []


def test_a_full_disk_is_told_and_leaves_the_old_file(tmp_path: Path) -> None:
    with full_disk(tmp_path / "small") as folder:
        target = folder / "report.html"
        target.write_bytes(b"old report")
        fill(folder)
        with pytest.raises(WriteError, match="the disk is full"):
            write_bytes_atomically(target, b"x" * 200_000)
        assert target.read_bytes() == b"old report" and temporaries(folder) == []


def test_a_name_near_the_limit_still_gets_a_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250 + ".csv")
    assert write_bytes_atomically(target, b"x").read_bytes() == b"x"
    with pytest.raises(WriteError, match="too long") as caught:
        check_output(tmp_path / ("n" * 256))
    assert caught.value.kind == "unwritable" and temporaries(tmp_path) == []


KILLED_WRITER = """
import sys, time
from matcher.files import produce_atomically
def produce(tmp):
    with open(tmp, "wb") as fh:
        fh.write(b"half of a big export")
        fh.flush()
    print("writing", flush=True)
    time.sleep(60)
produce_atomically(sys.argv[1], produce)
"""


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(
        tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_bytes(b"old")
    child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)],
                             stdout=subprocess.PIPE, cwd=REPO, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "writing\n"
        [left] = temporaries(tmp_path)
        assert remove_leftovers(target) == []  # its writer still runs: not touched
        child.send_signal(signal.SIGKILL)  # as the OOM killer or kill -9 does
        child.wait(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert temporaries(tmp_path) == [left] and target.read_bytes() == b"old"
    write_bytes_atomically(target, b"new")
    assert temporaries(tmp_path) == [] and target.read_bytes() == b"new"


@settings(max_examples=25, deadline=None)
@given(writes=st.lists(st.binary(max_size=64), min_size=1, max_size=5))
def test_the_file_is_the_last_write_whole_and_nothing_else_stays(
        tmp_path_factory: pytest.TempPathFactory, writes: list[bytes]) -> None:
    folder = tmp_path_factory.mktemp("w")
    for data in writes:
        write_bytes_atomically(folder / "out.bin", data)
    assert (folder / "out.bin").read_bytes() == writes[-1]
    assert os.listdir(folder) == ["out.bin"]
