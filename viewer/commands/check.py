"""``citeview check CITATIONS [--json] [--review FILE] [--fail-on STATES]``: check every
evidence quote of a citations file, with the review decisions made about it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..checker.review import apply, attach, decision_word, load_review, parse_fail_on, review_line
from ..state.presentation import status_word, summary_line
from ..state.records import Report
from ..state.review import FAIL_STATES, Review
from . import add_input_options, add_verbose, fail, imported, load, ocr_store, route_mupdf
from . import passwords as checked_passwords

if TYPE_CHECKING:
    from matcher.report import CheckReport


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="citeview check",
        description="Check every evidence quote of a citations file against its PDFs. "
                    "Exit status: 0 all input usable; 1 with --fail-on, a listed state "
                    "remains; 2 the citations file, its review file or a document could "
                    "not be used (the report is still printed when a document is at "
                    "fault).")
    parser.add_argument("citations", type=Path,
                        help="a .cite or .json citations file, or an answer to import "
                             "(with --document or --request)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_input_options(parser)
    parser.add_argument("--review", type=Path, metavar="FILE", default=None,
                        help="the review decisions (default: NAME.review.json beside the "
                             "citations file, or the one kept in citeview's data folder)")
    parser.add_argument("--fail-on", metavar="STATES", default=None,
                        help="exit 1 when an item or claim in any of these states remains "
                             f"(comma-separated: {','.join(FAIL_STATES)})")
    add_verbose(parser)
    opts = parser.parse_args(args)
    try:
        fail_on = parse_fail_on(opts.fail_on) if opts.fail_on is not None else []
    except ValueError as exc:
        parser.error(str(exc))
    passwords = checked_passwords(parser, opts)

    from matcher.check import check_citations
    from matcher.citations import CitationsError
    from matcher.exit_status import exit_status, tell_problems
    from matcher.mupdf_messages import log_mupdf_complaints, stdout_reserved
    from matcher.progress import Progress

    route_mupdf(opts.verbose)
    failed = imported(opts)
    if failed is not None:
        return failed
    try:
        cf = load(opts)
    except CitationsError as exc:
        return fail(str(exc))
    from ..state.sidecar import SidecarError

    try:
        review, review_path = load_review(opts.citations, opts.review)
    except SidecarError as exc:
        return fail(str(exc))
    if cf.assigned_ids and not opts.quiet:
        ids = cf.assigned_ids
        shown = ", ".join(ids[:3]) + (f", … {ids[-1]}" if len(ids) > 3 else "")
        print(f"citeview: {opts.citations}: {len(ids)} claim(s) without an id were given "
              f"ids in file order: {shown}", file=sys.stderr)
    # A progress line only for checks that outlast a second.
    bar = Progress(0, unit="quotes", label="checking", show_after=1.0)
    with stdout_reserved():
        report = check_citations(cf, opts.citations, passwords=passwords, ocr=ocr_store(),
                                 progress=None if opts.quiet else bar.update)
        log_mupdf_complaints(str(opts.citations))
    bar.close()
    attach(review, cf, opts.citations, report)
    apply(report, review)
    if opts.json:
        from matcher.jsonout import model_json

        print(model_json(report))
    else:
        print(table(report, review, review_path))
    tell_problems(report.problems, sys.stderr)
    remaining = review.remaining(fail_on)
    tell_problems(remaining[:MAX_REMAINING_SHOWN], sys.stderr)
    if len(remaining) > MAX_REMAINING_SHOWN:
        print(f"citeview: … and {len(remaining) - MAX_REMAINING_SHOWN} more",
              file=sys.stderr)
    return int(exit_status(report.problems, remaining))


# Lines of "what remains" (--fail-on) written to stderr at most; the rest are counted.
MAX_REMAINING_SHOWN = 50


def table(check: CheckReport, review: Review | None = None,
          review_path: Path | None = None) -> str:
    """The readable form of a check: one row per evidence item, then the summary; with
    a review file, each item's decision and a line on what is decided."""
    report = Report.from_json(check.model_dump(mode="json"))
    shown = review if review_path is not None else None  # a decision column when read
    rows: list[tuple[str, ...]] = [("claim", "#", "status", "page", "score")
                                   + (("decision",) if shown else ()) + ("reason",)]
    for c in report.claims:
        if not c.evidence:
            rows.append((c.id, "-", status_word("uncited"), "", "")
                        + (("",) if shown else ()) + ("no evidence given",))
        for e in c.evidence:
            rows.append((c.id, str(e.index), status_word(e.status), str(e.page or ""),
                         f"{e.score:.0f}" if e.score is not None else "")
                        + ((decision_word(shown, c.id, e.index),) if shown else ())
                        + (e.reason,))
    n = len(rows[0]) - 1  # every column but the reason is padded
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(n)) + "  " + r[n] for r in rows]
    lines.append("")
    lines.append(summary_line(report.summary, separator=", "))
    if shown is not None:
        lines.append(review_line(shown, review_path))
    lines += [f"problem: {p}" for p in report.problems]
    return "\n".join(lines)
