"""``citeview import FORMAT RESPONSE …``: another system's answer as a citations file.

One subcommand per format of :data:`viewer.imports.FORMATS` (``citeview import --help``
lists them). The citations file written is an ordinary one: ``check``, the viewer, the
review and ``export`` work on it unchanged. Exit status: 0 written (its path on
stdout, what was written on stderr); 2 unusable input or output, nothing written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import fail


def add_import_inputs(parser: argparse.ArgumentParser, *, required: bool) -> None:
    """``--document FILE`` (repeatable) or ``--request REQUEST.json``: an answer's
    documents (shared by ``import``, ``check``, ``export`` and the viewer)."""
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("--document", action="append", type=Path, default=[], metavar="FILE",
                       help="a document the answer cites, in its document_index order "
                            "(repeatable): a PDF, or a UTF-8 text file for a plain-text "
                            "document")
    group.add_argument("--request", type=Path, metavar="REQUEST.json",
                       help="the request body that carried the documents: its PDFs and "
                            "texts are written beside the citations file")


def parser() -> argparse.ArgumentParser:
    from viewer.imports import FORMATS

    ap = argparse.ArgumentParser(
        prog="citeview import",
        description="Turn another system's answer into a citations file, so check, the "
                    "viewer, the review and export work on it. Exit status: 0 written; "
                    "2 unusable input or output (nothing written).",
        epilog="Formats:\n" + "\n".join(f"  {f.NAME:<12} {f.SUMMARY}"
                                        for f in FORMATS.values()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="format", metavar="FORMAT", required=True)
    for f in FORMATS.values():
        p = sub.add_parser(f.NAME, help=f.SUMMARY, description=f"Import {f.SUMMARY}.")
        p.add_argument("response", type=Path, metavar="RESPONSE.json",
                       help="the answer (or a JSON list of answers: one claim list)")
        add_import_inputs(p, required=True)
        p.add_argument("-o", "--output", type=Path, metavar="OUT.cite", default=None,
                       help="the citations file to write (default: RESPONSE.cite beside "
                            "the answer); an existing one is never overwritten")
    return ap


def main(args: list[str]) -> int:
    opts = parser().parse_args(args)
    from viewer.imports.model import ImportProblem, Inputs
    from viewer.imports.run import run_import

    from ..export.writing import OutputError

    try:
        done = run_import(opts.response, Inputs(tuple(opts.document), opts.request),
                          format_name=opts.format, out=opts.output)
    except (ImportProblem, OutputError) as exc:
        return fail(str(exc))
    for line in done.lines():
        print(f"citeview: {line}", file=sys.stderr)
    print(done.citations)
    return 0


def materialise(path: Path, documents: list[Path], request: Path | None) -> Path | int:
    """For ``check``/``export`` given an answer: import it as ``citeview import`` would
    (RESPONSE.cite beside it) and return that file, or the exit status of a failure."""
    from viewer.imports.model import ImportProblem, Inputs
    from viewer.imports.run import run_import

    from ..export.writing import OutputError

    try:
        done = run_import(path, Inputs(tuple(documents), request))
    except (ImportProblem, OutputError) as exc:
        return fail(str(exc))
    for line in done.lines():
        print(f"citeview: {line}", file=sys.stderr)
    return done.citations
