"""Reading the files a person names: plain reasons for what the system refuses, reads that
stop at a limit, and telling a PDF from a citations file by its first bytes.

Everything here is standard library only, so the viewer's window process may use it
without loading PyMuPDF or pydantic. Nothing here ever blocks on a FIFO or reads a
device: a path is opened only after it proved to be a regular file.

Example::

    try:
        data = read_bounded(path, limit=64 * MB)
    except InputFileError as exc:
        print(f"{exc.path}: {exc.reason}")     # "… is a FIFO (named pipe), not a regular file"
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Literal

MB = 1_000_000
PDF_MAGIC = b"%PDF-"
# PDF readers (MuPDF, Acrobat) accept a header anywhere in the first 1,024 bytes: some
# producers put a byte-order mark, mail headers or other junk before it.
PDF_HEADER_WINDOW = 1024

InputKind = Literal["missing", "not_regular", "denied", "unreadable", "too_large"]

# What the system meant, for the errors whose sentence does not depend on reading or writing.
_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.ENAMETOOLONG: "a name in the path is too long (at most 255 bytes per folder or "
                        "file name)",
    errno.ELOOP: "the path is a loop of symbolic links",
    errno.EISDIR: "is a folder, not a file",
    errno.EIO: "input/output error (a damaged disk or a lost network drive?)",
    errno.ENXIO: "no such device",
    errno.ENODEV: "no such device",
}

# What to call each kind of non-regular file, so "empty (0 bytes)" is never said of a FIFO.
_FILE_TYPES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(Exception):
    """A named file that cannot be used: the path, a kind for programs, a reason for people."""

    def __init__(self, path: Path | str, kind: InputKind, reason: str) -> None:
        self.path = Path(path)
        self.kind: InputKind = kind
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class InvalidFileError(Exception):
    """A file read but not usable as what it should be: the file, and each problem with
    the JSON path where it is, all of them, so the author can fix them in one pass."""

    what = "file"  # what the file should have been ("citations file", "review file")

    def __init__(self, path: Path | str, problems: list[tuple[str, str]]) -> None:
        self.path = Path(path)
        self.problems = problems
        lines = [f"{self.path}: not a valid {self.what}"]
        lines += [f"  at {where}: {msg}" for where, msg in problems]
        super().__init__("\n".join(lines))


def json_problem(exc: UnicodeDecodeError | json.JSONDecodeError) -> str:
    """What is wrong with bytes that were to be UTF-8 JSON, in a phrase (its path is $).

    >>> try:
    ...     json.loads("{")
    ... except json.JSONDecodeError as exc:
    ...     json_problem(exc)
    'not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2'
    """
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    return f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"


def os_error_reason(exc: OSError, *, writing: bool = False) -> str:
    """Say in words why the system refused a path (without naming the path); ``writing``
    when the path was to be written (a store, a saved file) rather than read.

    >>> os_error_reason(OSError(errno.ENAMETOOLONG, "File name too long"))
    'a name in the path is too long (at most 255 bytes per folder or file name)'

    Meant for every place that reports a document or citations file the system would
    not open, the viewer's check process included.
    """
    code = exc.errno
    if isinstance(exc, FileNotFoundError) or code == errno.ENOENT:
        return "a folder on the path does not exist" if writing else "file not found"
    if code == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if isinstance(exc, FileExistsError) or code == errno.EEXIST:
        return "a file stands where a folder should be"
    if isinstance(exc, PermissionError) or code in (errno.EACCES, errno.EPERM):
        what = "written" if writing else "read"
        return (f"permission denied (a folder on the path cannot be searched, or the file "
                f"cannot be {what}, by this user)")
    if code in _REASONS:
        return _REASONS[code]
    return f"cannot be {'written' if writing else 'read'} ({exc.strerror or exc})"


def os_error_kind(exc: OSError) -> InputKind:
    """The :data:`InputKind` of a refused path: missing, denied or otherwise unreadable."""
    if isinstance(exc, FileNotFoundError) or exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "missing"
    if isinstance(exc, PermissionError) or exc.errno in (errno.EACCES, errno.EPERM):
        return "denied"
    return "unreadable"


def not_regular_reason(mode: int) -> str | None:
    """``None`` for a regular file, else what the path is instead (``"is a folder, …"``)."""
    if stat.S_ISREG(mode):
        return None
    name = next((n for test, n in _FILE_TYPES if test(mode)), "a special file")
    return f"is {name}, not a regular file"


def stat_regular(path: Path | str) -> os.stat_result:
    """``os.stat`` of a path that must be a regular file, or :class:`InputFileError`."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise InputFileError(path, os_error_kind(exc), os_error_reason(exc)) from None
    except ValueError:  # an embedded NUL byte
        raise InputFileError(path, "missing", "the path holds a NUL character") from None
    reason = not_regular_reason(st.st_mode)
    if reason is not None:
        raise InputFileError(path, "not_regular", reason)
    return st


def open_regular(path: Path | str) -> int:
    """Open a regular file for reading and return its descriptor; anything else refused.

    The type is checked before opening (opening a FIFO would wait for a writer) and again
    on the open descriptor, in case the path was swapped in between.
    """
    stat_regular(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputFileError(path, os_error_kind(exc), os_error_reason(exc)) from None
    reason = not_regular_reason(os.fstat(fd).st_mode)
    if reason is not None:
        os.close(fd)
        raise InputFileError(path, "not_regular", reason)
    return fd


def read_bounded(path: Path | str, *, limit: int) -> bytes:
    """The whole content of a regular file of at most ``limit`` bytes.

    Reads at most ``limit + 1`` bytes whatever the file claims to hold, so a file that
    grows while it is read still cannot exhaust memory.
    """
    fd = open_regular(path)
    try:
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputFileError(path, "unreadable", os_error_reason(exc)) from None
    if len(data) > limit:
        raise InputFileError(path, "too_large",
                             f"is larger than the limit of {limit / MB:g} MB")
    return data


def read_head(path: Path | str, size: int = PDF_HEADER_WINDOW) -> bytes:
    """The first ``size`` bytes of a regular file (fewer if it is shorter)."""
    fd = open_regular(path)
    try:
        with os.fdopen(fd, "rb") as fh:
            return fh.read(size)
    except OSError as exc:
        raise InputFileError(path, "unreadable", os_error_reason(exc)) from None


def is_pdf_content(head: bytes) -> bool:
    """Whether these first bytes of a file are a PDF's (a ``%PDF-`` header, not JSON).

    A citations file may quote "%PDF-" inside a string, but it starts with ``{``.
    """
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    return PDF_MAGIC in head[:PDF_HEADER_WINDOW]


def looks_like_pdf(path: Path | str) -> bool:
    """Whether ``path`` is a readable regular file holding a PDF, judged by content.

    Decides how to open a file whatever its name ends with; never raises, never blocks.
    """
    try:
        return is_pdf_content(read_head(path))
    except InputFileError:
        return False
