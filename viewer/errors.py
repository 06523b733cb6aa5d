"""Unexpected errors reach the person as one plain sentence, never as a traceback dialog.

The traceback goes to a log file (and stderr); the window shows what went wrong in words
and where the details were written.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

log = logging.getLogger("citeview")

Show = Callable[[str], None]


def log_file() -> Path:
    """Where citeview writes its log (the user's log folder)."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("citeview", appauthor=False)) / "citeview.log"


def setup_logging(path: Path | None = None) -> Path | None:
    """Send warnings and errors to the log file; returns it (None if it cannot be written)."""
    target = path if path is not None else log_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(target, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    return target


def plain_message(exc: BaseException, log_path: Path | None) -> str:
    """One or two sentences for the person: what failed, and where the details are."""
    what = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = f"Something went wrong: {what}"
    if log_path is not None:
        text += f"\n\nThe details were written to {log_path}."
    return text


def install_excepthook(show: Show, log_path: Path | None) -> Callable[..., None]:
    """Replace ``sys.excepthook``: log the traceback, show a plain message. Returns the hook."""
    showing = False

    def hook(kind: type[BaseException], exc: BaseException,
             tb: TracebackType | None) -> None:
        nonlocal showing
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        log.error("unexpected error", exc_info=(kind, exc, tb))
        message = plain_message(exc, log_path)
        print(message, file=sys.stderr)
        if showing:  # an error while showing the last one: do not stack dialogs
            return
        showing = True
        try:
            show(message)
        except Exception:
            log.exception("could not show the error message")
        finally:
            showing = False

    sys.excepthook = hook
    return hook
