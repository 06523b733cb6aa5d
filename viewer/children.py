"""How the viewer's child processes (check and render) are started and stopped. No Qt.

A child is started by the *name* of its body (``"viewer.checker.server:serve"``), looked
up in the child: the GUI process never imports the module that runs there, so what that
module imports (pydantic, PyMuPDF, the matcher) stays out of the GUI process, and the
import contracts in ``pyproject.toml`` can check it. Both children speak over a
:mod:`multiprocessing` connection and leave when they read None.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import stat
import sys
import warnings
from collections.abc import Iterator
from typing import Any

# Seconds a child is given to leave when asked, and again after it is terminated.
STOP_TIMEOUT_S = 2.0


def context() -> Any:
    """fork on Linux: the child starts in milliseconds and, started before Qt is imported
    (as ``citeview`` does), inherits no threads; a spawned interpreter would spend a good
    part of a second on imports first. spawn elsewhere."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def start(body: str, name: str, *args: Any) -> tuple[Any, Any]:
    """Run ``body`` ("module:function") in a new child process as ``function(conn, *args)``
    (after a fork, also given the parent's end, to close). Returns the process and the
    parent's end of the duplex connection."""
    ctx = context()
    ours, theirs = ctx.Pipe(duplex=True)
    forked = ctx.get_start_method() == "fork"
    call = (body, theirs, ours, *args) if forked else (body, theirs, None, *args)
    process = ctx.Process(target=run, args=call, name=name, daemon=True)
    with warnings.catch_warnings():
        # Python warns about fork in a process with threads. The children are started
        # before Qt is imported, or their bodies touch no Qt and leave through os._exit,
        # so no lock another thread held is ever needed there.
        warnings.simplefilter("ignore", DeprecationWarning)
        process.start()
    theirs.close()
    return process, ours


def run(body: str, *args: Any) -> None:
    """In the child: import ``body``'s module and call its function with ``args``. A
    forked child first lets go of the connections it inherited but does not use."""
    if context().get_start_method() == "fork":
        release_inherited(keep=set(_descriptors(args)))
    module, _, function = body.partition(":")
    getattr(importlib.import_module(module), function)(*args)


def _descriptors(values: Any) -> Iterator[int]:
    """The descriptors of the connections among a child's arguments (nested in tuples)."""
    for value in values:
        if isinstance(value, tuple | list):
            yield from _descriptors(value)
        elif hasattr(value, "fileno"):
            try:
                yield int(value.fileno())
            except (OSError, ValueError, TypeError):
                pass


def release_inherited(keep: set[int]) -> int:
    """In a forked child: every socket it inherited but those in ``keep`` (the
    connections it was given) replaced by /dev/null — the display server's connection,
    the single-instance socket, the other windows' connections to their children — so it
    holds none of them open. Pipes are left: ``multiprocessing`` tells the GUI that a
    child ended by a pipe whose write end only the child holds. Replaced rather than
    closed: an inherited Python object that closes its number later closes /dev/null,
    never a file opened since under that number. Returns how many were replaced."""
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc (macOS forks nothing here: spawn starts children afresh)
        return 0
    null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    released = 0
    try:
        for fd in fds:
            if fd <= 2 or fd in keep or fd == null:
                continue
            try:
                mode = os.fstat(fd).st_mode
            except OSError:
                continue  # the listing's own descriptor, gone already
            if stat.S_ISSOCK(mode):
                os.dup2(null, fd, inheritable=False)
                released += 1
    finally:
        os.close(null)
    return released


def stop(process: Any, conn: Any, *, wait: float = STOP_TIMEOUT_S, group: bool = False
         ) -> None:
    """Ask a child to leave (None on its connection), wait up to ``wait`` seconds, then
    terminate it; with ``group``, its whole process group (a child that leads its own
    group, as the check process does, so a tesseract it runs goes with it)."""
    try:
        conn.send(None)
    except (OSError, ValueError):  # it is gone already
        pass
    process.join(wait)
    if process.is_alive():
        _terminate(process, group)
        process.join(STOP_TIMEOUT_S)
    if process.is_alive() and hasattr(process, "kill"):  # deaf to SIGTERM (stuck in C)
        process.kill()
        process.join(STOP_TIMEOUT_S)


def _terminate(process: Any, group: bool) -> None:
    if group and process.pid is not None and hasattr(os, "killpg"):
        try:
            if os.getpgid(process.pid) == process.pid:
                os.killpg(process.pid, signal.SIGTERM)
                return
        except OSError:  # gone meanwhile, or not a group of its own: end it alone
            pass
    process.terminate()


def lead_own_group() -> None:
    """In a child: lead a process group of its own, so that stopping it with
    ``stop(..., group=True)`` stops what it started too; and leave on SIGTERM by
    raising SystemExit, so that ``finally`` blocks (temporary files) run on the way out."""
    if hasattr(os, "setpgid"):
        try:
            os.setpgid(0, 0)
        except OSError:
            pass

    def leave(_signum: int, _frame: object) -> None:
        raise SystemExit(128 + signal.SIGTERM)

    signal.signal(signal.SIGTERM, leave)
