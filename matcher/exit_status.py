"""The exit status of ``citeview check`` and ``citeview locate``, decided in one place.

An upstream pipeline runs ``citeview check`` on every answer before a person sees it and
reads the status to know whether the result can be trusted. The convention is grep's: a
result for whatever could be read, and a status that says whether something could not.

======  =================================================================================
status  meaning
======  =================================================================================
0       the input was usable: the citations file was valid and every document it names
        (for ``locate``: the one PDF) could be opened and read
1       reserved for results a caller asked to fail on (``--fail-on STATES``): the input
        was usable but some of those states remain
2       unusable input: the citations file (nothing on stdout), or a document (the full
        report is still printed, its items ``not_located`` and the document in
        ``problems``); stderr names each file and its problem
130     interrupted (Ctrl-C)
======  =================================================================================

The worst state wins: unusable input over flagged results over success.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import TextIO

from .jsonout import printable


class ExitStatus(IntEnum):
    """What the process's exit status tells the caller (see the module's table)."""

    OK = 0
    FLAGGED = 1
    UNUSABLE = 2
    INTERRUPTED = 130


def exit_status(problems: Sequence[str], flagged: Sequence[str] = ()) -> ExitStatus:
    """The status for a finished run: ``problems`` are inputs that could not be used (a
    document missing, unreadable, encrypted…), ``flagged`` results a caller asked to fail
    on. Unusable input outranks flagged results, which outrank success.

    >>> exit_status([]), exit_status(["document 'p': /x/p.pdf: file not found"])
    (<ExitStatus.OK: 0>, <ExitStatus.UNUSABLE: 2>)
    """
    if problems:
        return ExitStatus.UNUSABLE
    if flagged:
        return ExitStatus.FLAGGED
    return ExitStatus.OK


def tell_problems(problems: Iterable[str], stream: TextIO, *, prog: str = "citeview") -> None:
    """Write one line per problem to ``stream`` (stderr), each naming its file."""
    for problem in problems:
        stream.write(f"{prog}: {printable(problem)}\n")  # a claim id shown, not acted on
    stream.flush()
