"""Reading the files a person names: plain reasons for what the system refuses, reads that
stop at a limit, and telling a PDF from a citations file by its first bytes — and the one
way every output of citeview is written (:func:`write_atomically`).

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
import secrets
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, Literal

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
    errno.EFBIG: "the file would be larger than this program may write (a file-size limit)",
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


def document_location(citations_path: Path | str, ref: str) -> Path:
    """Where a document a citations file names as ``ref`` lives: relative to the file's
    folder, or absolute. ``~`` and ``~user`` are expanded; like a shell, an unknown user's
    ``~name`` is left as written (so the document is reported missing, not a crash)."""
    p = Path(ref)
    try:
        p = p.expanduser()
    except RuntimeError:  # no home folder for that user
        pass
    return p if p.is_absolute() else (Path(citations_path).resolve().parent / p)


# What tells one state of a file from another: size, modification and change times (ns),
# inode, device.
Stamp = tuple[int, int, int, int, int]


def file_stamp(path: str | Path) -> Stamp | None:
    """The stamp of the regular file at ``path``; None: no regular file there.

    >>> file_stamp("/nonexistent/policy.pdf") is None
    True
    """
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


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


# -- writing a file whole or not at all ------------------------------------------------
# The one writer of every output (OCR store entries, review files, exports, the desktop
# integration), so that one policy holds for all of them:
# * only a regular file, or nothing, is ever replaced: a device, FIFO, socket or folder
#   named as an output is refused and left as it is (as root, ``--csv /dev/null`` once
#   replaced the system's /dev/null);
# * a symbolic link is followed to the regular file it names, which is replaced (the link
#   stays a link); a link to anything else, or to nothing, is refused;
# * a file that is read-only (no write permission for anyone, or not for this user) is
#   refused, not replaced behind its owner's back (root included);
# * the bytes go to a temporary file in the target's own folder, are fsynced, renamed
#   over the target, and the folder is fsynced, so a crash leaves the old file or the new;
# * the new file keeps the mode (and, for root, the owner) of the one it replaces; a new
#   file gets 0o666 less the umask, as any file the person creates;
# * every failure removes the temporary file; a temporary file left by a killed writer
#   (its process is gone) is removed by the next write of a file in that folder.

WriteKind = Literal["not_regular", "read_only", "denied", "unwritable"]
TMP_SUFFIX = ".tmp"
# A temporary file this old whose writer cannot be asked about (no pid in its name, or
# Windows, where os.kill would end the process) is abandoned.
LEFTOVER_AGE_S = 24 * 3600
# Room in a file name for the temporary file's own part: "." + "." + pid + "." + 8 hex
# digits + ".tmp", so a target whose name is near the 255-byte limit still gets one.
_NAME_MAX = 255
_TMP_ROOM = 40


class WriteError(Exception):
    """An output that cannot be written where asked: the path named, a kind for programs
    and a reason for people (``"is a character device, not a regular file"``)."""

    def __init__(self, path: Path | str, kind: WriteKind, reason: str) -> None:
        self.path = Path(path)
        self.kind: WriteKind = kind
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def output_target(path: Path | str) -> Path:
    """The file a write of ``path`` replaces: ``path`` itself when it is a regular file or
    nothing yet, the regular file a link at ``path`` leads to; else :class:`WriteError`.

    >>> output_target("/dev/null")
    Traceback (most recent call last):
    ...
    matcher.files.WriteError: /dev/null: is a character device, not a regular file
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    except (OSError, ValueError) as exc:
        raise _refused(path, exc) from None
    target = path
    if stat.S_ISLNK(st.st_mode):
        target = Path(os.path.realpath(path))
        try:
            st = os.stat(path)
        except (OSError, ValueError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise WriteError(path, "not_regular", f"is a link to {target}, which does "
                                 "not exist; a link is written through, never replaced"
                                 ) from None
            raise _refused(path, exc) from None
    reason = not_regular_reason(st.st_mode)
    if reason is not None:
        if target != path:
            reason = f"is a link to {target}, which {reason}"
        raise WriteError(path, "not_regular", reason)
    if not st.st_mode & 0o222:
        raise WriteError(path, "read_only", f"is read-only (mode {stat.filemode(st.st_mode)});"
                         " it is not replaced: save under another name, or make it "
                         "writable first")
    if not os.access(target, os.W_OK):
        if _read_only_file_system(target):
            raise WriteError(path, "unwritable", _REASONS[errno.EROFS])
        raise WriteError(path, "denied", os_error_reason(
            PermissionError(errno.EACCES, "denied"), writing=True))
    return target


def _read_only_file_system(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


def check_output(path: Path | str) -> Path:
    """Whether ``path`` can be written now, asked before any work or any other output
    is written: :func:`output_target`, then a temporary file made and removed in its
    folder (so a full disk's inode table, a read-only file system or a name too long is
    told now). Returns the file that a write replaces; :class:`WriteError` if none can be.
    """
    target = output_target(path)
    fd, tmp = _create_temporary(Path(path), target)
    os.close(fd)
    _unlink(tmp)
    return target


def write_atomically(path: Path | str, write: Callable[[BinaryIO], object], *,
                     new_mode: int | None = None) -> Path:
    """Write ``path`` whole or not at all through ``write(file)`` (see the policy above);
    returns the file replaced (the target of a link). :class:`WriteError` when it cannot
    be written; an exception from ``write`` removes the temporary file and goes on up.
    ``new_mode``: the mode of a file made new, when the umask's is not the right one (a
    system-wide menu entry every user must read)."""

    def produce(tmp: Path, fh: BinaryIO) -> None:
        write(fh)

    return _replace(Path(path), produce, new_mode=new_mode)


def produce_atomically(path: Path | str, produce: Callable[[Path], object], *,
                       new_mode: int | None = None) -> Path:
    """As :func:`write_atomically`, for a producer that writes a file by its name
    (``produce(tmp)`` may reopen and rewrite the temporary file, as PyMuPDF's save does).
    """

    def by_name(tmp: Path, fh: BinaryIO) -> None:
        fh.close()
        produce(tmp)

    return _replace(Path(path), by_name, new_mode=new_mode)


def write_bytes_atomically(path: Path | str, data: bytes, *,
                           new_mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` whole or not at all, as :func:`write_atomically`."""
    return write_atomically(path, lambda fh: fh.write(data), new_mode=new_mode)


def _replace(path: Path, produce: Callable[[Path, BinaryIO], None], *,
             new_mode: int | None) -> Path:
    with StagedWrites() as batch:
        return batch.stage(path, produce, new_mode=new_mode)


class StagedWrites:
    """Several outputs written all or nothing: each is written to its temporary file and
    fsynced when staged, and only once every one is staged are they put in place (on
    leaving the ``with`` block, or :meth:`commit`). Any failure before — a producer's
    error, a full disk, Ctrl-C — removes every temporary file and replaces nothing.

    Example::

        with StagedWrites() as batch:
            batch.write(html, write_report)       # WriteError here: nothing is replaced
            batch.write(csv, write_table)
        # both in place now
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path, Path]] = []  # (path, target, tmp)

    def __enter__(self) -> StagedWrites:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def write(self, path: Path | str, write: Callable[[BinaryIO], object], *,
              new_mode: int | None = None) -> Path:
        """Stage ``path`` written by ``write(file)``; returns the file it will replace."""
        return self.stage(Path(path), lambda tmp, fh: write(fh), new_mode=new_mode)

    def produce(self, path: Path | str, produce: Callable[[Path], object], *,
                new_mode: int | None = None) -> Path:
        """Stage ``path`` written by ``produce(tmp)``, which writes the file by name."""

        def by_name(tmp: Path, fh: BinaryIO) -> None:
            fh.close()
            produce(tmp)

        return self.stage(Path(path), by_name, new_mode=new_mode)

    def stage(self, path: Path, produce: Callable[[Path, BinaryIO], object], *,
              new_mode: int | None) -> Path:
        target = output_target(path)
        try:
            before: os.stat_result | None = os.stat(target)
        except OSError:
            before = None
        remove_leftovers(target)
        fd, tmp = _create_temporary(path, target)
        self._staged.append((path, target, tmp))
        try:
            with os.fdopen(fd, "wb") as fh:
                if before is not None:
                    _keep_mode(fh.fileno(), before)
                elif new_mode is not None:
                    os.fchmod(fh.fileno(), new_mode)
                produce(tmp, fh)
            with open(tmp, "rb+") as fh:  # a producer by name may have closed it
                os.fsync(fh.fileno())  # the bytes reach the disk before the name does
                if before is not None:  # ... or made a new file at tmp
                    _keep_mode(fh.fileno(), before)
        except OSError as exc:
            self.discard()
            raise WriteError(path, "unwritable", os_error_reason(exc, writing=True)) from None
        except BaseException:  # KeyboardInterrupt and the producer's own errors too
            self.discard()
            raise
        return target

    def commit(self) -> list[Path]:
        """Put every staged file in place; returns the files replaced, in order."""
        staged, done = self._staged, []
        try:
            for path, target, _ in staged:  # swapped meanwhile: decide again, write nothing
                if output_target(path) != target:
                    raise WriteError(path, "unwritable", "changed while it was being "
                                     "written; nothing was replaced")
            for path, target, tmp in staged:
                try:
                    os.replace(tmp, target)
                except OSError as exc:
                    raise WriteError(path, "unwritable",
                                     os_error_reason(exc, writing=True)) from None
                done.append(target)
        except BaseException:
            self._staged = staged[len(done):]
            self.discard()
            raise
        self._staged = []
        for folder in dict.fromkeys(t.parent for t in done):
            sync_folder(folder)
        return done

    def discard(self) -> None:
        """Remove every staged temporary file; nothing is replaced."""
        for _, _, tmp in self._staged:
            _unlink(tmp)
        self._staged = []


def _create_temporary(path: Path, target: Path) -> tuple[int, Path]:
    """A new temporary file beside ``target``, open for writing (0o666 less the umask)."""
    stem = os.fsencode(target.name)[:_NAME_MAX - _TMP_ROOM].decode(
        sys.getfilesystemencoding(), "surrogateescape" if os.name != "nt" else "ignore")
    tmp = target.with_name(f".{stem}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        return os.open(tmp, flags, 0o666), tmp
    except (OSError, ValueError) as exc:
        raise _refused(path, exc, writing=True) from None


def _keep_mode(fd: int, before: os.stat_result, *, close: bool = False) -> None:
    """Give the new file the mode of the one it replaces (and its owner, when root)."""
    try:
        os.fchmod(fd, stat.S_IMODE(before.st_mode))
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            os.fchown(fd, before.st_uid, before.st_gid)
    finally:
        if close:
            os.close(fd)


def _refused(path: Path, exc: OSError | ValueError, *, writing: bool = True) -> WriteError:
    if isinstance(exc, ValueError):  # an embedded NUL byte
        return WriteError(path, "unwritable", "the path holds a NUL character")
    kind: WriteKind = "denied" if os_error_kind(exc) == "denied" else "unwritable"
    return WriteError(path, kind, os_error_reason(exc, writing=writing))


def sync_folder(folder: Path | str) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows has no folder handles); a
    file system that refuses (some network shares) keeps the rename anyway."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_leftovers(target: Path | str) -> list[Path]:
    """Remove the temporary files of writes of ``target`` whose writer is gone (killed
    mid-write: its process no longer runs); returns those removed."""
    target = Path(target)
    stem = os.fsencode(target.name)[:_NAME_MAX - _TMP_ROOM]
    prefix = b"." + stem + b"."
    try:
        names = [n for n in os.listdir(os.fsencode(target.parent))
                 if n.startswith(prefix) and n.endswith(TMP_SUFFIX.encode())]
    except OSError:
        return []
    removed = []
    for name in names:
        pid_part = name[len(prefix):].split(b".")[0]
        tmp = target.parent / os.fsdecode(name)
        if _writer_gone(int(pid_part) if pid_part.isdigit() else None, tmp):
            _unlink(tmp)
            removed.append(tmp)
    return removed


def _writer_gone(pid: int | None, tmp: Path) -> bool:
    if pid is not None and sys.platform != "win32":
        if pid == os.getpid():
            return False  # this process's own, being written by another thread
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # another user's process: alive
            return False
        return False
    try:
        return time.time() - os.lstat(tmp).st_mtime > LEFTOVER_AGE_S
    except OSError:
        return False


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
