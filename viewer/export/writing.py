"""Writing an export safely: whole or not at all, and never over one of its inputs.

Every output is written by citeview's one writer (:mod:`matcher.files`): to a temporary
file in the folder it goes to, flushed to disk, then renamed over its name (and the
folder flushed), so a killed or cancelled export leaves the earlier file or the new one,
never half of one; a failed write removes its temporary file. Only a regular file (or
nothing) is replaced: a device, a FIFO or a folder named as an output is refused and left
alone, and a link is written through. An output that would land on an input — the
citations file, the review, a PDF — is refused before anything is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from matcher import files

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


def write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` whole or not at all through ``write(file)``, by citeview's one
    writer (:func:`matcher.files.write_atomically`: never over a device, FIFO or folder,
    through a link, keeping the mode); OutputError naming the file when it cannot be."""
    try:
        files.write_atomically(path, write)
    except files.WriteError as exc:
        raise OutputError(str(exc)) from None


def produce_atomically(path: Path, produce: Callable[[Path], object]) -> None:
    """Have ``produce(tmp)`` write a temporary file beside ``path`` (it may reopen and
    rewrite it), then put it in place whole; as :func:`write_atomically`."""
    try:
        files.produce_atomically(path, produce)
    except files.WriteError as exc:
        raise OutputError(str(exc)) from None


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    write_atomically(path, lambda fh: fh.write(data))


def check_writable(path: Path) -> None:
    """OutputError unless ``path`` could be written now (asked before anything is)."""
    try:
        files.check_output(path)
    except files.WriteError as exc:
        raise OutputError(str(exc)) from None


sync_folder = files.sync_folder

# A character UTF-8 cannot hold: a lone surrogate, from a JSON "\\ud800" escape in a note
# or a reviewer's name, or from a file name that is not UTF-8.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8(text: str, *, encoding: str = "utf-8") -> bytes:
    """``text`` encoded whatever it holds: a lone surrogate becomes U+FFFD (the
    replacement character), so a strange note never stops an export.

    >>> utf8("note \\ud800 end") == "note \\ufffd end".encode()
    True
    """
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode(encoding)
