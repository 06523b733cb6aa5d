"""The GUI's handle on the render process: start it, or have the check process fork it.

No Qt, and nothing of what the render process imports: it is started by the name of its
body, :func:`viewer.render.worker.serve`.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import select
import signal
import struct
import time
from typing import Any

from .. import children

BODY = "viewer.render.worker:serve"


def start() -> tuple[Any, Any]:
    """Start a render process; returns it and the GUI's end of its connection."""
    # The prestarted process (see below) is forked by the check process, which has no
    # threads; one started here is forked from the GUI, and the child only imports
    # PyMuPDF and never touches Qt.
    return children.start(BODY, "citeview-render")


_prestarted: tuple[Any, Any] | None = None
# What the check process needs to fork the render process: the render connection's two
# ends, and a shared integer the render process writes its pid into.
Handoff = tuple[Any, Any, Any]


def prestart() -> Handoff | None:
    """Start the render process early (``citeview`` calls this before importing Qt).

    On Linux it is forked by the check process (:mod:`viewer.checker.server`) once that has
    imported PyMuPDF, so one import serves both processes and, while the GUI imports Qt,
    only two processes compete for the cores; the returned handoff goes to
    :func:`viewer.checker.client.prestart`. Elsewhere it is started now, and None is returned.
    """
    global _prestarted
    if _prestarted is not None:
        return None
    if children.context().get_start_method() != "fork":
        _prestarted = start()
        return None
    ours, theirs = multiprocessing.Pipe(duplex=True)
    pid = SharedPid()
    _prestarted = (_ForkedElsewhere(pid), ours)
    return theirs, ours, pid


class SharedPid:
    """A process id that the processes forked after it share: one integer in an anonymous
    shared mapping. It is what ``multiprocessing.RawValue("i")`` was, without importing
    ctypes and making a heap arena file before the check process starts: 9-14 ms of CPU
    on that process's path to its first report (the check process never needs ctypes)."""

    __slots__ = ("_map",)

    def __init__(self) -> None:
        self._map = mmap.mmap(-1, 4)  # anonymous, MAP_SHARED: one page seen by all forks

    @property
    def value(self) -> int:
        return int(struct.unpack_from("i", self._map)[0])

    @value.setter
    def value(self, pid: int) -> None:
        struct.pack_into("i", self._map, 0, pid)


class _ForkedElsewhere:
    """The GUI's handle on a render process the check process forked: not its child, so
    it is watched through the pid the process wrote, the way ``multiprocessing.Process``
    would be joined."""

    def __init__(self, pid: Any) -> None:
        self._pid = pid

    @property
    def pid(self) -> int | None:
        return int(self._pid.value) or None

    def is_alive(self) -> bool:
        pid = self.pid
        if pid is None:
            return True  # not forked yet: requests wait in the pipe until it is
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")  # exited: a zombie until the check process ends

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the process to end. Not being its parent,
        the GUI cannot wait for it as for a child: on Linux it waits on a descriptor of
        the process (``pidfd_open``), readable once it has ended; elsewhere, or where that
        cannot be had, it looks every 5 ms (which kept every exit waiting 0-5 ms more)."""
        pid = self.pid
        if pid is not None and _wait_for_end(pid, timeout):
            return
        deadline = time.monotonic() + timeout
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)

    def terminate(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except OSError:
                pass


def _wait_for_end(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for process ``pid`` to end, through a descriptor of
    it (Linux 5.3 and newer). False where no such descriptor can be had (the caller then
    looks by itself); True once it has ended, or the time is up."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return False
    try:
        fd = pidfd_open(pid)
    except ProcessLookupError:
        return True  # gone (and reaped) already
    except OSError:  # ENOSYS: an older kernel; EPERM and the like: look by hand
        return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.poll(max(0, int(timeout * 1000)))
    finally:
        os.close(fd)
    return True


def take() -> tuple[Any, Any]:
    """The process started by :func:`prestart` if it still runs, else a new one."""
    global _prestarted
    started, _prestarted = _prestarted, None
    if started is not None and started[0].is_alive():
        return started
    return start()
