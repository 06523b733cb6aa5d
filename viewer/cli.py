"""The ``citeview`` command: open the viewer, or run a headless subcommand.

A subcommand (check, export, locate, schema, prepare, store, desktop, import, batch) goes
to :mod:`viewer.commands`, which never imports Qt, so ``citeview check`` starts fast and
runs on a server; anything else opens the viewer (:mod:`viewer.app`). Every failure a user
can cause ends in a one-paragraph message and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import codecache
from .commands import SUBCOMMANDS, run


def _version() -> str:
    # Imported here: importlib.metadata takes ~10 ms, and `citeview FILE` never needs it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("citeview")
    except PackageNotFoundError:
        return "0+unknown"


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citeview",
        description="Check that an AI answer's evidence quotes really stand in the PDF: "
                    "highlight the exact words on the exact page, or say plainly that they "
                    "are not there.",
        epilog="Subcommands (citeview SUBCOMMAND --help for details):\n"
               "  check CITATIONS [--json]          check every quote of a citations file\n"
               "  export CITATIONS [--pdf P] [--html H] [--csv C] [--annotations A]\n"
               "                                    annotated PDF, HTML report, CSV, W3C "
               "annotations\n"
               "  locate PDF --quote TEXT [--page N] [--json]\n"
               "                                    place one quote on a PDF\n"
               "  import FORMAT ANSWER (--document F … | --request R) [-o OUT.cite]\n"
               "                                    another system's answer as a citations "
               "file\n"
               "  schema                            print the citations file's JSON Schema\n"
               "  prepare FOLDER [--lang eng]       OCR scanned pages once, store word boxes\n"
               "  store [--forget-older-than DAYS]  what the OCR store holds; free space\n"
               "  batch INPUT... --out RESULTS.jsonl [--workers N | --scheduler ADDR]\n"
               "                                    check many files on a Dask cluster\n"
               "  desktop install|uninstall [--system]\n"
               "                                    open .cite files in citeview from the "
               "desktop\n"
               "\nWithout a subcommand, citeview opens the viewer on FILE (a .cite/.json "
               "citations file or a PDF; an answer to import with --document or "
               "--request).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"citeview {_version()}")
    try:
        from viewer.app import add_gui_arguments
    except ImportError:  # the GUI module is missing or Qt cannot load; subcommands still work
        parser.add_argument("file", nargs="?", help="citations file or PDF to open")
    else:
        add_gui_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citeview`` console command."""
    args = list(sys.argv[1:] if argv is None else argv)
    codecache.install()  # the classes made from here on, from code an earlier run compiled
    try:
        if args and args[0] in SUBCOMMANDS:
            try:
                return run(args[0], args[1:])
            finally:
                codecache.save()
        if not args or args[0] in ("-h", "--help", "--version"):
            if args:
                _top_parser().parse_args(args)
                return 0
        from viewer.app import main as gui_main
        return gui_main(args)
    except KeyboardInterrupt:
        print("citeview: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def entry() -> None:
    """The ``citeview`` console command: :func:`main`, then leave with its status (after a
    window, without the interpreter's teardown: viewer.app.leave)."""
    code = main()
    app = sys.modules.get("viewer.app")
    if app is not None:
        app.leave(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
