"""The exit status decision and the guard that keeps stdout for the result alone."""

from __future__ import annotations

import io
import subprocess
import sys

from matcher.exit_status import ExitStatus, exit_status, tell_problems


def test_the_worst_state_wins() -> None:
    assert exit_status([]) is ExitStatus.OK
    assert exit_status([], flagged=["c3: review"]) is ExitStatus.FLAGGED
    assert exit_status(["document 'd': /x.pdf: file not found"]) is ExitStatus.UNUSABLE
    assert exit_status(["document 'd': gone"], flagged=["c3: review"]) is ExitStatus.UNUSABLE
    assert [int(s) for s in ExitStatus] == [0, 1, 2, 130]


def test_each_problem_is_one_line_naming_its_file() -> None:
    err = io.StringIO()
    tell_problems(["document 'a': /a.pdf: file not found", "document 'b': /b.pdf: empty"], err)
    assert err.getvalue().splitlines() == ["citeview: document 'a': /a.pdf: file not found",
                                           "citeview: document 'b': /b.pdf: empty"]


def test_stdout_reserved_sends_every_other_write_to_stderr() -> None:
    code = ("import os, sys\n"
            "from matcher.mupdf_messages import stdout_reserved\n"
            "with stdout_reserved():\n"
            "    os.write(1, b'C-level noise\\n')\n"
            "    print('Python noise')\n"
            "print('the result')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "the result\n"
    assert "C-level noise" in out.stderr and "Python noise" in out.stderr
