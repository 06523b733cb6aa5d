"""``citeview export CITATIONS``: hand a review over as an annotated PDF, an HTML report,
a CSV table and W3C Web Annotations (any of them).

The citations file is checked as ``citeview check`` does, the review beside it (or the
one named) is applied, and each output asked for is written whole. The path of each file
written goes to stdout, one a line; progress and problems go to stderr. Exit status as
``check``: 0 written; 2 unusable input (nothing written when the citations file, the
review or an output path is at fault; what could be written is, when a document is).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import add_input_options, add_verbose, fail, imported, load, ocr_store, route_mupdf
from . import passwords as checked_passwords


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="citeview export",
        description="Write the review of a citations file as an annotated copy of each PDF, "
                    "an HTML report, a CSV table and W3C Web Annotations (any of them). "
                    "Exit status: 0 written; 2 unusable input.")
    ap.add_argument("citations", type=Path,
                        help="a .cite or .json citations file, or an answer to import "
                             "(with --document or --request)")
    ap.add_argument("--review", type=Path, metavar="FILE",
                    help="the review's decisions (default: NAME.review.json beside "
                         "NAME.cite, or the one kept in citeview's data folder)")
    ap.add_argument("--pdf", type=Path, metavar="PATH",
                    help="the annotated copy (with several documents: a folder that "
                         "receives one copy per document)")
    ap.add_argument("--html", type=Path, metavar="OUT.html", help="the HTML report")
    ap.add_argument("--csv", type=Path, metavar="OUT.csv", help="one row per evidence item")
    ap.add_argument("--annotations", type=Path, metavar="OUT.jsonld",
                    help="W3C Web Annotations (JSON-LD)")
    add_input_options(ap)
    add_verbose(ap)
    return ap


def main(args: list[str]) -> int:
    ap = parser()
    opts = ap.parse_args(args)
    from ..state.exports import ExportTargets

    targets = ExportTargets(opts.pdf, opts.html, opts.csv, opts.annotations)
    if not targets.any():
        ap.error("nothing to export: give --pdf, --html, --csv or --annotations")
    passwords = checked_passwords(ap, opts)

    from matcher.check import check_citations
    from matcher.citations import CitationsError
    from matcher.exit_status import exit_status, tell_problems
    from matcher.mupdf_messages import log_mupdf_complaints, stdout_reserved
    from matcher.progress import Progress

    from ..checker.citations import citations_record
    from ..checker.review import load_review, reviewed_report
    from ..export.run import export
    from ..export.writing import OutputError
    from ..state.sidecar import SidecarError

    route_mupdf(opts.verbose)
    failed = imported(opts)
    if failed is not None:
        return failed
    try:
        cf = load(opts)
    except CitationsError as exc:
        return fail(str(exc))
    try:  # an unusable review file is told before the check, not after it
        review, review_path = load_review(opts.citations, opts.review)
    except SidecarError as exc:
        return fail(str(exc))
    checking = Progress(0, unit="quotes", label="checking", show_after=1.0)
    exporting = Progress(0, unit="steps", label="exporting", show_after=1.0)
    with stdout_reserved():
        report = check_citations(cf, opts.citations, passwords=passwords, ocr=ocr_store(),
                                 progress=None if opts.quiet else checking.update)
        checking.close()
        try:
            data = reviewed_report(report, cf, opts.citations, review)
            done = export(data, citations_path=opts.citations,
                          citations=citations_record(cf, opts.citations), targets=targets,
                          review_path=review_path, passwords=passwords, ocr=ocr_store(),
                          progress=None if opts.quiet else exporting.update)
        except OutputError as exc:
            exporting.close()
            return fail(str(exc))
        exporting.close()
        log_mupdf_complaints(str(opts.citations))
    for path in done.written:
        print(path)
    tell_problems(done.problems, sys.stderr)
    return int(exit_status(done.problems))
