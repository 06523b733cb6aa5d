"""``citeview batch INPUT... --out RESULTS.jsonl``: check many citations files on a Dask
cluster (one started here, or a running one), resumably, one JSON line per file.

Exit status: 0 every input usable; 1 with ``--fail-on``, a listed state remains in some
file; 2 some input (a citations file, its review file or a document) was unusable, or
could not be checked; 130 stopped with Ctrl-C (the lines written stay whole, and the same
command continues). See :mod:`.results` for the lines, :mod:`.run` for the scheduling.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Set as AbstractSet
from pathlib import Path

from matcher.exit_status import ExitStatus

from ...state.fail_on import FAIL_STATES, FailState
from .. import fail
from .inputs import Input
from .results import Line, Settled

PROG = "citeview batch"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Check many citations files on a Dask cluster, one JSON line per file "
                    "in RESULTS (each report exactly as 'citeview check --json' prints it). "
                    "Run it again with the same --out to continue: files already there, "
                    "unchanged, are skipped. Exit status: 0 all input usable; 1 with "
                    "--fail-on, a listed state remains; 2 an input could not be used; "
                    "130 interrupted.")
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                   help="citations files, or folders searched for *.cite, *.cite.json and "
                        "*.json citations files")
    p.add_argument("--out", type=Path, required=True, metavar="RESULTS.jsonl",
                   help="the results file, appended to (one JSON line per file)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help="worker processes of the cluster started here (default: one "
                            f"per CPU, {os.cpu_count() or 1})")
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="use the running Dask cluster at tcp://HOST:PORT instead")
    p.add_argument("--fail-on", metavar="STATES", default=None,
                   help="exit 1 when an item or claim in any of these states remains in "
                        f"any file (comma-separated: {','.join(FAIL_STATES)})")
    p.add_argument("--summary", type=Path, default=None, metavar="SUMMARY.csv",
                   help="also write one CSV row per input: status, counts, problems")
    p.add_argument("--store", type=Path, default=None, metavar="DIR",
                   help="the OCR store the workers read (default: each worker's own, "
                        "$CITEVIEW_OCR_STORE or its user cache)")
    p.add_argument("--password", action="append", default=[], metavar="PDF=PASSWORD",
                   help="password for an encrypted PDF, given to every file that names it "
                        "(repeatable; those files are checked again on every run)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def _passwords(parser: argparse.ArgumentParser, given: list[str]) -> dict[str, str]:
    """``--password PDF=PASSWORD`` options by the PDF's real path (links resolved, as
    the inputs' documents are; split at the first ``=``: a password may hold one); a
    usage error for a malformed one."""
    out: dict[str, str] = {}
    for item in given:
        pdf, eq, password = item.partition("=")
        if not eq or not pdf:
            parser.error(f"--password needs PDF=PASSWORD, not {item!r}")
        out[os.path.realpath(os.path.expanduser(pdf))] = password
    return out


def main(args: list[str]) -> int:
    parser = build_parser()
    opts = parser.parse_args(args)
    from ...state.fail_on import parse_fail_on

    try:
        fail_on = parse_fail_on(opts.fail_on) if opts.fail_on is not None else []
    except ValueError as exc:
        parser.error(str(exc))
    if opts.workers is not None and opts.workers < 1:
        parser.error(f"--workers must be at least 1, not {opts.workers}")
    passwords = _passwords(parser, opts.password)

    from matcher.cluster import ClusterError, dask_client, dask_missing

    missing = dask_missing(PROG)
    if missing is not None:
        return fail(missing)
    from matcher.progress import Progress

    from .inputs import find_inputs
    from .results import ResultsError, ResultsFile, write_summary
    from .run import run

    def say(message: str) -> None:
        print(f"citeview: {message}", file=sys.stderr)

    inputs = find_inputs(opts.inputs, skipped=say)
    if not inputs:
        return fail("no citations files among the inputs")
    results = ResultsFile(opts.out)
    try:
        settled = results.open()
    except ResultsError as exc:
        return fail(str(exc))
    if settled.torn:
        say(f"{opts.out}: its last line was cut short (a run stopped mid-write); removed")
    kept = {i.path: line for i in inputs
            if (line := _settled(settled, i, fail_on, unlocked=passwords.keys()))}
    todo = [i for i in inputs if i.path not in kept]
    if not opts.quiet:
        say(f"batch: {len(inputs)} citations file(s); {len(kept)} already in {opts.out} "
            f"(skipped), {len(todo)} to check")
    bar: Progress | None = None  # started once the cluster is up: the rate is checking's
    show = not opts.quiet and bool(todo)

    def on_line(line: Line) -> None:
        if line:
            new.append(line)
            if bar is not None:
                bar.advance()
        elif bar is not None:
            bar.draw()

    interrupted = False
    new: list[Line] = []
    try:
        if todo:
            with dask_client(workers=opts.workers, scheduler=opts.scheduler) as client:
                if show:
                    bar = Progress(len(todo), unit="files", label="batch", stream=sys.stderr)
                    bar.draw(force=True)
                outcome = run(client, todo, results, fail_on=fail_on,
                              store=str(opts.store) if opts.store else None, on_line=on_line,
                              passwords=passwords)
                if outcome.stranded:
                    say("the cluster has had no worker for a minute; the files left are "
                        "error lines (run again to retry them)")
    except KeyboardInterrupt:
        interrupted = True
    except ClusterError as exc:
        return fail(str(exc))
    except ResultsError as exc:
        return fail(str(exc))
    finally:
        if bar is not None:
            bar.close()
        results.close()
    lines = _in_input_order(inputs, kept, new)
    if opts.summary is not None:
        from ...export.writing import OutputError

        try:
            write_summary(opts.summary, lines)
        except OutputError as exc:
            return fail(str(exc))
    if interrupted:
        added = results.count() - settled.count  # a line may be written, not yet told
        say(f"batch: interrupted; {added} file(s) checked this run are in {opts.out}; "
            "the same command continues")
        return int(ExitStatus.INTERRUPTED)
    status = _status(lines)
    if not opts.quiet:
        counts = {code: sum(1 for line in lines if line.get("exit") == code)
                  for code in (0, 1, 2)}
        say(f"batch: {len(new)} checked, {len(kept)} skipped; exit 0: {counts[0]}, "
            f"1: {counts[1]}, 2: {counts[2]}; results in {opts.out}")
    return status


def _settled(settled: Settled, i: Input, fail_on: list[FailState], *,
             unlocked: AbstractSet[str] = frozenset()) -> Line | None:
    """The line of ``i`` a rerun keeps: one for the same bytes of the citations file and
    of its review file, the same stamps of its documents, checked with the same
    ``--fail-on`` (lines written before the review and ``--fail-on`` were recorded count
    as checked without either; lines without document stamps are checked again). None
    when it names a PDF ``unlocked`` by ``--password``: the password is kept nowhere, so
    whether it was the same cannot be told."""
    from .work import review_hash

    if unlocked & set(i.documents):
        return None
    line = settled.lines.get((i.path, i.sha256)) if i.sha256 is not None else None
    if line is None:
        return None
    if line.get("review_sha256") != review_hash(Path(i.path)):
        return None
    if line.get("documents") != i.stamps:
        return None  # a document changed, appeared or went since (or was not stamped)
    return line if sorted(line.get("fail_on") or []) == sorted(fail_on) else None


def _in_input_order(inputs: list[Input], kept: dict[str, Line], new: list[Line]
                    ) -> list[Line]:
    by_path = dict(kept)
    for line in new:
        by_path[line["citations"]] = line
    return [by_path[i.path] for i in inputs if i.path in by_path]


def _status(lines: list[Line]) -> int:
    """The worst file's status: unusable over flagged over success (check's order)."""
    codes = {line.get("exit") for line in lines}
    for code in (ExitStatus.UNUSABLE, ExitStatus.FLAGGED):
        if int(code) in codes:
            return int(code)
    return int(ExitStatus.OK)
