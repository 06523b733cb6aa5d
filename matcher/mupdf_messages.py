"""Keep MuPDF's complaints off stdout: they go to the log, and stdout carries only results.

PyMuPDF prints every MuPDF error ("MuPDF error: syntax error: missing font descriptor")
to ``sys.stdout`` by default, which breaks ``json.load`` of ``citeview check --json``.
:func:`route_mupdf_messages` sends them, and PyMuPDF's own messages, to the logger
``citeview.mupdf`` instead (the command line shows it on stderr with ``--verbose``, else
writes it to the log file). :func:`stdout_reserved` is a second guard, at the level of
file descriptors, for anything else a library might print while the work runs.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOGGER_NAME = "citeview.mupdf"
log = logging.getLogger(LOGGER_NAME)
_OURS = "_citeview_mupdf_handler"  # marks the handler show_mupdf_log installed


def route_mupdf_messages() -> None:
    """Send MuPDF's errors and warnings, and PyMuPDF's messages, to the ``citeview.mupdf``
    logger instead of stdout/stderr. Idempotent; imports PyMuPDF."""
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.set_messages(pylogging_logger=log, pylogging_level=logging.INFO)


def log_mupdf_complaints(context: str) -> int:
    """Log what MuPDF said since the last call (errors are kept in a list while they are
    not displayed) and empty that list, so it does not grow for the whole run; return how
    many lines there were."""
    import pymupdf

    said = [line for line in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines() if line]
    for line in said:
        log.info("%s: MuPDF: %s", context, line)
    return len(said)


@contextmanager
def stdout_reserved() -> Iterator[None]:
    """While the block runs, whatever is written to stdout (file descriptor 1, by Python
    or by C code) goes to stderr instead; afterwards stdout is restored for the result.

    Example::

        with stdout_reserved():
            report = check_citations(...)      # nothing here can reach stdout
        print(report_json)
    """
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout at all (closed by the caller): nothing to protect
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def show_mupdf_log(*, verbose: bool, log_path: Path | None) -> None:
    """Where the ``citeview.mupdf`` logger's lines go: stderr with ``verbose``, else the
    log file at ``log_path`` (opened only when a first line arrives), else nowhere.
    A later call replaces what an earlier one set up."""
    for old in [h for h in log.handlers if getattr(h, _OURS, False)]:
        log.removeHandler(old)
        old.close()
    handler: logging.Handler
    if verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("citeview: %(message)s"))
    elif log_path is not None:
        try:
            log_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        handler = _QuietFileHandler(log_path, encoding="utf-8", delay=True)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: "
                                               "%(message)s"))
    else:
        return
    setattr(handler, _OURS, True)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


class _QuietFileHandler(logging.FileHandler):
    """A log file that, when it cannot be written, says nothing rather than printing a
    traceback of its own to stderr (the log is a courtesy, not the result)."""

    def handleError(self, record: logging.LogRecord) -> None:
        del record
