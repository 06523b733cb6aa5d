"""``citeview check`` reads, checks, reviews and writes a claim at a time: on any file the
stream reads as loading whole does (the same claims, or the same problems in the same
order), and the check's report, review decisions, exit status and ``--json`` bytes are
those of the whole path (load, check, attach and apply the review, print the report).
Bad input deep in the claims array still names its JSON path."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.check import check_citations
from matcher.citations import CitationsError, load_citations
from matcher.claims_stream import open_claims
from matcher.exit_status import exit_status
from matcher.report import ClaimResult, ReportSpool, write_report_json
from tests.simplepdf import paragraph, write_pdf
from viewer.checker.review import apply, attach, load_review, relocated
from viewer.commands.check import check_file
from viewer.state.decisions import sha256_text

REPO = Path(__file__).resolve().parents[1]
LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss.",
         "Water damage from a continuous leak over fourteen days is excluded."]
QUOTES = ["reasonable cost of temporary repairs", "a continuous leak over fifteen days",
          "Mould is covered in full", "", "further damage after a loss"]


def read(path: Path, how: str) -> tuple[Any, ...]:
    """What loading whole (``load_citations``) or streaming (``open_claims``) makes of
    ``path``: the problems' message, or the file without claims, the claims, new ids."""
    try:
        if how == "whole":
            cf = load_citations(path)
            claims = list(cf.claims)
        else:
            stream = open_claims(path)
            cf, claims = stream.file, list(stream)
            assert (stream.count, stream.evidence) == (
                len(claims), sum(len(c.evidence) for c in claims))
    except CitationsError as exc:
        return ("refused", str(exc))
    return ("read", cf.model_dump(exclude={"claims"}), [c.model_dump() for c in claims],
            cf.assigned_ids)


ids = st.none() | st.sampled_from(["c1", "c2", "a", "b", "c3"]) | st.sampled_from([5, ""])
pages = st.none() | st.sampled_from([1, 2, 0, "x"])
evidence = st.fixed_dictionaries(
    {"quote": st.sampled_from(QUOTES) | st.just(7)},
    optional={"document": st.sampled_from(["policy", "gone", "other"]), "page": pages,
              "chunk_id": st.sampled_from(["k1", "k2", "policy.pdf#3"]),
              "rejected": st.just("a web page"), "cited_pages": st.lists(pages, max_size=2),
              "note": st.text(max_size=3)})
claim = st.builds(lambda i, text, items, flag: {
    **({} if i is None else {"id": i}), "text": text, "evidence": items, **flag},
    ids, st.sampled_from(["Repairs are paid", "Leaks over 15 days are excluded", ""]),
    st.lists(evidence, max_size=3),
    st.sampled_from([{}, {"flag": "check me"}, {"evidence": "none"}]))
documents = st.lists(st.sampled_from([{"id": "policy", "path": "policy.pdf"},
                                      {"id": "gone", "path": "gone.pdf"},
                                      {"id": "policy", "path": ""}]), max_size=3)
chunks = st.lists(st.fixed_dictionaries(
    {"id": st.sampled_from(["k1", "k2", "policy.pdf#3"]), "text": st.sampled_from(LINES)},
    optional={"document": st.sampled_from(["policy", "nope"]),
              "pages": st.lists(pages, max_size=2)}), max_size=2)
valid_claims = st.lists(st.builds(lambda i, text, items: {
    **({} if i is None else {"id": i}), "text": text, "evidence": items},
    st.none() | st.sampled_from(["c1", "c2", "a"]),
    st.sampled_from(["Repairs are paid", "Leaks over 15 days are excluded"]),
    st.lists(st.fixed_dictionaries({"quote": st.sampled_from(QUOTES)}, optional={
        "document": st.sampled_from(["policy", "gone"]), "page": st.sampled_from([1, 2]),
        "rejected": st.just("a web page")}), max_size=3)), max_size=5,
    unique_by=lambda c: c.get("id") or object())  # no id twice (the stream refuses it alike)
files = st.builds(lambda docs, chs, cls, order, extra: dict(
    [(k, v) for k, v in zip(order, (docs, chs, cls), strict=True) if v is not None]
    + extra), documents, st.none() | chunks, st.lists(claim, max_size=6),
    st.permutations(["documents", "chunks", "claims"]),
    st.sampled_from([[], [("version", 1)], [("version", 2)], [("summary", {})],
                     [("tool", {"name": "x"})]])) | st.builds(
    lambda cls: {"documents": [{"id": "policy", "path": "policy.pdf"}], "claims": cls},
    valid_claims)


def written(folder: Path, data: dict[str, Any], damage: int) -> Path:
    """``data`` as a citations file; ``damage`` > 0 cuts its text short (broken JSON),
    < 0 gives it a second ``claims`` (json.loads keeps the last)."""
    text = json.dumps(data, indent=1 if damage % 2 else None)
    if damage > 0:
        text = text[:len(text) * damage // 8]
    elif damage < 0:
        text = text[:-1] + ', "claims": [{"id": "late", "evidence": []}]}'
    path = folder / "answer.cite"
    path.write_text(text, encoding="utf-8")
    return path


READ: list[str] = []


@settings(max_examples=150, deadline=None)
@given(files, st.sampled_from([0, 0, 0, 0, -1, 1, 3, 5, 7]))
def test_the_stream_reads_any_file_as_loading_it_whole(data: dict[str, Any], damage: int
                                                       ) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = written(Path(folder), data, damage)
        whole = read(path, "whole")
        assert read(path, "stream") == whole
    READ.append(whole[0])


def test_the_property_saw_files_read_and_refused() -> None:
    READ.clear()
    test_the_stream_reads_any_file_as_loading_it_whole()
    assert READ.count("read") >= 10 and READ.count("refused") >= 10


@pytest.mark.parametrize("text", [
    '{"claims": [1, 2,]}', '{"claims": [], }', "{}", "[]", '{"claims": {}}', '{"claims": [] } x',
    '{"claims": [{"id": "a", "text": "\\ud800"}]}',
    '{"claims": [' + "[" * 150 + "]" * 150 + "]}",
    '{"summary": {}, "claims": [{"id": "a", "evidence": [{"quote": "q", "status": "review"}]}]}',
    '{"citations": "a.cite", "history": [], "claims": []}', '\ufeff{"claims": []}',
    '{"claims": [{"id": "a"}], "claims": {"id": "b"}}'])
def test_shapes_read_whole_are_told_as_before(tmp_path: Path, text: str) -> None:
    """Broken JSON, nesting, a lone surrogate, a report or review file: named as before."""
    path = tmp_path / "odd.cite"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert read(path, "stream") == read(path, "whole")


def many_claims(n: int, *, bad: int, change: dict[str, Any], documents: int = 1
                ) -> dict[str, Any]:
    claims = [{"id": f"c{k}", "text": "t", "evidence": [{"document": "gone", "quote": "q"}]}
              for k in range(n)]
    claims[bad]["evidence"][0].update(change)
    if change.get("document") is None:
        claims[bad]["evidence"][0].pop("document", None)
    docs = [{"id": "gone", "path": "gone.pdf"}, {"id": "far", "path": "far.pdf"}][:documents]
    return {"version": 1, "documents": docs, "claims": claims}


@pytest.mark.parametrize(("change", "documents", "said"), [
    ({"page": "x", "document": "gone"}, 1,
     "$.claims[4321].evidence[0].page: Input should be a valid integer"),
    ({"document": None}, 2, "$.claims[4321].evidence[0]: needs 'chunk_id' or 'document'"),
    ({"cited_pages": [1, 0], "document": "gone"}, 1,
     "$.claims[4321].evidence[0].cited_pages[1]: pages are 1-based")])
def test_bad_input_deep_in_the_claims_names_its_json_path(
        tmp_path: Path, change: dict[str, Any], documents: int, said: str) -> None:
    path = tmp_path / "deep.cite"
    path.write_text(json.dumps(many_claims(5000, bad=4321, change=change,
                                           documents=documents)), encoding="utf-8")
    for args in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(path), *args],
                              capture_output=True, text=True, cwd=REPO, timeout=300)
        assert done.returncode == 2 and done.stdout == ""
        assert said in done.stderr and str(path) in done.stderr
        assert "Traceback" not in done.stderr
    assert read(path, "stream") == read(path, "whole")


def whole_check(path: Path, fail_on: list[Any]) -> tuple[int, str]:
    """The whole path: the file loaded, checked and reviewed whole, the report printed."""
    cf = load_citations(path)
    review, _ = load_review(path, None)
    cf = relocated(cf, review)
    report = check_citations(cf, path)
    attach(review, cf, path, report)
    apply(report, review)
    out = io.StringIO()
    write_report_json(report, out)
    return int(exit_status(report.problems, review.remaining(fail_on))), out.getvalue()


def streamed_check(path: Path, fail_on: list[Any]) -> tuple[int, str]:
    """``check --json``'s path: each claim spooled as it is checked, then written."""
    got: list[ClaimResult] = []
    with ReportSpool() as spool:
        def each(_review_path: Path | None) -> Any:
            return lambda claim, _state: (got.append(claim), spool.add(claim))

        checked = check_file(path, fail_on=fail_on, each=each)
        assert checked.report is not None and checked.report.claims == []  # none held
        out = io.StringIO()
        spool.write(out, checked.report)
    collected = check_file(path, fail_on=fail_on).report  # batch's: every claim kept
    assert collected is not None and collected.claims == got
    return checked.exit, out.getvalue()


def review_of(data: dict[str, Any]) -> dict[str, Any]:
    """Decisions on the first claims with an id: support, and an item found absent."""
    named = [c for c in data["claims"] if isinstance(c.get("id"), str)]
    evidence = [{"claim": c["id"], "index": 0, "placement": "absent", "page": None,
                 "rects": [], "quote_sha256": sha256_text(c["evidence"][0]["quote"]),
                 "document_sha256": None, "note": "", "reviewer": "r",
                 "at": "2026-12-01T13:00:00Z"} for c in named[:1] if c["evidence"]]
    claims = [{"claim": c["id"], "support": "not_supported", "note": "", "reviewer": "r",
               "at": "2026-12-01T13:00:05Z"} for c in named[1:2]]
    return {"version": 1, "citations": "answer.cite", "evidence": evidence,
            "claims": claims, "history": []}


CHECKED: list[int] = []




@settings(max_examples=25, deadline=None)
@given(valid_claims, st.booleans(), st.sampled_from([[], ["undecided", "review"],
                                                     ["not_located", "differs"]]))
def test_the_streamed_check_is_the_whole_check(
        claims: list[dict[str, Any]], reviewed: bool, fail_on: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        compare(Path(folder), claims, reviewed, fail_on)


def compare(tmp_path: Path, claims: list[dict[str, Any]], reviewed: bool, fail_on: list[Any]
            ) -> None:
    write_pdf(tmp_path / "policy.pdf", [[("Declarations page", 72, 80)], paragraph(LINES)])
    data = {"version": 1, "documents": [{"id": "policy", "path": "policy.pdf"},
                                        {"id": "gone", "path": "gone.pdf"}],
            "claims": claims}
    path = written(tmp_path, data, 0)
    sidecar = tmp_path / "answer.review.json"
    if reviewed:
        sidecar.write_text(json.dumps(review_of(data)), encoding="utf-8")
    try:
        load_citations(path)
    except CitationsError:
        return  # an id given twice: refused alike (the property above)
    assert streamed_check(path, fail_on) == whole_check(path, fail_on)
    CHECKED.append(len(claims))


def test_the_check_property_compared_checks() -> None:
    CHECKED.clear()
    test_the_streamed_check_is_the_whole_check()
    assert len(CHECKED) >= 10 and max(CHECKED) >= 2


@pytest.mark.parametrize("args", [["--json"], []])
def test_a_full_temporary_folder_is_told_plainly(tmp_path: Path, args: list[str]) -> None:
    """The report waits in a temporary file for its summary: a full folder there is the
    reason on stderr and exit 2, nothing half written, no traceback."""
    from tests.viewer.fsutil import full_disk

    path = tmp_path / "many.cite"
    path.write_text(json.dumps(many_claims(3000, bad=0, change={"document": "gone"})),
                    encoding="utf-8")
    with full_disk(tmp_path / "tmp", size_kb=64) as disk:
        done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(path),
                               *args], capture_output=True, text=True, cwd=REPO, timeout=300,
                              env={**os.environ, "TMPDIR": str(disk)})
        assert os.listdir(disk) == []  # the temporary file is gone
    assert done.returncode == 2 and done.stdout == ""
    assert f"temporary file in {disk}" in done.stderr and "No space left" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_table_has_a_row_per_item_in_aligned_columns(tmp_path: Path) -> None:
    """The text table, its rows spooled while the check runs: one row per item of the
    whole check in file order (a claim with none, or whose figures differ, gets its own
    row), every column but the reason padded to its widest cell, then the summary."""
    from tests.test_report_stream import generated

    path = generated(tmp_path)
    report = check_citations(load_citations(path), path)
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(path)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 2  # a document is missing
    head, *rows = done.stdout.split("\n\n")[0].split("\n")
    expected = [(c.id, n) for c in report.claims for n in
                ["-"] * (not c.evidence) + ["-"] * (c.consistency.status == "differs")
                + [str(e.index) for e in c.evidence]]
    said = [(r[:head.index("#")].rstrip().replace("\\n", "\n"),
             r[head.index("#"):head.index("status")].strip()) for r in rows]
    assert said == expected
    for column in ("#", "status", "page", "score", "reason"):
        at = head.index(column)  # each column starts where the header's does
        assert all(r[at - 2:at] == "  " for r in rows)
    assert done.stdout.split("\n\n")[1].startswith(f"{report.summary.located} located, ")
