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
