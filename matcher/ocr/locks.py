"""One ``prepare`` at a time per document: an advisory lock per document in the store.

Two runs of ``citeview prepare`` over the same folder (or two folders holding the same
file) would each OCR every page. Instead a run takes, before OCRing a document's pages,
an exclusive lock on ``<store>/locks/<hash>.lock`` (``flock``); a run that finds a
document locked prepares its other documents first, then waits for the lock and OCRs
only the pages still missing, usually none. The lock is the open file's, so it goes
when its run ends however it ends (``kill -9`` included): a lock file left behind locks
nothing. Where ``flock`` does not exist (Windows) every lock is granted: runs then
repeat each other's work, as before, and still never corrupt an entry (saves are atomic).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

LOCK_FOLDER = "locks"


class DocumentLocks:
    """The document locks this run holds in one store (released by :meth:`release_all`)."""

    def __init__(self, store_root: Path) -> None:
        self.folder = store_root / LOCK_FOLDER
        self._held: dict[str, int] = {}

    def try_lock(self, doc_hash: str) -> bool:
        """Take the document's lock if no other run holds it (held already: True)."""
        if doc_hash in self._held or fcntl is None:
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / f"{doc_hash}.lock",
                         os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError:
            return True  # a store that takes no lock file: work as if there were no locks
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._held[doc_hash] = fd
        return True

    def release(self, doc_hash: str) -> None:
        fd = self._held.pop(doc_hash, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing the file releases its lock

    def release_all(self) -> None:
        for doc_hash in list(self._held):
            self.release(doc_hash)
