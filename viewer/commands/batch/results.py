"""The batch's results file: one JSON line per citations file, appended as each is
checked, whole or not at all, and read back to resume.

Each line is written with one ``write()`` on a file opened ``O_APPEND`` and then fsynced,
so a run that is killed leaves whole lines, and the only damage a crash can do is a
torn last line (the disk filled, the power failed mid-write). That tail is cut off when
the file is next opened, and the file then goes on with whole lines.

A line is ``{"citations", "sha256", "exit", "report"}`` (the report exactly as
``check --json`` prints it) or ``{"citations", "exit": 2, "error"}``. A line with a
``sha256`` is settled: a rerun skips that file while its bytes are unchanged. A failed
task's error line (its worker died on every try) has no ``sha256``, so a rerun retries it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matcher.files import os_error_reason
from matcher.jsonout import json_text

from ...export.writing import write_bytes

Line = dict[str, Any]
SUMMARY_COLUMNS = ("citations", "sha256", "exit", "located", "review", "not_located",
                   "rejected", "uncited", "problems", "error")


class ResultsError(Exception):
    """The results file cannot be read or written: a sentence naming it and why."""


@dataclass
class Settled:
    """What a results file already holds: the last line of each settled file, by
    (path, sha256), and how many lines were unreadable or torn."""

    lines: dict[tuple[str, str], Line] = field(default_factory=dict)
    unreadable: int = 0
    torn: bool = False
    count: int = 0  # whole lines the file held


class ResultsFile:
    """A results file open for appending (:meth:`open` first reads what it holds)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def open(self) -> Settled:
        """Read the settled lines, cut off a torn last line, and open for appending."""
        settled = Settled()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                         0o666)
        except OSError as exc:
            raise ResultsError(f"{self.path}: cannot be written "
                               f"({os_error_reason(exc, writing=True)})") from None
        try:
            with os.fdopen(os.dup(fd), "rb") as fh:
                data = fh.read()
            whole = data.rfind(b"\n") + 1
            if whole < len(data):
                os.ftruncate(fd, whole)  # a torn last line: never glued to the next one
                os.fsync(fd)
                settled.torn = True
            for raw in data[:whole].splitlines():
                _settle(raw, settled)
                settled.count += 1
        except OSError as exc:
            os.close(fd)
            raise ResultsError(f"{self.path}: cannot be read "
                               f"({os_error_reason(exc)})") from None
        os.close(fd)
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                               | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as exc:
            raise ResultsError(f"{self.path}: cannot be written "
                               f"({os_error_reason(exc, writing=True)})") from None
        return settled

    def append(self, line: Line) -> None:
        """Append one line whole: one write, then fsync (ResultsError when refused)."""
        assert self._fd is not None, "open() first"
        data = (json_text(line, indent=None) + "\n").encode("utf-8")
        try:
            written = os.write(self._fd, data)
            if written != len(data):  # the disk filled mid-line: the next open cuts it
                raise OSError(28, "No space left on device")
            os.fsync(self._fd)
        except OSError as exc:
            raise ResultsError(f"{self.path}: cannot be written "
                               f"({os_error_reason(exc, writing=True)})") from None

    def count(self) -> int:
        """The whole lines the file holds now (what a run added: this less the first)."""
        try:
            with self.path.open("rb") as fh:
                return sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
        except OSError:
            return 0

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _settle(raw: bytes, settled: Settled) -> None:
    try:
        line = json.loads(raw)
    except ValueError:
        settled.unreadable += 1
        return
    if (isinstance(line, dict) and isinstance(line.get("citations"), str)
            and isinstance(line.get("sha256"), str) and isinstance(line.get("exit"), int)):
        settled.lines[(line["citations"], line["sha256"])] = line
    elif not isinstance(line, dict):
        settled.unreadable += 1


def summary_row(line: Line) -> dict[str, object]:
    """One row of the summary CSV: the file, its status and its counts (or its error)."""
    report = line.get("report") or {}
    counts = report.get("summary") or {}
    row: dict[str, object] = {"citations": line.get("citations", ""),
                              "sha256": line.get("sha256", ""), "exit": line.get("exit", "")}
    for name in SUMMARY_COLUMNS[3:8]:
        row[name] = counts.get(name, "") if report else ""
    row["problems"] = "; ".join(report.get("problems") or [])
    row["error"] = line.get("error", "")
    return row


def write_summary(path: Path, lines: Iterable[Line]) -> None:
    """The summary CSV, one row per input, written whole (OutputError when it cannot)."""
    text = io.StringIO()
    out = csv.DictWriter(text, fieldnames=SUMMARY_COLUMNS, lineterminator="\n")
    out.writeheader()
    for line in lines:
        out.writerow(summary_row(line))
    write_bytes(path, text.getvalue().encode("utf-8", "backslashreplace"))
