"""``citeview locate PDF --quote TEXT [--page N] [--json]``: place one quote on a PDF."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import add_verbose, ocr_store, route_mupdf


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="citeview locate",
                                     description="Place one quote on a PDF's page(s). "
                                                 "Exit status: 0 the PDF could be read; 2 "
                                                 "it could not (the result says why).")
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--quote", required=True, help="the text to find")
    parser.add_argument("--page", type=int, action="append", default=[],
                        help="1-based page hint (repeatable); not a promise")
    parser.add_argument("--password", default=None)
    parser.add_argument("--json", action="store_true")
    add_verbose(parser)
    opts = parser.parse_args(args)

    from matcher.document import DocumentError, PdfSource
    from matcher.exit_status import exit_status, tell_problems
    from matcher.jsonout import json_text
    from matcher.locate import locate_quote
    from matcher.locate_output import placement_result, result_lines, unusable_result
    from matcher.mupdf_messages import log_mupdf_complaints, stdout_reserved

    route_mupdf(opts.verbose)
    with stdout_reserved():
        try:
            src = PdfSource(opts.pdf, password=opts.password, ocr=ocr_store())
        except DocumentError as exc:
            out = unusable_result(exc)
        else:
            with src:
                out = placement_result(locate_quote(src, opts.quote,
                                                    hints=[n - 1 for n in opts.page]))
        log_mupdf_complaints(str(opts.pdf))
    print(json_text(out) if opts.json else "\n".join(result_lines(out)))
    problems = out.get("problems", [])
    tell_problems(problems, sys.stderr)
    return int(exit_status(problems))
