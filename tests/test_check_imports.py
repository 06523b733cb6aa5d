"""What a plain ``citeview check`` never imports: the review's model, its sidecar reader and
the review records, read only when a review file exists or ``--fail-on`` asks (the
fixed cost of every check, issue 26); with ``--json``, not the readable table either.
Each case runs the command in a fresh interpreter and lists what it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.state.review_store import in_data_folder

REPO = Path(__file__).resolve().parents[1]
# The review's side: its model, the sidecar's reader and store, the records it reads.
REVIEW = ("viewer.checker.review", "viewer.state.review", "viewer.state.review_store",
          "viewer.state.sidecar", "viewer.state.decisions")
# The readable table and the window's records it prints from.
TABLE = ("viewer.commands.check_table", "viewer.state.records")
# Runs ``citeview`` as the console command does and writes the names of the modules it
# imported to the file named first.
RUN = """
import sys
from pathlib import Path
from viewer.cli import main
try:
    status = main(sys.argv[2:])
finally:
    Path(sys.argv[1]).write_text("\\n".join(sorted(sys.modules)), encoding="utf-8")
sys.exit(status)
"""


def check(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    listed = tmp_path / "modules.txt"
    out = subprocess.run([sys.executable, "-c", RUN, str(listed), "check", *args],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    return out, set(listed.read_text(encoding="utf-8").split("\n"))


def review_file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "citations": "demo.cite", "evidence": [],
                                "claims": [], "history": []}), encoding="utf-8")
    return path


def test_check_json_without_a_review_imports_neither_review_nor_table(
        demo: Path, tmp_path: Path) -> None:
    out, modules = check(tmp_path, str(demo), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["summary"]["located"] > 0  # the check did run
    assert "matcher.check" in modules
    assert modules.isdisjoint(REVIEW + TABLE), sorted(modules & {*REVIEW, *TABLE})


def test_check_table_without_a_review_imports_no_review(demo: Path, tmp_path: Path) -> None:
    out, modules = check(tmp_path, str(demo))
    assert out.returncode == 0, out.stderr
    assert "located" in out.stdout and "review (" not in out.stdout
    assert set(TABLE) <= modules
    assert modules.isdisjoint(REVIEW), sorted(modules & set(REVIEW))


@pytest.mark.parametrize("where", ["beside", "data folder"])
def test_a_review_file_is_still_found_and_read(demo: Path, tmp_path: Path,
                                               where: str) -> None:
    made = review_file(demo.with_name("demo.review.json") if where == "beside"
                       else in_data_folder(demo))
    out, modules = check(tmp_path, str(demo))
    assert out.returncode == 0, out.stderr
    assert f"review ({made}): 0 of " in out.stdout
    assert set(REVIEW) <= modules


def test_fail_on_without_a_review_file_reads_the_review(demo: Path, tmp_path: Path) -> None:
    out, modules = check(tmp_path, str(demo), "--json", "--fail-on", "undecided")
    assert out.returncode == 1 and "undecided" in out.stderr  # nothing is decided yet
    assert set(REVIEW) <= modules
    plain, _ = check(tmp_path, str(demo), "--json")
    assert out.stdout == plain.stdout  # --fail-on changes the status, not the report
