"""An advisory lock around a read-change-write of a file, so two writers never interleave.

The lock is taken on the folder that holds the file, not on the file itself: the file is
replaced whole by each save (a new inode), so a lock on it would guard nothing after the
first save, and a lock file beside it would be one more file left in a person's folder.
Saves in one folder thus take turns; each takes milliseconds.

``flock`` locks are released by the system when their holder exits or is killed, so a
crashed writer never leaves a file locked. On Windows (no ``fcntl``) nothing is locked.

Example::

    with held(review_path, timeout=LOCK_TIMEOUT_S):
        theirs = read(review_path)
        write(review_path, merge(mine, theirs))
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

# How long a writer waits for another one to finish its save before it gives up and
# says so: a save takes milliseconds (an fsync on a slow network share, a second).
LOCK_TIMEOUT_S = 10.0
# How often a waiting writer tries again.
_POLL_S = 0.005


class LockTimeout(Exception):
    """Another process held the lock for longer than the time waited."""

    def __init__(self, path: Path, waited: float) -> None:
        self.path = path
        self.waited = waited
        super().__init__(f"{path}: another program is saving it and has not finished "
                         f"after {waited:g} s; try again")


@contextmanager
def held(path: Path | str, *, timeout: float = LOCK_TIMEOUT_S) -> Iterator[bool]:
    """Hold the lock of ``path`` (of its folder) while the block runs; yields whether a
    lock is held (False where none can be: Windows, a folder that cannot be opened or a
    file system without locks — the write that follows says what is wrong, if anything).
    :class:`LockTimeout` when another process holds it longer than ``timeout`` s."""
    if fcntl is None:
        yield False
        return
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(Path(path).parent, flags)
    except OSError:
        yield False
        return
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(Path(path), timeout) from None
                time.sleep(_POLL_S)
            except OSError:  # a file system without locks (some network shares)
                yield False
                return
        yield True
    finally:
        os.close(fd)  # releases the lock
