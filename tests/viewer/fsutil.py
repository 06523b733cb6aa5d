"""Folders that refuse writes, for the tests of saving: read-only, and full.

A read-only folder is made with ``chmod`` — except for root, whom permissions do not
stop: there it is a read-only bind mount of the folder onto itself. A full disk is a
small tmpfs filled to the brim. Both need ``mount`` (root, and a kernel that lets this
container mount); where it is refused the test is skipped with the reason, and the
file-size limit (``RLIMIT_FSIZE``, in a child process) stands in for a full disk.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def _umount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` (which must exist) refusing every write while the block runs."""
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(mode)
        return
    if not (_mount("--bind", str(folder), str(folder))):
        pytest.skip("root is not stopped by permissions, and this machine refuses the "
                    "read-only bind mount that would")
    try:
        if not _mount("-o", "remount,ro,bind", str(folder)):
            pytest.skip("this machine refuses to remount a bind mount read-only")
        yield folder
    finally:
        _umount(folder)


@contextmanager
def full_disk(folder: Path, size_kb: int = 64) -> Iterator[Path]:
    """``folder`` as a tmpfs of ``size_kb`` KB; call :func:`fill` to use it all up."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs",
                                       str(folder)):
        pytest.skip("a small tmpfs cannot be mounted here (needs root and mount "
                    "permission); the file-size-limit test stands in for a full disk")
    try:
        yield folder
    finally:
        _umount(folder)


def fill(folder: Path) -> Path:
    """Write a file into ``folder`` until its file system has no space left."""
    filler = folder / "filler.bin"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:  # no space left: what was meant
        pass
    finally:
        os.close(fd)
    return filler
