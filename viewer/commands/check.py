"""``citeview check CITATIONS [--json]``: check every evidence quote of a citations file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..state.presentation import status_word, summary_line
from ..state.records import Report
from . import fail, ocr_store

if TYPE_CHECKING:
    from matcher.report import CheckReport


def main(args: list[str]) -> int:
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
        return fail(str(exc))
    passwords = dict(p.split("=", 1) for p in opts.password if "=" in p)
    # A progress line only for checks that outlast a second.
    bar = Progress(0, unit="quotes", label="checking", show_after=1.0)
    report = check_citations(cf, opts.citations, passwords=passwords, ocr=ocr_store(),
                             progress=None if opts.quiet else bar.update)
    bar.close()
    if opts.json:
        print(report.model_dump_json(indent=2))
    else:
        print(table(report))
    return 0


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
