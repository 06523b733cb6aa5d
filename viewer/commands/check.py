"""``citeview check CITATIONS [--json] [--review FILE] [--fail-on STATES]``: check every
evidence quote of a citations file, with the review decisions made about it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from matcher.exit_status import ExitStatus
from matcher.jsonout import printable

from ..checker.citations import report_record
from ..checker.review import (
    apply,
    attach,
    decision_word,
    load_review,
    parse_fail_on,
    relocated,
    review_line,
)
from ..state.presentation import (
    CLAIM_DIFFERS,
    consistency_sentence,
    status_word,
    summary_line,
)
from ..state.review import FAIL_STATES, FailState, Review
from . import (
    add_input_options,
    add_verbose,
    fail,
    imported,
    load_file,
    max_bytes,
    ocr_store,
    route_mupdf,
)
from . import passwords as checked_passwords

if TYPE_CHECKING:
    from matcher.citations import CitationsFile
    from matcher.open_documents import OpenDocuments
    from matcher.report import CheckReport
    from matcher.vocabulary import ProgressCallback


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

    from matcher.exit_status import tell_problems
    from matcher.mupdf_messages import stdout_reserved
    from matcher.progress import Progress

    route_mupdf(opts.verbose)
    failed = imported(opts)
    if failed is not None:
        return failed

    # A progress line only for checks that outlast a second, counted from the check's
    # start (the files read first).
    bars: list[Progress] = []

    def loaded(cf: CitationsFile) -> None:
        if cf.assigned_ids and not opts.quiet:
            ids = cf.assigned_ids
            shown = ", ".join(ids[:3]) + (f", … {ids[-1]}" if len(ids) > 3 else "")
            print(f"citeview: {opts.citations}: {len(ids)} claim(s) without an id were "
                  f"given ids in file order: {shown}", file=sys.stderr)
        bars.append(Progress(0, unit="quotes", label="checking", show_after=1.0))

    def progress(done: int, total: int) -> None:
        bars[-1].update(done, total)

    with stdout_reserved():
        checked = check_file(opts.citations, fail_on=fail_on, passwords=passwords,
                             max_bytes=max_bytes(opts), review_path=opts.review,
                             progress=None if opts.quiet else progress, on_loaded=loaded)
    for bar in bars:
        bar.close()
    if checked.report is None:
        return fail(checked.error or "")
    report, review = checked.report, checked.review
    if opts.json:
        from matcher.report import write_report_json

        write_report_json(report, sys.stdout)  # a claim at a time, never one whole string
    else:
        print(table(report, review, checked.review_path))
    tell_problems(report.problems, sys.stderr)
    remaining = checked.remaining
    tell_problems(remaining[:MAX_REMAINING_SHOWN], sys.stderr)
    if len(remaining) > MAX_REMAINING_SHOWN:
        print(f"citeview: … and {len(remaining) - MAX_REMAINING_SHOWN} more",
              file=sys.stderr)
    return checked.exit


@dataclass
class Checked:
    """One citations file checked as ``citeview check`` checks it: its exit status, and
    the report with the review's decisions on it, or why there is none (the citations
    file or its review file was unusable: status 2, ``error`` saying why)."""

    exit: int
    report: CheckReport | None = None
    error: str | None = None
    review: Review = field(default_factory=Review)
    review_path: Path | None = None
    remaining: list[str] = field(default_factory=list)  # what --fail-on found, one per line


def check_file(citations: Path, *, fail_on: Sequence[FailState] = (),
               passwords: Mapping[str, str] | None = None, max_bytes: int | None = None,
               review_path: Path | None = None, progress: ProgressCallback | None = None,
               on_loaded: Callable[[CitationsFile], None] | None = None,
               documents: OpenDocuments | None = None) -> Checked:
    """Check ``citations`` with its review file: what ``citeview check`` prints and exits
    with (``check`` and ``batch`` both use this, so their reports cannot differ).
    ``on_loaded`` is told the file once it is read; ``documents`` keeps PDFs open for
    the next file."""
    from matcher.check import check_citations
    from matcher.citations import CitationsError
    from matcher.exit_status import exit_status
    from matcher.mupdf_messages import log_mupdf_complaints

    from ..state.sidecar import SidecarError

    try:
        cf = load_file(citations, max_bytes=max_bytes)
    except CitationsError as exc:
        return Checked(int(ExitStatus.UNUSABLE), error=str(exc))
    try:
        review, found_review = load_review(citations, review_path)
    except SidecarError as exc:
        return Checked(int(ExitStatus.UNUSABLE), error=str(exc))
    cf = relocated(cf, review)  # documents the reviewer located elsewhere are read there
    if on_loaded is not None:
        on_loaded(cf)
    report = check_citations(cf, citations, passwords=passwords,
                             ocr=ocr_store() if documents is None else None,
                             progress=progress, documents=documents)
    log_mupdf_complaints(str(citations))
    attach(review, cf, citations, report)
    apply(report, review)
    remaining = review.remaining(list(fail_on))
    return Checked(int(exit_status(report.problems, remaining)), report, None, review,
                   found_review, remaining)


# Lines of "what remains" (--fail-on) written to stderr at most; the rest are counted.
MAX_REMAINING_SHOWN = 50


def table(check: CheckReport, review: Review | None = None,
          review_path: Path | None = None) -> str:
    """The readable form of a check: one row per evidence item, then the summary; with
    a review file, each item's decision and a line on what is decided."""
    report = report_record(check)
    shown = review if review_path is not None else None  # a decision column when read
    rows: list[tuple[str, ...]] = [("claim", "#", "status", "page", "score")
                                   + (("decision",) if shown else ()) + ("reason",)]
    for c in report.claims:
        if not c.evidence:
            rows.append((c.id, "-", status_word("uncited"), "", "")
                        + (("",) if shown else ()) + ("no evidence given",))
        if c.consistency.differs:
            said = "; ".join(consistency_sentence(d.kind, d.claim, d.evidence)
                             for d in c.consistency.differences)
            rows.append((c.id, "-", CLAIM_DIFFERS, "", "") + (("",) if shown else ())
                        + (said,))
        for e in c.evidence:
            rows.append((c.id, str(e.index), status_word(e.status), str(e.page or ""),
                         f"{e.score:.0f}" if e.score is not None else "")
                        + ((decision_word(shown, c.id, e.index),) if shown else ())
                        + (e.reason,))
    # A claim id, a reason or a path is shown, never acted on by the terminal.
    rows = [tuple(printable(cell) for cell in row) for row in rows]
    n = len(rows[0]) - 1  # every column but the reason is padded
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(n)) + "  " + r[n] for r in rows]
    lines.append("")
    lines.append(summary_line(report.summary, separator=", "))
    if shown is not None:
        lines.append(printable(review_line(shown, review_path)))
    lines += [f"problem: {printable(p)}" for p in report.problems]
    return "\n".join(lines)
