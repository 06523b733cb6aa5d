"""Reading named files: real refusals become sentences; no FIFO or device is ever read."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matcher.files import (
    InputFileError,
    is_pdf_content,
    looks_like_pdf,
    not_regular_reason,
    os_error_reason,
    read_bounded,
    stat_regular,
)


def refused(path: Path) -> InputFileError:
    with pytest.raises(InputFileError) as info:
        read_bounded(path, limit=1000)
    assert info.value.path == path
    return info.value


def test_real_refusals_are_named_by_their_cause(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.mkfifo(tmp_path / "fifo")
    expect = {
        tmp_path / "absent": ("missing", "file not found"),
        tmp_path / "file.txt" / "below": ("missing", "a part of the path is a file"),
        tmp_path / ("n" * 300): ("unreadable", "a name in the path is too long"),
        tmp_path / "loop": ("unreadable", "a loop of symbolic links"),
        tmp_path: ("not_regular", "is a folder, not a regular file"),
        tmp_path / "fifo": ("not_regular", "is a FIFO (named pipe), not a regular file"),
        Path("/dev/zero"): ("not_regular", "is a character device, not a regular file"),
    }
    for path, (kind, said) in expect.items():
        err = refused(path)
        assert err.kind == kind and said in err.reason, (path, err.reason)
        assert str(err) == f"{path}: {err.reason}"


def test_errno_sentences_for_what_cannot_be_staged_here() -> None:
    assert "permission denied" in os_error_reason(PermissionError(errno.EACCES, "x"))
    assert "input/output error" in os_error_reason(OSError(errno.EIO, "x"))
    assert os_error_reason(OSError(errno.EROFS, "x"), writing=True) == \
        "the file system is read-only"
    assert os_error_reason(OSError(errno.ENOSPC, "x"), writing=True) == "the disk is full"
    assert "cannot be written" in os_error_reason(PermissionError(errno.EACCES, "x"),
                                                  writing=True)
    assert os_error_reason(OSError(errno.EXDEV, "Invalid cross-device link")) == \
        "cannot be read (Invalid cross-device link)"
    assert not_regular_reason(0o100644) is None


@given(st.integers(0, 3000), st.integers(0, 3000))
def test_the_limit_is_exact(tmp_path_factory: pytest.TempPathFactory, size: int, limit: int
                            ) -> None:
    path = tmp_path_factory.mktemp("bounded") / "f"
    path.write_bytes(b"a" * size)
    if size <= limit:
        assert read_bounded(path, limit=limit) == b"a" * size
    else:
        with pytest.raises(InputFileError) as info:
            read_bounded(path, limit=limit)
        assert info.value.kind == "too_large"


def test_pdf_or_not_is_decided_by_content(tmp_path: Path) -> None:
    cases = {
        "plain.bin": (b"%PDF-1.7\n...", True),
        "junk-first.txt": (b"\xef\xbb\xbfsome mail header\r\n%PDF-1.4\n", True),
        "late.pdf": (b" " * 1100 + b"%PDF-1.4", False),  # beyond the first 1,024 bytes
        "cite.pdf": (b'\n {"claims": [], "note": "%PDF-1.7"}', False),
        "empty.pdf": (b"", False),
    }
    for name, (content, pdf) in cases.items():
        (tmp_path / name).write_bytes(content)
        assert looks_like_pdf(tmp_path / name) is pdf, name
        assert is_pdf_content(content[:1024]) is pdf, name
    os.mkfifo(tmp_path / "fifo.pdf")
    assert looks_like_pdf(tmp_path / "fifo.pdf") is False  # answered at once, not blocked
    assert looks_like_pdf(tmp_path / "absent.pdf") is False
    assert stat_regular(tmp_path / "plain.bin").st_size == len(cases["plain.bin"][0])
