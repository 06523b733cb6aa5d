"""A child process started by the window holds only the connections it was given: not the
display server's, not the single-instance socket, not other children's."""

from __future__ import annotations

import os
import socket
import sys

import pytest

from viewer import children

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="forked children: Linux (elsewhere they are spawned)")


def test_a_forked_child_holds_only_its_own_connection() -> None:
    display, server_side = socket.socketpair()  # as the X11 or Wayland connection
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(f"\0citeview-test-children-{os.getpid()}")
    listening.listen(1)
    held = {os.fstat(s.fileno()).st_ino for s in (display, server_side, listening)}
    process, conn = children.start("tests.viewer.child_bodies:report_sockets", "t-children")
    try:
        assert conn.poll(60)
        inodes = set(conn.recv())
        assert inodes and not inodes & held, inodes  # only its own connection's end
        assert len(inodes) == 1
    finally:
        children.stop(process, conn)
        for s in (display, server_side, listening):
            s.close()
    assert not process.is_alive() and process.exitcode == 0


def test_the_render_pid_written_two_forks_down_is_read_by_the_window() -> None:
    """The render process is forked by the check process, which the window forked: the
    pid it writes into the shared integer is what the window reads."""
    from viewer.render.process import SharedPid

    pid = SharedPid()
    assert pid.value == 0
    middle = os.fork()
    if middle == 0:  # as the check process
        grandchild = os.fork()
        if grandchild == 0:  # as the render process
            pid.value = os.getpid()
            os._exit(0)
        os.waitpid(grandchild, 0)
        os._exit(0 if pid.value == grandchild else 1)
    _, status = os.waitpid(middle, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert pid.value not in (0, os.getpid(), middle)
    with open("/proc/sys/kernel/pid_max") as f:  # a pid, not garbage
        assert 0 < pid.value <= int(f.read())


def test_the_window_waits_for_a_render_process_it_did_not_fork_until_it_ends() -> None:
    """The render process is the check process's child, not the window's: the window
    waits on a descriptor of it, which turns readable when it ends, not before."""
    from viewer.render.process import SharedPid, _ForkedElsewhere

    pid = SharedPid()
    go_r, go_w = os.pipe()
    middle = os.fork()
    if middle == 0:  # as the check process
        grandchild = os.fork()
        if grandchild == 0:  # as the render process: runs until told to leave
            pid.value = os.getpid()
            os.read(go_r, 1)
            os._exit(0)
        os.waitpid(grandchild, 0)
        os._exit(0)
    try:
        while pid.value == 0:
            os.sched_yield()
        worker = _ForkedElsewhere(pid)
        worker.join(0.05)  # the time is up while it runs: it still runs
        assert worker.is_alive()
        os.write(go_w, b"x")  # told to leave
        worker.join(60)
        assert not worker.is_alive()
    finally:
        os.write(go_w, b"x")
        os.waitpid(middle, 0)
        os.close(go_r)
        os.close(go_w)
    worker.join(60)  # long gone (reaped): returns at once
    assert not worker.is_alive()


PRE_FORK = """
import sys
import viewer.app
from viewer.checker import client
from viewer.render import process
handoff = process.prestart()
assert handoff is not None
print(sorted(m for m in ("ctypes", "multiprocessing.sharedctypes", "multiprocessing.heap")
             if m in sys.modules))
"""


def test_what_the_window_does_before_starting_the_check_process_imports_no_ctypes() -> None:
    """The check process starts after these imports and never needs ctypes (a shared
    multiprocessing value imported it and made a heap file, ~10 ms of its path)."""
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", PRE_FORK], cwd=repo, capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(repo)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "[]"
