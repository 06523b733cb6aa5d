"""What ``citeview FILE`` does about other citeviews, before it imports Qt.

:func:`add_gui_arguments` adds ``--new-instance`` and further FILEs (a desktop passes
every selected file, ``Exec=citeview %F``); :func:`hand_over` settles, before any child
process is started, whether this launch hands its files to the citeview already running
for this user and display (and so ends) or is that citeview from now on.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from .instance import Outcome, Request, claim

# One launch — a desktop opening a selection of files, a request handed over — opens at
# most this many windows (each runs a check and a render process); the rest are refused
# with a message. CITEVIEW_MAX_WINDOWS changes it.
DEFAULT_MAX_WINDOWS = 8
MAX_WINDOWS_ENV = "CITEVIEW_MAX_WINDOWS"


def max_windows(env: Mapping[str, str] | None = None) -> int:
    """How many windows one launch may open (at least 1)."""
    raw = (os.environ if env is None else env).get(MAX_WINDOWS_ENV, "")
    try:
        return max(1, int(raw))
    except ValueError:
        return DEFAULT_MAX_WINDOWS


def refused_windows(paths: Sequence[Path | str], stream: TextIO) -> None:
    """Say which files one launch did not open, being over :func:`max_windows`."""
    if paths:
        stream.write(f"citeview: {len(paths)} file(s) not opened — one launch opens at most "
                     f"{max_windows()} windows (${MAX_WINDOWS_ENV}): "
                     + ", ".join(str(p) for p in paths) + "\n")


def add_gui_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options about other running citeviews to the viewer's ``parser``."""
    parser.add_argument("more_files", nargs="*", type=Path, metavar="FILE",
                        help="further files, each opened in a window of its own")
    parser.add_argument("--new-instance", action="store_true",
                        help="run on its own, even if citeview is running already (a run "
                             "with --screenshot always does)")


def check_gui_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Reject option combinations :func:`add_gui_arguments` makes possible."""
    if args.more_files and args.screenshot is not None:
        parser.error("--screenshot takes one FILE")


def launch_files(args: argparse.Namespace) -> list[Path]:
    """Every file the options ask to open, the demo's included, as absolute paths (a
    launch hands them to a process that may run in another folder)."""
    if args.demo:
        from ..state.files import demo_path

        files = [demo_path()]
    else:
        files = [f for f in (args.file, *args.more_files) if f is not None]
    return [Path(os.path.abspath(os.path.expanduser(f))) for f in files]


def viewer_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options that say how a handed-over file is shown, as plain JSON values."""
    options: dict[str, Any] = {"claim": args.claim, "page": args.page, "zoom": args.zoom,
                               "size": list(args.size) if args.size else None}
    if args.highlight_color is not None:
        options["highlight"] = args.highlight_color.name()
    return {k: v for k, v in options.items() if v is not None}


def hand_over(args: argparse.Namespace) -> Outcome:
    """Hand this launch's files to the running citeview, or become it (see
    :func:`viewer.launcher.instance.claim`). A screenshot run and ``--new-instance``
    do neither: they always run on their own and listen for no one."""
    if args.screenshot is not None or args.new_instance:
        return Outcome()
    files = launch_files(args)
    outcome = claim(Request(files=tuple(map(str, files)), options=viewer_options(args)))
    if outcome.reply is not None:
        for f in files:
            if not f.exists():
                print(f"citeview: {f} does not exist (the running citeview says so too)",
                      file=sys.stderr)
        refused = outcome.reply.get("refused")
        if isinstance(refused, list):
            refused_windows([str(f) for f in refused], sys.stderr)
        if not outcome.reply.get("ok", False):
            print(f"citeview: the running citeview refused: {outcome.reply.get('error')}",
                  file=sys.stderr)
    return outcome
