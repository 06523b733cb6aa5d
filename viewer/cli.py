"""The ``citeview`` command: open the viewer, or check / locate / schema / prepare / store.

Subcommands never import Qt, so ``citeview check`` starts fast and runs on a server.
Every failure a user can cause ends in a one-paragraph message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matcher.document import OcrWordSource
    from matcher.report import CheckReport

SUBCOMMANDS = ("check", "locate", "schema", "prepare", "store")
EXIT_USAGE = 2


def _version() -> str:
    # Imported here: importlib.metadata takes ~10 ms, and `citeview FILE` never needs it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("citeview")
    except PackageNotFoundError:
        return "0+unknown"


def _fail(message: str) -> int:
    print(f"citeview: {message}", file=sys.stderr)
    return EXIT_USAGE


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citeview",
        description="Check that an AI answer's evidence quotes really stand in the PDF: "
                    "highlight the exact words on the exact page, or say plainly that they "
                    "are not there.",
        epilog="Subcommands (citeview SUBCOMMAND --help for details):\n"
               "  check CITATIONS [--json]          check every quote of a citations file\n"
               "  locate PDF --quote TEXT [--page N] [--json]\n"
               "                                    place one quote on a PDF\n"
               "  schema                            print the citations file's JSON Schema\n"
               "  prepare FOLDER [--lang eng]       OCR scanned pages once, store word boxes\n"
               "  store [--forget-older-than DAYS]  what the OCR store holds; free space\n"
               "\nWithout a subcommand, citeview opens the viewer on FILE (a .cite/.json "
               "citations file or a PDF).",
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
    try:
        if args and args[0] in SUBCOMMANDS:
            return _subcommand(args[0], args[1:])
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


def _subcommand(name: str, args: list[str]) -> int:
    if name == "check":
        return _check(args)
    if name == "locate":
        return _locate(args)
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
    from matcher.ocr.cli import main as prepare_main
    return prepare_main(args)


def _check(args: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="citeview check",
        description="Check every evidence quote of a citations file against its PDFs.")
    parser.add_argument("citations", type=Path, help="a .cite or .json citations file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--password", action="append", default=[], metavar="DOC=PASSWORD",
                        help="password for an encrypted document (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    opts = parser.parse_args(args)

    from matcher.check import check_citations
    from matcher.citations import CitationsError, load_citations
    from matcher.progress import Progress

    try:
        cf = load_citations(opts.citations)
    except CitationsError as exc:
        return _fail(str(exc))
    passwords = dict(p.split("=", 1) for p in opts.password if "=" in p)
    # Progress only for checks that outlast a second, as the brief asks.
    bar = Progress(0, unit="quotes", label="checking", show_after=1.0)
    report = check_citations(cf, opts.citations, passwords=passwords, ocr=_ocr_store(),
                             progress=None if opts.quiet else bar.update)
    bar.close()
    if opts.json:
        print(report.model_dump_json(indent=2))
    else:
        print(_table(report))
    return 0


def _ocr_store() -> OcrWordSource:
    """Where ``citeview prepare`` keeps OCR word boxes, so prepared scans are matched."""
    from matcher.ocr.store import OcrStore
    return OcrStore.default()


def _table(report: CheckReport) -> str:
    """The readable form of a check: one row per evidence item, then the summary."""
    rows = [("claim", "#", "status", "page", "score", "reason")]
    for c in report.claims:
        if not c.evidence:
            rows.append((c.id, "-", "uncited", "", "", "no evidence given"))
        for e in c.evidence:
            rows.append((c.id, str(e.index), e.status, str(e.page or ""),
                         f"{e.score:.0f}" if e.score is not None else "", e.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " + r[5] for r in rows]
    s = report.summary
    lines.append("")
    lines.append(f"{s.located} located, {s.review} to review, {s.not_located} not located, "
                 f"{s.rejected} rejected, {s.uncited} uncited")
    lines += [f"problem: {p}" for p in report.problems]
    return "\n".join(lines)


def _locate(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="citeview locate",
                                     description="Place one quote on a PDF's page(s).")
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--quote", required=True, help="the text to find")
    parser.add_argument("--page", type=int, action="append", default=[],
                        help="1-based page hint (repeatable); not a promise")
    parser.add_argument("--password", default=None)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args(args)

    from matcher.document import DocumentError, PdfSource
    from matcher.locate import locate_quote
    from matcher.report import locate_json

    try:
        src = PdfSource(opts.pdf, password=opts.password,
                        ocr=_ocr_store())
    except DocumentError as exc:
        return _fail(str(exc))
    with src:
        p = locate_quote(src, opts.quote, hints=[n - 1 for n in opts.page])
    out = locate_json(p)
    if opts.json:
        print(json.dumps(out, indent=2))
    else:
        where = f"page {out['page']}" if out["page"] else "no page"
        print(f"{p.status} ({where}, score {p.score:.0f}): {p.reason}")
        for r in p.rects:
            print("  rect " + ", ".join(f"{v:.1f}" for v in r))
        if p.found_text:
            print(f"  text: {p.found_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
