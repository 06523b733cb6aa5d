"""The headless commands: ``citeview check``, ``export``, ``locate``, ``schema``, ``prepare``,
``store``, ``desktop``, ``import``, ``batch``.

They run in the command's own process, without a window: nothing here imports Qt, so
``citeview check`` starts fast and runs on a server. Every failure a user can cause ends
in a one-paragraph message and exit status 2. ``prepare`` and ``store`` are the OCR
store's (:mod:`matcher.ocr.cli`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from matcher.citations import CitationsFile
    from matcher.claims_stream import ClaimStream
    from matcher.document import OcrWordSource

SUBCOMMANDS = ("check", "export", "locate", "schema", "prepare", "store", "desktop", "import",
               "batch")
EXIT_USAGE = 2


def run(name: str, args: list[str]) -> int:
    """Run subcommand ``name`` (one of :data:`SUBCOMMANDS`) with its arguments."""
    if name == "check":
        from .check import main as check_main
        return check_main(args)
    if name == "export":
        from .export import main as export_main
        return export_main(args)
    if name == "locate":
        from .locate import main as locate_main
        return locate_main(args)
    if name == "schema":
        argparse.ArgumentParser(prog="citeview schema",
                                description="Print the JSON Schema of the citations file."
                                ).parse_args(args)
        from matcher.citations import json_schema
        print(json.dumps(json_schema(), indent=2))
        return 0
    if name == "store":
        from matcher.ocr.cli import store_main
        return store_main(args)
    if name == "batch":
        from .batch import main as batch_main
        return batch_main(args)
    if name == "desktop":
        from .desktop import main as desktop_main
        return desktop_main(args)
    if name == "import":
        from .importing import main as import_main
        return import_main(args)
    from matcher.ocr.cli import main as prepare_main
    return prepare_main(args)


def fail(message: str) -> int:
    """Say what went wrong on stderr; the exit status for a user's mistake."""
    from matcher.jsonout import printable

    shown = "\n".join(printable(line) for line in message.split("\n"))  # shown, not acted on
    print(f"citeview: {shown}", file=sys.stderr)
    return EXIT_USAGE


def add_verbose(parser: argparse.ArgumentParser) -> None:
    """Add ``--verbose``: MuPDF's messages about damaged PDFs shown on stderr."""
    parser.add_argument("--verbose", action="store_true",
                        help="show MuPDF's messages about damaged PDFs on stderr "
                             "(else they go to the log file)")


def route_mupdf(verbose: bool) -> None:
    """MuPDF's messages to stderr (``--verbose``) or the log file; never to stdout."""
    from matcher.mupdf_messages import route_mupdf_messages, show_mupdf_log

    from ..errors import log_file

    route_mupdf_messages()
    show_mupdf_log(verbose=verbose, log_path=None if verbose else log_file())


def ocr_store() -> OcrWordSource:
    """Where ``citeview prepare`` keeps OCR word boxes, so prepared scans are matched."""
    from matcher.ocr.store import OcrStore
    return OcrStore.default()


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """Add what reading and checking a citations file takes: ``--password``, ``--quiet``,
    ``--max-size``, and an answer's ``--document``/``--request`` (``check`` and
    ``export`` share them)."""
    from matcher.citations import DEFAULT_SIZE_LIMIT, SIZE_LIMIT_ENV

    from .importing import add_import_inputs

    add_import_inputs(parser, required=False)

    parser.add_argument("--password", action="append", default=[], metavar="DOC=PASSWORD",
                        help="password for an encrypted document (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--max-size", type=float, metavar="MB", default=None,
                        help="largest citations file read (default: "
                             f"{DEFAULT_SIZE_LIMIT // 1_000_000} MB, or ${SIZE_LIMIT_ENV})")


def passwords(parser: argparse.ArgumentParser, opts: argparse.Namespace) -> dict[str, str]:
    """The documents' passwords given; a usage error (status 2) for a malformed option."""
    if opts.max_size is not None and not 0 < opts.max_size < math.inf:
        parser.error("--max-size needs a number of MB above 0 (and not infinite)")
    bad = [p for p in opts.password if "=" not in p]
    if bad:
        parser.error(f"--password needs DOC=PASSWORD, not {bad[0]!r}")
    return dict(p.split("=", 1) for p in opts.password)


def max_bytes(opts: argparse.Namespace) -> int | None:
    """The largest citations file ``--max-size`` lets be read (None: the default)."""
    return None if opts.max_size is None else int(opts.max_size * 1_000_000)


def imported(opts: argparse.Namespace) -> int | None:
    """With ``--document``/``--request``, import the answer ``opts.citations`` as
    ``citeview import`` does and check that (``opts.citations`` becomes the file
    written); the exit status when that fails, else None."""
    if not opts.document and opts.request is None:
        return None
    from .importing import materialise

    got = materialise(opts.citations, opts.document, opts.request)
    if isinstance(got, int):
        return got
    opts.citations = got
    return None


def load(opts: argparse.Namespace) -> CitationsFile:
    """Read ``opts.citations`` within ``--max-size`` (CitationsError when it is bad); an
    answer to import is named as such."""
    return load_file(opts.citations, max_bytes=max_bytes(opts))


def load_file(path: Path, *, max_bytes: int | None = None) -> CitationsFile:
    """Read the citations file ``path`` (CitationsError when it is bad); an answer to
    import is named as such (``export`` reads its file with this)."""
    from matcher.citations import load_citations

    with _answer_named(path):
        return load_citations(path, max_bytes=max_bytes)


def open_file(path: Path, *, max_bytes: int | None = None) -> ClaimStream:
    """:func:`load_file`, the claims left to be read one at a time (``check`` and
    ``batch`` read their files with this)."""
    from matcher.claims_stream import open_claims

    with _answer_named(path):
        return open_claims(path, max_bytes=max_bytes)


@contextlib.contextmanager
def _answer_named(path: Path) -> Iterator[None]:
    """A citations file that is an answer to import: a CitationsError saying so."""
    from matcher.citations import CitationsError

    try:
        yield
    except CitationsError as exc:
        from viewer.imports.run import is_answer

        if is_answer(path):
            raise CitationsError(path, [("$", "an answer to import, not a "
                                 "citations file: give its documents with --document "
                                 "FILE (in document_index order) or --request "
                                 "REQUEST.json")]) from exc
        raise
