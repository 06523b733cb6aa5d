"""``citeview batch`` on a LocalCluster and on a real scheduler with two workers: every
line is what ``check --json`` says of its file, a killed worker loses nothing, a rerun
resumes, Ctrl-C leaves whole lines."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.batch.conftest import (
    BIN,
    RUN_SECONDS,
    batch,
    check_json,
    dask_cluster,
    marked_processes,
    processing,
    read_lines,
    slow_answer,
    start_batch,
    worker_pids,
)
from tests.batch_corpus import write_citations_files
from tests.terminal import foreground


def assert_as_check(lines: list[dict], inputs: list[Path], capsys: pytest.CaptureFixture[str]
                    ) -> None:
    """One line per input, each holding exactly check --json's report and status."""
    by_path = {line["citations"]: line for line in lines}
    assert sorted(by_path) == sorted(str(p) for p in inputs)
    assert len(lines) == len(inputs), "a file has two lines"
    for path in inputs:
        line = by_path[str(path)]
        report, status = check_json(path, capsys)
        assert line["report"] == report, path
        assert line["exit"] == status, path
        assert line["sha256"] is not None


def test_local_cluster_lines_are_check_json(tmp_path: Path, answers: list[Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out, summary = tmp_path / "results.jsonl", tmp_path / "summary.csv"
    mark = f"local-{os.getpid()}-{time.time()}"
    done = batch(tmp_path / "answers", "--out", out, "--workers", "2", "--summary", summary,
                 mark=mark)
    assert done.returncode == 0, done.stderr
    assert not marked_processes(mark), "the local cluster's processes outlived the batch"
    lines = read_lines(out)
    assert_as_check(lines, answers, capsys)
    assert f"batch {len(answers)}/{len(answers)} files" in done.stderr  # progress, with a rate
    assert "files/s" in done.stderr
    rows = list(csv.DictReader(summary.open()))
    assert [r["citations"] for r in rows] == [str(p) for p in answers]
    for row, line in ((r, next(x for x in lines if x["citations"] == r["citations"]))
                      for r in rows):
        assert int(row["located"]) == line["report"]["summary"]["located"]
        assert row["sha256"] == line["sha256"]


def test_rerun_checks_nothing_again_and_a_changed_file_again(
        tmp_path: Path, answers: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    assert batch(*answers, "--out", out, "--workers", "1").returncode == 0
    first = out.read_bytes()
    again = batch(*answers, "--out", out, "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert out.read_bytes() == first, "a rerun wrote lines for unchanged files"
    assert f"{len(answers)} already in" in again.stderr

    changed = answers[3]
    doc = json.loads(changed.read_text())
    doc["claims"][0]["evidence"][0]["quote"] = "the insurer shall refund every claim"
    changed.write_text(json.dumps(doc))
    third = batch(tmp_path / "answers", "--out", out, "--workers", "1", "--summary",
                  tmp_path / "s.csv")
    assert third.returncode == 0, third.stderr
    new = read_lines(out)[len(answers):]
    assert [line["citations"] for line in new] == [str(changed)]
    report, status = check_json(changed, capsys)
    assert new[0]["report"] == report and new[0]["exit"] == status
    rows = {r["citations"]: r for r in csv.DictReader((tmp_path / "s.csv").open())}
    assert rows[str(changed)]["sha256"] == new[0]["sha256"]  # the summary has the new one
    assert len(rows) == len(answers)


def test_rerun_checks_again_a_file_reviewed_since_and_all_under_another_fail_on(
        tmp_path: Path, answers: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    assert batch(*answers, "--out", out, "--workers", "1").returncode == 0
    reviewed = answers[2]
    claim = json.loads(reviewed.read_text())["claims"][0]
    (reviewed.parent / (reviewed.stem + ".review.json")).write_text(json.dumps(
        {"version": 1, "citations": reviewed.name, "evidence": [], "claims": [
            {"claim": claim["id"], "support": "not_supported",
             "claim_sha256": hashlib.sha256(claim["text"].encode()).hexdigest(),
             "note": "", "reviewer": "batch-test", "at": "2026-12-02T05:00:00Z"}],
         "history": []}))

    again = batch(*answers, "--out", out, "--workers", "1")
    assert again.returncode == 0, again.stderr
    new = read_lines(out)[len(answers):]
    assert [line["citations"] for line in new] == [str(reviewed)]
    report, _status = check_json(reviewed, capsys)
    assert new[0]["report"] == report and new[0]["review_sha256"] is not None

    strict = batch(*answers, "--out", out, "--workers", "1", "--fail-on", "not_supported")
    assert strict.returncode == 1, strict.stderr  # every file again, under the new states
    lines = read_lines(out)
    assert len(lines) == 2 * len(answers) + 1
    assert {line["exit"] for line in lines[-len(answers):] if line["citations"] != str(reviewed)
            } == {0}
    assert next(line for line in lines[::-1] if line["citations"] == str(reviewed))["exit"] == 1
    kept = batch(*answers, "--out", out, "--workers", "1", "--fail-on", "not_supported")
    assert kept.returncode == 1 and len(read_lines(out)) == len(lines), kept.stderr


def test_rerun_checks_again_the_files_over_a_changed_or_returned_document(
        tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A PDF replaced since the last run has every file over it checked again, and only
    those; so has a file whose missing document has turned up."""
    from tests.batch_corpus import DOCUMENTS

    docs = tmp_path / "docs"
    docs.mkdir()
    names = DOCUMENTS[:3]
    for name in names:
        shutil.copyfile(corpus / name, docs / name)
    inputs = write_citations_files(tmp_path / "answers", docs, 8, seed=5, documents=names)
    out = tmp_path / "results.jsonl"
    assert batch(tmp_path / "answers", "--out", out, "--workers", "1").returncode == 0
    first = read_lines(out)
    assert all(line["documents"] for line in first)

    def over(name: str) -> set[str]:
        return {str(p) for p in inputs if str(docs / name) in p.read_text()}

    changed = names[0]
    assert 0 < len(over(changed)) < len(inputs), "the sample must tell files apart"
    # Another PDF put in its place: the same name, other bytes (and so another report).
    shutil.copyfile(corpus / names[1], docs / changed)
    again = batch(tmp_path / "answers", "--out", out, "--workers", "1")
    assert again.returncode == 0, again.stderr
    new = read_lines(out)[len(first):]
    assert {line["citations"] for line in new} == over(changed)
    for line in new:
        report, status = check_json(Path(line["citations"]), capsys)
        assert line["report"] == report and line["exit"] == status

    gone = names[2]
    (docs / gone).unlink()
    missing = batch(tmp_path / "answers", "--out", out, "--workers", "1")
    assert missing.returncode == 2, missing.stderr  # a document is missing
    checked = read_lines(out)[len(first) + len(new):]
    assert {line["citations"] for line in checked} == over(gone)
    assert all(line["documents"][str(docs / gone)] is None for line in checked)
    shutil.copyfile(corpus / gone, docs / gone)
    back = batch(tmp_path / "answers", "--out", out, "--workers", "1")
    assert back.returncode == 0, back.stderr
    returned = read_lines(out)[len(first) + len(new) + len(checked):]
    assert {line["citations"] for line in returned} == over(gone)
    unchanged = batch(tmp_path / "answers", "--out", out, "--workers", "1")
    assert f"{len(inputs)} already in" in unchanged.stderr


def test_password_unlocks_an_encrypted_pdf_for_every_file_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pymupdf

    from viewer.cli import main

    pdf = tmp_path / "docs" / "locked policy.pdf"
    pdf.parent.mkdir()
    sentence = "The insured must report every loss within thirty days of discovery."
    with pymupdf.open() as doc:
        doc.new_page().insert_text((72, 100), sentence, fontsize=11)
        doc.save(pdf, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s=cret", owner_pw="o")
    answers = tmp_path / "answers"
    answers.mkdir()
    files = []
    for k in range(2):  # the same PDF under another id in each file, named relatively
        doc_id = f"policy{k}"
        cite = answers / f"a{k}.cite"
        cite.write_text(json.dumps({"version": 1, "documents": [
            {"id": doc_id, "path": "../docs/locked policy.pdf"}], "claims": [
            {"id": "c1", "text": "Losses are reported within thirty days.", "evidence": [
                {"document": doc_id, "page": 1, "quote": sentence}]}]}))
        files.append(cite)
    out = tmp_path / "results.jsonl"

    locked = batch(answers, "--out", out, "--workers", "1")
    assert locked.returncode == 2, locked.stderr
    assert all(line["exit"] == 2 for line in read_lines(out))

    (tmp_path / "link").symlink_to(pdf.parent)  # the PDF named by another path to it
    unlocked = batch(answers, "--out", out, "--workers", "1",
                     "--password", f"{tmp_path / 'link' / pdf.name}=s=cret")
    assert unlocked.returncode == 0, unlocked.stderr
    new = read_lines(out)[2:]
    assert sorted(line["citations"] for line in new) == sorted(map(str, files))
    for line in new:
        assert line["report"]["summary"]["located"] == 1
        capsys.readouterr()
        doc_id = json.loads(Path(line["citations"]).read_text())["documents"][0]["id"]
        status = main(["check", "--json", "--quiet", "--password", f"{doc_id}=s=cret",
                       line["citations"]])
        assert (json.loads(capsys.readouterr().out), status) == (line["report"], line["exit"])
    assert "s=cret" not in out.read_text(), "a password was written to the results"

    # The password is not kept, so a rerun cannot tell it was the same: checked again.
    again = batch(answers, "--out", out, "--workers", "1", "--password", f"{pdf}=s=cret")
    assert again.returncode == 0 and len(read_lines(out)) == 6, again.stderr
    wrong = batch(answers, "--out", out, "--workers", "1", "--password", f"{pdf}=nope")
    assert wrong.returncode == 2, wrong.stderr
    assert all(line["exit"] == 2 for line in read_lines(out)[6:])
    bad = batch(answers, "--out", out, "--password", "no-equals-sign")
    assert bad.returncode == 2 and "--password needs PDF=PASSWORD" in bad.stderr


def test_unusable_inputs_are_lines_with_status_2(tmp_path: Path, corpus: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    good = write_citations_files(folder, corpus, 2, seed=7)
    (folder / "broken.cite").write_text("{not json")
    (folder / "settings.json").write_text('{"theme": "dark"}')  # not a citations file
    lost = folder / "lost-document.cite.json"
    lost.write_text(json.dumps({"documents": [{"id": "p", "path": "nowhere.pdf"}],
                                "claims": [{"id": "c1", "evidence": [
                                    {"document": "p", "quote": "some words"}]}]}))
    missing = tmp_path / "never-written.cite"
    out = tmp_path / "r.jsonl"
    done = batch(folder, missing, "--out", out, "--workers", "1")
    assert done.returncode == 2, done.stderr
    assert "settings.json: not a citations file" in done.stderr
    lines = {Path(x["citations"]).name: x for x in read_lines(out)}
    assert set(lines) == {p.name for p in good} | {"broken.cite", lost.name, missing.name}
    assert lines["broken.cite"]["exit"] == 2 and "not valid JSON" in lines["broken.cite"]["error"]
    assert lines[missing.name]["exit"] == 2 and "file not found" in lines[missing.name]["error"]
    report, status = check_json(lost, capsys)  # a missing document: the report, status 2
    assert (lines[lost.name]["report"], lines[lost.name]["exit"]) == (report, status) \
        and status == 2


def test_fail_on_takes_checks_states(tmp_path: Path, answers: list[Path],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    done = batch(*answers, "--out", out, "--workers", "1", "--fail-on", "review,not_located")
    flagged = [line for line in read_lines(out) if line["exit"] == 1]
    assert flagged, "the answers hold changed and invented quotes"
    assert done.returncode == 1, done.stderr
    from viewer.cli import main

    for line in flagged:
        capsys.readouterr()
        assert main(["check", "--json", "--quiet", "--fail-on", "review,not_located",
                     line["citations"]]) == 1
    bad = batch(*answers, "--out", out, "--fail-on", "sometimes")
    assert bad.returncode == 2 and "--fail-on takes any of" in bad.stderr


def test_real_scheduler_worker_killed_mid_task(tmp_path: Path, corpus: Path, answers: list[Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    slow = slow_answer(tmp_path / "answers", corpus)
    inputs = [*answers, slow]
    out = tmp_path / "results.jsonl"
    with dask_cluster(tmp_path) as cluster:
        run = start_batch(tmp_path / "answers", "--out", out, "--scheduler", cluster.address)
        try:
            pids = worker_pids(cluster)

            def running_slow() -> str | None:
                # the slow file is a chunk of its own (its own document set)
                lines = read_lines(out) if out.exists() else []
                if any(line["citations"] == str(slow) for line in lines):
                    raise AssertionError("the slow file finished before it could be killed")
                busy = [w for w, keys in processing(cluster).items() if keys]
                return busy[0] if len(busy) == 1 and lines else None

            deadline = time.monotonic() + RUN_SECONDS
            victim = None
            while victim is None and time.monotonic() < deadline:
                victim = running_slow()
                time.sleep(0.2)
            assert victim is not None, "never found a worker busy with the slow file alone"
            os.kill(pids[victim], signal.SIGKILL)
            _stdout, stderr = run.communicate(timeout=RUN_SECONDS)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        assert run.returncode == 0, stderr
        assert len(worker_pids(cluster)) == 1, "the killed worker is gone; one is left"
    assert_as_check(read_lines(out), inputs, capsys)


def test_a_task_failing_on_every_try_is_an_error_line(tmp_path: Path, corpus: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    slow = slow_answer(folder, corpus)
    out = tmp_path / "results.jsonl"
    # A scheduler that gives a task up at its first lost worker: "every try" is one.
    env = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    with dask_cluster(tmp_path, workers=1, env=env) as cluster:
        run = start_batch(slow, "--out", out, "--scheduler", cluster.address)
        try:
            pid = next(iter(worker_pids(cluster).values()))
            deadline = time.monotonic() + RUN_SECONDS
            while not any(processing(cluster).values()) and time.monotonic() < deadline:
                time.sleep(0.2)
            os.kill(pid, signal.SIGKILL)  # seconds before its check can end
            _stdout, stderr = run.communicate(timeout=RUN_SECONDS)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    assert run.returncode == 2, stderr
    assert "Traceback" not in stderr
    (line,) = read_lines(out)
    assert line["citations"] == str(slow) and line["exit"] == 2
    assert "failed on every worker" in line["error"]
    assert "sha256" not in line  # so that a rerun tries it again


@pytest.mark.parametrize("to", ["process", "group"])
def test_ctrl_c_leaves_whole_lines_and_the_rerun_finishes(
        to: str, tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SIGINT to the batch alone, or to its whole process group (a terminal's Ctrl-C,
    which reaches the local cluster's workers too)."""
    inputs = write_citations_files(tmp_path / "answers", corpus, 40, seed=11)
    # Slow by construction, so a busy machine cannot finish before the interrupt: a file
    # of its own document set (planned last) that takes seconds to check.
    inputs.append(slow_answer(tmp_path / "answers", corpus))
    out = tmp_path / "results.jsonl"
    run = subprocess.Popen([str(BIN / "citeview"), "batch", str(tmp_path / "answers"),
                            "--out", str(out), "--workers", "2"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True,
                           preexec_fn=foreground)
    children: set[int] = set()
    try:
        deadline = time.monotonic() + RUN_SECONDS
        while time.monotonic() < deadline and not (out.exists() and out.stat().st_size):
            with_children = psutil.Process(run.pid).children(recursive=True)
            children |= {p.pid for p in with_children}
            time.sleep(0.05)
        if to == "group":
            os.killpg(run.pid, signal.SIGINT)
        else:
            run.send_signal(signal.SIGINT)
        _stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr, stderr
    kept = read_lines(out)
    assert f"{len(kept)} file(s) checked this run" in stderr
    assert 0 < len(kept) < len(inputs), "interrupted neither before nor after the work"
    time.sleep(1.0)
    left = [pid for pid in children if psutil.pid_exists(pid)
            and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert children and not left, f"cluster processes outlived the batch: {left}"

    rest = batch(tmp_path / "answers", "--out", out, "--workers", "2")
    assert rest.returncode == 0, rest.stderr
    assert f"{len(kept)} already in" in rest.stderr
    assert_as_check(read_lines(out), inputs, capsys)


def test_without_dask_batch_says_how_to_install(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from viewer.cli import main\n"
            f"sys.exit(main(['batch', {str(tmp_path)!r}, '--out', 'r.jsonl']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "pip install 'citeview[batch]'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "r.jsonl").exists()


def test_the_cli_lists_batch() -> None:
    done = subprocess.run([str(BIN / "citeview"), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert "batch INPUT... --out RESULTS.jsonl" in done.stdout


def test_without_dask_prepare_scheduler_says_how_to_install(tmp_path: Path) -> None:
    import shutil as sh

    if sh.which("tesseract") is None:
        pytest.skip("the tesseract binary is not installed (prepare checks it first)")
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from matcher.ocr.cli import main\n"
            f"sys.exit(main([{str(tmp_path)!r}, '--scheduler', 'tcp://127.0.0.1:1', "
            f"'--store', {str(tmp_path / 'store')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "pip install 'citeview[batch]'" in done.stderr


def test_a_bad_scheduler_address_is_said_plainly(tmp_path: Path, answers: list[Path]) -> None:
    done = batch(answers[0], "--out", tmp_path / "r.jsonl", "--scheduler", "nonsense")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "not a scheduler address: 'nonsense'" in done.stderr
    assert (tmp_path / "r.jsonl").read_bytes() == b""  # nothing checked, nothing written
