"""A plain-text progress line: done/total, rate and ETA, on a terminal or in a log.

On a terminal the line is redrawn in place with ``\\r``; anywhere else (CI logs, a pipe)
a full line is printed every ``LOG_INTERVAL_SECONDS`` so the log stays readable. Used by
``citeview prepare`` (pages) and ``citeview check`` (quotes).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

BAR_WIDTH = 24  # characters of the bar: fits an 80-column terminal with the numbers
# Redrawing more often than this on a terminal only burns time; 10 updates/s look smooth.
TTY_INTERVAL_SECONDS = 0.1
# How often a log (not a terminal) gets a progress line: often enough to show life in CI,
# rare enough that an hour-long run is a few hundred lines.
LOG_INTERVAL_SECONDS = 10.0


def format_duration(seconds: float) -> str:
    """``0:07``, ``3:25``, ``1:02:03``: h:mm:ss without the hour when it is zero."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Counts finished units and shows ``done/total``, a bar, the rate and the ETA."""

    def __init__(
        self,
        total: int,
        *,
        unit: str = "pages",
        label: str = "OCR",
        stream: TextIO | None = None,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        show_after: float = 0.0,
    ) -> None:
        self.total = total
        # Work that ends sooner than this shows nothing at all (a check of three quotes).
        self.show_after = show_after
        self.done = 0
        self.unit = unit
        self.label = label
        self._stream = stream if stream is not None else sys.stderr
        self._tty = self._stream.isatty() if tty is None else tty
        self._clock = clock
        self._start = clock()
        self._last_draw = self._start  # a log's first line comes one interval in
        self._width = 0  # length of the line on screen, to blank it out when it shrinks

    @property
    def elapsed(self) -> float:
        return self._clock() - self._start

    def rate(self) -> float | None:
        """Units per second since the start, ``None`` before the first one."""
        elapsed = self.elapsed
        return self.done / elapsed if self.done and elapsed > 0 else None

    def line(self) -> str:
        """The progress text, e.g. ``OCR 12/40 pages [#####...]  30%  1.8 pages/s  ETA 0:15``."""
        share = self.done / self.total if self.total else 1.0
        filled = round(share * BAR_WIDTH)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        rate = self.rate()
        if rate is None:
            speed, eta = f"-- {self.unit}/s", "ETA --"
        else:
            speed = f"{rate:.2f} {self.unit}/s"
            eta = f"ETA {format_duration((self.total - self.done) / rate)}"
        return (f"{self.label} {self.done}/{self.total} {self.unit} [{bar}] {share:4.0%}  "
                f"{speed}  {eta}  elapsed {format_duration(self.elapsed)}")

    def update(self, done: int, total: int) -> None:
        """Set the counts (for callers that report ``done`` of ``total`` themselves)."""
        self.done, self.total = done, total
        self.draw(force=done >= total)

    def advance(self, n: int = 1) -> None:
        """Count ``n`` finished units and redraw if it is time to."""
        self.done += n
        self.draw(force=self.done >= self.total)

    def draw(self, *, force: bool = False) -> None:
        """Show the current line (on a log only every ``LOG_INTERVAL_SECONDS`` unless forced)."""
        now = self._clock()
        if now - self._start < self.show_after:
            return
        interval = TTY_INTERVAL_SECONDS if self._tty else LOG_INTERVAL_SECONDS
        if not force and now - self._last_draw < interval:
            return
        self._last_draw = now
        text = self.line()
        if self._tty:
            pad = " " * max(0, self._width - len(text))
            self._stream.write("\r" + text + pad)
            self._width = len(text)
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def note(self, message: str) -> None:
        """Print a message on its own line without garbling the progress line."""
        if self._tty and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._width = 0
        self._stream.write(message + "\n")
        self._stream.flush()
        if self._tty:
            self.draw(force=True)

    def close(self) -> None:
        """End the progress line (the terminal cursor moves to a fresh line)."""
        if self._tty and self._width:
            self._stream.write("\n")
            self._stream.flush()
            self._width = 0
