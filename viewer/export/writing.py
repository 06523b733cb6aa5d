"""Writing an export safely: whole or not at all, and never over one of its inputs.

Every output is written to a temporary file in the folder it goes to, flushed to disk,
then renamed over its name (and the folder flushed), so a killed or cancelled export
leaves the earlier file or the new one, never half of one; a failed write removes its
temporary file. An output that would land on an input — the citations file, the review,
a PDF — is refused before anything is written.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Iterable
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from matcher.files import os_error_reason

from ..state.files import resolved


class OutputError(Exception):
    """An output cannot be written where asked; the message names it and says why."""


class Cancelled(Exception):
    """The export was cancelled; nothing more is written."""


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once links are followed, or
    (when both exist) the same inode, which also catches hard links."""
    if resolved(a) == resolved(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_inputs(outputs: Iterable[Path], inputs: Iterable[Path]) -> None:
    """OutputError when an output is one of the inputs, or two outputs are one file."""
    ins = list(inputs)
    seen: list[Path] = []
    for out in outputs:
        for src in ins:
            if same_file(out, src):
                raise OutputError(f"{out}: is an input of this export ({src}); choose "
                                  "another name, an original is never overwritten")
        for other in seen:
            if same_file(out, other):
                raise OutputError(f"{out}: named for two outputs")
        seen.append(out)


def write_atomically(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` whole or not at all through ``write(file)``; OutputError (naming
    the file) when the folder cannot take it. An exception from ``write`` removes the
    temporary file and goes on up."""

    def produce(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            write(fh)

    produce_atomically(path, produce)


def produce_atomically(path: Path, produce: Callable[[Path], None]) -> None:
    """Have ``produce(tmp)`` write a temporary file beside ``path`` (it may reopen and
    rewrite it), then put it in place whole; as :func:`write_atomically`."""
    folder = path.parent
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        os.close(fd)
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written "
                          f"({os_error_reason(exc, writing=True)})") from None
    tmp = Path(name)
    try:
        produce(tmp)
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())  # the bytes reach the disk before the name does
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would hide it from the team
        os.replace(tmp, path)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"{path}: cannot be written "
                          f"({os_error_reason(exc, writing=True)})") from None
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    sync_folder(folder)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""

    def write(fh: BinaryIO) -> None:
        fh.write(data)

    write_atomically(path, write)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a folder; the rename is still atomic
    finally:
        os.close(fd)


@functools.cache
def _umask() -> int:
    """The process's umask, read once (reading it means setting it for a moment)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
