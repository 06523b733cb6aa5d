"""``citeview check CITATIONS [--json] [--review FILE] [--fail-on STATES]``: check every
evidence quote of a citations file, with the review decisions made about it."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from matcher.exit_status import ExitStatus

from ..collector import few_collections
from ..state.fail_on import FAIL_STATES, FailState, parse_fail_on
from . import (
    add_input_options,
    add_verbose,
    fail,
    imported,
    max_bytes,
    ocr_store,
    open_file,
    route_mupdf,
)
from . import passwords as checked_passwords

if TYPE_CHECKING:
    from matcher.citations import CitationsFile
    from matcher.open_documents import OpenDocuments
    from matcher.report import CheckReport, ClaimResult
    from matcher.vocabulary import ProgressCallback

    from ..checker.review import ClaimReviewer
    from ..state.review import ClaimState
    from .check_table import Table


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

    from matcher.report import ReportSpool, SpoolError

    with contextlib.ExitStack() as outputs:
        made: list[ReportSpool | Table] = []  # the output, made once the review is read

        def opened(review_path: Path | None) -> ClaimSink:
            if opts.json:
                spool = outputs.enter_context(ReportSpool())
                made.append(spool)
                return lambda claim, _state: spool.add(claim)
            from .check_table import Table

            table = outputs.enter_context(Table(shown=review_path is not None))
            made.append(table)
            return table.add

        try:
            with stdout_reserved(), few_collections():
                checked = check_file(opts.citations, fail_on=fail_on, passwords=passwords,
                                     max_bytes=max_bytes(opts), review_path=opts.review,
                                     progress=None if opts.quiet else progress,
                                     on_loaded=loaded, each=opened)
        except SpoolError as exc:
            return fail(str(exc))
        finally:
            for bar in bars:
                bar.close()
        if checked.report is None:
            return fail(checked.error or "")
        report, out = checked.report, made[0]
        if isinstance(out, ReportSpool):
            out.write(sys.stdout, report)  # a claim at a time, never one whole string
        else:
            out.write(sys.stdout, report.summary, checked.review_line, report.problems)
    tell_problems(report.problems, sys.stderr)
    tell_problems(checked.remaining, sys.stderr)
    if checked.remaining_count > len(checked.remaining):
        print(f"citeview: … and {checked.remaining_count - len(checked.remaining)} more",
              file=sys.stderr)
    return checked.exit


@dataclass
class Checked:
    """One citations file checked as ``citeview check`` checks it: its exit status, and
    the report with the review's decisions on it (its claims, unless each was handed on
    as it was checked), or why there is none (the citations file or its review file was
    unusable: status 2, ``error`` saying why)."""

    exit: int
    report: CheckReport | None = None
    error: str | None = None
    review_path: Path | None = None
    review_line: str | None = None  # how much is decided, when a review file was read
    remaining: list[str] = field(default_factory=list)  # the first of what --fail-on found
    remaining_count: int = 0


# What is handed each claim's result as it is checked, with its state as the review sees
# it (None without a review file or --fail-on); made once the review is read (its path).
ClaimSink = Callable[["ClaimResult", "ClaimState | None"], None]


def check_file(citations: Path, *, fail_on: Sequence[FailState] = (),
               passwords: Mapping[str, str] | None = None, max_bytes: int | None = None,
               review_path: Path | None = None, progress: ProgressCallback | None = None,
               on_loaded: Callable[[CitationsFile], None] | None = None,
               documents: OpenDocuments | None = None,
               each: Callable[[Path | None], ClaimSink] | None = None) -> Checked:
    """Check ``citations`` with its review file: what ``citeview check`` prints and exits
    with (``check`` and ``batch`` both use this, so their reports cannot differ).
    ``on_loaded`` is told the file once it is read; ``documents`` keeps PDFs open for
    the next file. The claims are read, checked and reviewed one at a time; ``each``,
    given the review file's path (None: none), makes what is handed each claim's result
    (the report then holds none), else the report holds them all."""
    from matcher.check import ClaimChecker
    from matcher.citations import CitationsError
    from matcher.exit_status import exit_status
    from matcher.files import InvalidFileError
    from matcher.mupdf_messages import log_mupdf_complaints
    from matcher.report import CheckReport, Summary

    try:
        stream = open_file(citations, max_bytes=max_bytes)
    except CitationsError as exc:
        return Checked(int(ExitStatus.UNUSABLE), error=str(exc))
    try:
        reviewer, found_review = _reviewer(stream.file, citations, review_path, fail_on)
    except InvalidFileError as exc:  # the review file's SidecarError (its module unloaded)
        return Checked(int(ExitStatus.UNUSABLE), error=str(exc))
    cf = stream.file if reviewer is None else reviewer.citations
    if on_loaded is not None:
        on_loaded(cf)
    claims: list[ClaimResult] = []
    sink = each(found_review) if each is not None else lambda c, _s: claims.append(c)
    summary = Summary()
    with ClaimChecker(cf, citations, total=stream.evidence, passwords=passwords,
                      ocr=ocr_store() if documents is None else None, progress=progress,
                      documents=documents) as checker:
        for claim in stream:
            result = checker.check(claim)
            state = None if reviewer is None else reviewer.take(claim, result)
            summary.count(result)
            sink(result, state)
        problems = checker.problems()
    log_mupdf_complaints(str(citations))
    report = CheckReport(summary=summary, claims=claims, problems=problems)
    if reviewer is None:
        return Checked(int(exit_status(problems, [])), report)
    from ..checker.review import review_line

    return Checked(int(exit_status(problems, reviewer.remaining)), report, None, found_review,
                   review_line(reviewer, found_review) if found_review is not None else None,
                   reviewer.remaining, reviewer.remaining_count)


def _reviewer(cf: CitationsFile, citations: Path, review_path: Path | None,
              fail_on: Sequence[FailState]) -> tuple[ClaimReviewer | None, Path | None]:
    """What reads the review against the check, and the review file's path (None: none
    was found); no reviewer when there is no review file and no ``fail_on`` to count,
    so that a plain check never imports the review's model. SidecarError when the
    review file is unusable."""
    from ..state.review_paths import existing

    if review_path is None and not fail_on and existing(citations) is None:
        return None, None
    from ..checker.review import ClaimReviewer, load_review, relocated

    review, found = load_review(citations, review_path)
    # Documents the reviewer located elsewhere are read from there.
    return ClaimReviewer(review, relocated(cf, review), citations, fail_on), found
