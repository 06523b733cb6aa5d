"""The progress line: counts, rate, ETA; redrawn in place on a terminal, periodic in a log."""

from __future__ import annotations

import io

from matcher.progress import LOG_INTERVAL_SECONDS, Progress, format_duration


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_durations() -> None:
    assert [format_duration(s) for s in (0, 7.4, 205, 3723)] == ["0:00", "0:07", "3:25",
                                                                  "1:02:03"]


def test_line_shows_done_total_rate_and_eta() -> None:
    clock = FakeClock()
    bar = Progress(40, stream=io.StringIO(), tty=False, clock=clock)
    assert "0/40 pages" in bar.line() and "ETA --" in bar.line()
    clock.now += 10
    bar.done = 20
    line = bar.line()
    assert "20/40 pages" in line and "2.00 pages/s" in line and "ETA 0:10" in line
    assert "50%" in line and "elapsed 0:10" in line


def test_a_log_gets_a_line_per_interval_and_at_the_end() -> None:
    clock = FakeClock()
    out = io.StringIO()
    bar = Progress(5, stream=out, tty=False, clock=clock)
    for _ in range(4):
        clock.now += LOG_INTERVAL_SECONDS / 3
        bar.advance()
    bar.advance()
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    assert len(lines) == 2 and lines[-1].startswith("OCR 5/5 pages")


def test_a_terminal_line_is_redrawn_in_place_and_notes_do_not_garble_it() -> None:
    clock = FakeClock()
    out = FakeTty()
    bar = Progress(3, stream=out, clock=clock)
    bar.draw(force=True)
    clock.now += 1
    bar.advance()
    bar.note("failed: x.pdf page 2: reason")
    clock.now += 1
    bar.advance()
    bar.advance()
    bar.close()
    text = out.getvalue()
    assert text.count("\r") >= 4 and text.endswith("\n")
    assert "\nfailed: x.pdf page 2: reason\n" in text.replace("\r", "\n")
    assert text.rstrip().split("\r")[-1].startswith("OCR 3/3 pages")


def test_short_work_shows_nothing_and_long_work_shows_progress() -> None:
    clock = FakeClock()
    out = FakeTty()
    bar = Progress(0, unit="quotes", label="checking", stream=out, clock=clock, show_after=1.0)
    clock.now += 0.5
    bar.update(3, 3)
    bar.close()
    assert out.getvalue() == ""

    slow = Progress(0, unit="quotes", label="checking", stream=out, clock=clock, show_after=1.0)
    clock.now += 2.0
    slow.update(5, 10)
    assert "checking 5/10 quotes" in out.getvalue()
    slow.update(10, 10)
    slow.close()
    assert out.getvalue().endswith("\n") and "10/10" in out.getvalue()
