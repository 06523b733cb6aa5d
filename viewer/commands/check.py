"""``citeview check CITATIONS [--json]``: check every evidence quote of a citations file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..state.presentation import status_word, summary_line
from ..state.records import Report
from . import add_input_options, add_verbose, fail, load, ocr_store, route_mupdf
from . import passwords as checked_passwords

if TYPE_CHECKING:
    from matcher.report import CheckReport


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="citeview check",
        description="Check every evidence quote of a citations file against its PDFs. "
                    "Exit status: 0 all input usable; 2 the citations file or a document "
                    "could not be used (the report is still printed when a document is "
                    "at fault).")
    parser.add_argument("citations", type=Path, help="a .cite or .json citations file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_input_options(parser)
    add_verbose(parser)
    opts = parser.parse_args(args)
    passwords = checked_passwords(parser, opts)

    from matcher.check import check_citations
    from matcher.citations import CitationsError
    from matcher.exit_status import exit_status, tell_problems
    from matcher.jsonout import model_json
    from matcher.mupdf_messages import log_mupdf_complaints, stdout_reserved
    from matcher.progress import Progress

    route_mupdf(opts.verbose)
    try:
        cf = load(opts)
    except CitationsError as exc:
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
    print(model_json(report) if opts.json else table(report))
    tell_problems(report.problems, sys.stderr)
    return int(exit_status(report.problems))


def table(check: CheckReport) -> str:
    """The readable form of a check: one row per evidence item, then the summary."""
    report = Report.from_json(check.model_dump(mode="json"))
    rows = [("claim", "#", "status", "page", "score", "reason")]
    for c in report.claims:
        if not c.evidence:
            rows.append((c.id, "-", status_word("uncited"), "", "", "no evidence given"))
        for e in c.evidence:
            rows.append((c.id, str(e.index), status_word(e.status), str(e.page or ""),
                         f"{e.score:.0f}" if e.score is not None else "", e.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " + r[5] for r in rows]
    lines.append("")
    lines.append(summary_line(report.summary, separator=", "))
    lines += [f"problem: {p}" for p in report.problems]
    return "\n".join(lines)
