"""File ▸ Import… in a real window, and ``citeview ANSWER --document …`` at start: the
answer imported by the real check process, then opened with the command's result."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.imports import answers as A
from viewer.window.shell import MainWindow

MakeWindow = Callable[..., MainWindow]
EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "anthropic" / "answer.json"
DEMO_PDF = EXAMPLE.parents[1] / "demo" / "policy.pdf"


def statuses(window: MainWindow) -> dict[str, list[str]]:
    report = window.session.report
    assert report is not None
    return {c.id: [e.status for e in c.evidence] for c in report.claims}


def test_import_from_the_window_opens_what_the_command_writes(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    docs = A.documents(tmp_path / "docs")
    answer = A.save(tmp_path / "answer.json", A.pdf_answer())
    request = A.save(tmp_path / "request.json", A.request(docs))
    window = make_window()
    labels = [a.text().replace("&", "") for a in window.menuBar().actions()[0].menu().actions()]
    assert "Import…" in labels
    with qtbot.waitSignal(window.importer.finished, timeout=120000) as blocker:
        window.importer.run(answer, request=request)
    assert blocker.args[0] is not None and Path(blocker.args[0].path) == tmp_path / "answer.cite"
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=60000)
    assert window.session.citations_path == tmp_path / "answer.cite"
    assert statuses(window) == {"b0": [], "b1": ["located"], "b3": ["review"],
                                "b4": ["located"], "b5": ["located"], "b6": ["rejected"]}
    assert (tmp_path / "policy.pdf").read_bytes() == docs["policy"].read_bytes()


def test_a_bad_answer_is_said_in_the_notice(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path) -> None:
    docs = A.documents(tmp_path / "docs")
    answer = A.save(tmp_path / "answer.json", A.response(A.text("x", A.page(
        "Declarations", 0, "policy", 7, 9))))
    window = make_window()
    with qtbot.waitSignal(window.importer.finished, timeout=120000) as blocker:
        window.importer.run(answer, documents=[docs["policy"]])
    assert blocker.args[0] is None and window.failed_to_open
    said = window.notice.text()
    assert said.startswith("Could not import: ") and str(answer) in said
    assert "$.content[0].citations[0].end_page_number" in said and "4 pages" in said
    assert not (tmp_path / "answer.cite").exists()


def test_the_example_opens_from_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "example"
    folder.mkdir()
    answer = folder / "answer.json"
    shutil.copy(EXAMPLE, answer)
    shot = tmp_path / "shot.png"
    geometry = tmp_path / "geometry.json"
    done = subprocess.run(
        [sys.executable, "-m", "viewer.cli", str(answer), "--document", str(DEMO_PDF),
         "--claim", "b5", "--screenshot", str(shot), "--geometry-json", str(geometry),
         "--size", "800x600"], capture_output=True, text=True, timeout=180,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 0 and (folder / "answer.cite").is_file()
    painted = json.loads(geometry.read_text())
    # b5's words highlighted on page 3, outside the page its answer cited.
    assert painted["highlights"] and {h["page"] for h in painted["highlights"]} == {2}


def test_an_answer_opened_as_a_citations_file_says_how_to_import_it(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    answer = A.save(tmp_path / "answer.json", A.pdf_answer())
    window = make_window()
    window.open_path(answer)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=60000)
    said = window.notice.text()
    assert "is an answer to import" in said and "File ▸ Import" in said
    assert "--document" in said


def test_documents_picked_together_go_where_the_answer_names_them(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    docs = A.documents(tmp_path / "docs")
    answer = A.save(tmp_path / "answer.json", A.pdf_answer())
    window = make_window()
    picked = sorted(docs.values(), key=lambda p: p.name, reverse=True)  # any order
    with qtbot.waitSignal(window.importer.finished, timeout=120000) as blocker:
        window.importer.run(answer, documents=picked, by_title=True)
    assert blocker.args[0] is not None
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=60000)
    assert statuses(window)["b4"] == ["located"]  # the schedule, document 1
    cite = json.loads((tmp_path / "answer.cite").read_text(encoding="utf-8"))
    assert [d["id"] for d in cite["documents"]] == ["policy", "schedule", "notes"]
    assert cite["documents"][0]["path"] == "docs/policy.pdf"
