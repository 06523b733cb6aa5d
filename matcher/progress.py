"""A plain-text progress line for terminal commands: done/total, rate and ETA.

On a terminal the line is redrawn in place; otherwise (CI logs, pipes) a line is
printed at most every few seconds so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

# Work shorter than this shows no progress at all (the brief: progress for > 1 s).
SHOW_AFTER_S = 1.0
# Without a terminal, one line per this many seconds.
LOG_EVERY_S = 5.0


class TerminalProgress:
    """Report ``update(done, total)`` calls on stderr once the work outlasts a second."""

    def __init__(self, label: str, *, unit: str = "items", enabled: bool = True,
                 stream: TextIO | None = None) -> None:
        self.label, self.unit, self.enabled = label, unit, enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.done = self.total = 0

    def line(self, done: int, total: int, now: float) -> str:
        """The text shown for ``done`` of ``total`` at time ``now`` (monotonic seconds)."""
        elapsed = max(now - self.start, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 and total > done else 0.0
        pct = 100.0 * done / total if total else 100.0
        return (f"{self.label}: {done}/{total} {self.unit} ({pct:.0f}%), "
                f"{rate:.1f} {self.unit}/s, ETA {_clock(eta)}")

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < SHOW_AFTER_S:
            return
        if self.tty:
            if now - self.last >= 0.1 or done == total:
                self.stream.write("\r\033[K" + self.line(done, total, now))
                self.stream.flush()
                self.last, self.shown = now, True
        elif now - self.last >= LOG_EVERY_S:
            self.stream.write(self.line(done, total, now) + "\n")
            self.stream.flush()
            self.last, self.shown = now, True

    def finish(self) -> None:
        """Print the final state, if anything was shown."""
        if self.enabled and self.shown:
            prefix = "\r\033[K" if self.tty else ""
            self.stream.write(prefix + self.line(self.done, self.total, time.monotonic()) + "\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else \
        f"{s // 60}:{s % 60:02d}"
