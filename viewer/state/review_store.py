"""Where a citations file's review is kept, and saving it so that nothing is ever lost.

The sidecar of ``NAME.cite`` is ``NAME.review.json`` beside it. When that folder cannot
be written (a read-only share) — or the file is the bundled demo, which is package data —
it is kept in the per-user data folder instead (``~/.local/share/citeview/reviews/`` on
Linux, from platformdirs), under a name made from the citations file's name and a hash of
its full path. An existing sidecar is used where it is.

Every save is atomic, by citeview's one writer (:mod:`matcher.files`): the bytes go to a
temporary file in the same folder, are flushed and fsynced, renamed over the sidecar, and
the folder is fsynced, so a crash or a power loss leaves the previous file or the new
one, never half of one. A temporary file left by a writer that was killed is removed by
the next save. A sidecar that is a link is written through; a read-only one is not
replaced. Before writing, the store checks that the file on disk is still the one it last
read or wrote: if another program changed it meanwhile, it refuses
(:class:`ConflictError`) rather than overwrite that program's work, and the caller offers
to merge or to save elsewhere.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from matcher.files import (
    MB,
    InputFileError,
    WriteError,
    os_error_reason,
    output_target,
    read_bounded,
    sync_folder,
    write_bytes_atomically,
)
from matcher.locks import LOCK_TIMEOUT_S, LockTimeout, held

# The paths have their own module (``check`` asks whether a review exists without this
# one's imports); named here too, where the window, export and the tests find them.
from .files import demo_path
from .review import Decisions
from .review_paths import SUFFIX as SUFFIX
from .review_paths import beside as beside
from .review_paths import existing as existing
from .review_paths import in_data_folder as in_data_folder
from .review_paths import review_folder as review_folder
from .sidecar import SidecarError, dumps, loads, merge

# The largest sidecar read: a decision is ~400 bytes, so this is ~150,000 of them with
# their history, far beyond any review, while a runaway file cannot exhaust memory.
MAX_BYTES = 64 * MB
Where = Literal["beside", "data", "chosen"]


class SaveError(Exception):
    """The sidecar could not be written: the file and the reason, in words; ``kind``
    as :class:`matcher.files.WriteError`'s (``read_only``: offer to save elsewhere)."""

    def __init__(self, path: Path, reason: str, *, kind: str = "unwritable") -> None:
        self.path = path
        self.reason = reason
        self.kind = kind
        super().__init__(f"{path}: {reason}")


class ConflictError(SaveError):
    """The sidecar was changed on disk by another program since it was read."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "was changed by another program since citeview read it")


def folder_writable(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (read-only file systems included)."""
    return os.access(folder, os.W_OK | os.X_OK)


def location(citations: Path) -> tuple[Path, Where, str]:
    """Where the review of ``citations`` is read from and saved to — an existing sidecar
    beside it or in the data folder, else beside it when that folder can be written —
    and, for the data folder, why."""
    near, far = beside(citations), in_data_folder(citations)
    if os.path.lexists(near):
        return near, "beside", ""
    if os.path.lexists(far):
        return far, "data", "a review of this file was kept there before"
    if citations.resolve().is_relative_to(demo_path().parent.resolve()):
        return far, "data", "the bundled demo is part of citeview and stays as it is"
    if not folder_writable(citations.parent):
        return far, "data", f"{citations.parent} cannot be written"
    return near, "beside", ""


def write_reason(exc: OSError) -> str:
    """Why a write failed, in words."""
    return os_error_reason(exc, writing=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` with citeview's one writer
    (:func:`matcher.files.write_bytes_atomically`: temporary file, fsync, rename, fsync of
    the folder; the file keeps its permissions; a link is written through; a read-only
    file, a device or a FIFO is refused); SaveError when it cannot be written."""
    try:
        write_bytes_atomically(path, data)
    except WriteError as exc:
        raise SaveError(path, exc.reason, kind=exc.kind) from None


fsync_folder = sync_folder


@dataclass(frozen=True)
class Signature:
    """What a file on disk was when it was last read or written."""

    size: int
    mtime_ns: int
    inode: int
    sha256: str


def signature(path: Path, data: bytes) -> Signature | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return Signature(st.st_size, st.st_mtime_ns, st.st_ino, hashlib.sha256(data).hexdigest())


class ReviewStore:
    """One sidecar file: read once, then saved after every decision.

    ``where`` says whether it sits beside its citations file or in the data folder.
    """

    def __init__(self, path: Path, where: Where = "beside", why: str = "") -> None:
        self.path = path
        self.where: Where = where
        self.why = why  # why the file is not beside its citations file, if it is not
        self._seen: Signature | None = None  # the file as last read or written

    @classmethod
    def for_citations(cls, citations: Path) -> ReviewStore:
        return cls(*location(citations))

    def load(self) -> Decisions:
        """The decisions in the file (none when there is no file); SidecarError when it
        is not a valid sidecar or cannot be read."""
        if not os.path.lexists(self.path):
            self._seen = None
            return Decisions()
        try:
            raw = read_bounded(self.path, limit=MAX_BYTES)
        except InputFileError as exc:
            raise SidecarError(self.path, [("$", exc.reason)]) from None
        decisions = loads(raw, path=self.path)
        self._seen = signature(self.path, raw)
        return decisions

    def changed_on_disk(self) -> bool:
        """Whether the file is no longer what this store last read or wrote."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return False  # removed: writing it again loses nothing
        except OSError:
            return False  # the write will say what is wrong
        seen = self._seen
        if seen is not None and (st.st_size, st.st_mtime_ns, st.st_ino) == \
                (seen.size, seen.mtime_ns, seen.inode):
            return False
        try:
            raw = read_bounded(self.path, limit=MAX_BYTES)
        except InputFileError:
            return True
        return seen is None or hashlib.sha256(raw).hexdigest() != seen.sha256

    def save(self, decisions: Decisions) -> None:
        """Write the decisions atomically; ConflictError if another program changed the
        file since, SaveError if it cannot be written. The check and the write hold the
        file's lock, so no other citeview writes between them."""
        self._make_folder()
        with self._locked():
            if self.changed_on_disk():
                raise ConflictError(self.path)
            self._write(decisions)

    def overwrite(self, decisions: Decisions) -> None:
        """Write the decisions atomically whatever is on disk now."""
        self._make_folder()
        with self._locked():
            self._write(decisions)

    def save_as(self, path: Path, decisions: Decisions) -> None:
        """Write the decisions to ``path`` and keep saving there from now on."""
        data = dumps(decisions)
        with _lock_of(path):
            write_atomic(path, data)
        self.path, self.where = path, "chosen"
        self._seen = signature(path, data)

    def merge(self, decisions: Decisions, *, by: str, at: str) -> Decisions:
        """Merge the decisions with the file as it is on disk now and save the result;
        SidecarError if that file cannot be read, SaveError if the result cannot be
        written. Returns the merged decisions. Reading, merging and writing hold the
        file's lock, so a decision another citeview saved meanwhile is never lost."""
        self._make_folder()
        with self._locked():
            theirs = (ReviewStore(self.path).load() if os.path.lexists(self.path)
                      else Decisions())
            merged = merge(decisions, theirs, by=by, at=at)
            self._write(merged)
        return merged

    def _write(self, decisions: Decisions) -> None:
        data = dumps(decisions)
        write_atomic(self.path, data)
        self._seen = signature(self.path, data)

    def _make_folder(self) -> None:
        if self.where == "data":  # citeview's own folder may not exist yet
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SaveError(self.path, write_reason(exc)) from None

    def _locked(self) -> AbstractContextManager[bool]:
        return _lock_of(self.path)


@contextmanager
def _lock_of(path: Path) -> Iterator[bool]:
    """The advisory lock of the sidecar ``path`` (of the file a link leads to, so two
    links to one file share it); SaveError when another writer holds it too long."""
    try:
        target = output_target(path)
    except WriteError:
        target = path  # the write says what is wrong with it
    try:
        with held(target, timeout=LOCK_TIMEOUT_S) as locked:
            yield locked
    except LockTimeout as exc:
        raise SaveError(path, f"another program is saving it and has not finished after "
                              f"{exc.waited:g} s; try again", kind="locked") from None
