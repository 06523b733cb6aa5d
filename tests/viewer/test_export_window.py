"""File ▸ Export in a real window: the dialog's choices, an export written by the real
check process beside the citations file, progress for a long one, and its cancel."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QProgressDialog, QPushButton
from pytestqt.qtbot import QtBot

from tests.export.test_export_cli import sidecar as review_file
from tests.simplepdf import paragraph, write_pdf
from viewer.state.exports import ExportTargets
from viewer.state.files import demo_path
from viewer.widgets.export_dialog import ExportDialog, default_choice
from viewer.window.shell import MainWindow

MakeWindow = Callable[..., MainWindow]


def open_checked(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    window.open_path(path)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=60000)


def test_the_dialog_proposes_every_output_beside_the_file(qtbot: QtBot, tmp_path: Path
                                                         ) -> None:
    cite = tmp_path / "answer.cite"
    proposed = default_choice(cite, documents=1)
    assert proposed == ExportTargets(tmp_path / "answer.annotated.pdf",
                                    tmp_path / "answer.report.html", tmp_path / "answer.csv",
                                    tmp_path / "answer.annotations.jsonld")
    assert default_choice(cite, documents=2).pdf == tmp_path / "answer-annotated"
    chosen = tmp_path / "elsewhere.html"
    dialog = ExportDialog(proposed, several_documents=False,
                          ask_save=lambda _t, _p, _f: chosen)
    qtbot.addWidget(dialog)
    assert dialog.choice() == proposed and dialog.export_button.isEnabled()
    dialog.boxes["pdf"].setChecked(False)
    dialog.boxes["csv"].setChecked(False)
    dialog.paths["html"].setText("")
    dialog.boxes["html"].setChecked(False)
    dialog.boxes["annotations"].setChecked(False)
    assert not dialog.choice().any() and not dialog.export_button.isEnabled()
    dialog.findChildren(type(dialog.export_button))[1].click()  # html's Choose… button
    assert dialog.choice() == ExportTargets(html=chosen) and dialog.export_button.isEnabled()


def test_export_from_the_window(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    folder = tmp_path / "case"
    shutil.copytree(demo_path().parent, folder, ignore=shutil.ignore_patterns("__*"))
    cite = folder / "demo.cite"
    review_file(cite.with_name("demo.review.json"))  # c2 confirmed
    window = make_window()
    assert not window.commands.export.isEnabled()
    open_checked(qtbot, window, cite)
    assert window.commands.export.isEnabled()
    assert "Export" in [a.text().replace("&", "").rstrip("…")
                        for a in window.menuBar().actions()[0].menu().actions()]
    with qtbot.waitSignal(window.exporter.finished, timeout=120000) as blocker:
        window.commands.export.trigger()  # not interactive: the proposed outputs
    result = blocker.args[0]
    proposed = default_choice(cite, documents=1)
    written = [proposed.html, proposed.csv, proposed.annotations, proposed.pdf]
    assert result is not None and [Path(w) for w in result.written] == written
    assert all(p is not None and p.stat().st_size > 0 for p in written)
    assert proposed.csv is not None and ",confirmed," in proposed.csv.read_text("utf-8-sig")
    assert "Exported" in window.statusBar().currentMessage()


def test_a_long_export_shows_progress_and_can_be_cancelled(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    lines = [f"Line {i} of the schedule names coverage item number {i * 7} in full."
             for i in range(40)]
    write_pdf(tmp_path / "big.pdf", [paragraph(lines) for _ in range(400)])
    claims = [{"id": f"c{i}", "text": "t", "evidence": [
        {"document": "big", "page": i + 1, "quote": lines[i % 40]}]} for i in range(400)]
    cite = tmp_path / "big.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "big", "path": "big.pdf"}],
                                "claims": claims}), encoding="utf-8")
    window = make_window()
    open_checked(qtbot, window, cite)
    out = tmp_path / "big.report.html"
    window.exporter.ask = lambda _proposed, _several: ExportTargets(html=out)
    window.commands.export.trigger()
    qtbot.waitUntil(lambda: isinstance(window.exporter.progress, QProgressDialog)
                    and window.exporter.progress.isVisible(), timeout=30000)
    progress = window.exporter.progress
    assert progress is not None
    [cancel] = progress.findChildren(QPushButton)
    assert cancel.text() == "Cancel"
    with qtbot.waitSignal(window.exporter.finished, timeout=10000) as blocker:
        cancel.click()
    assert blocker.args == [None]
    assert "cancelled" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not window.exporter.running(), timeout=60000)
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_the_dialog_says_an_encrypted_pdf_is_written_unencrypted(qtbot: QtBot,
                                                                 tmp_path: Path) -> None:
    proposed = default_choice(tmp_path / "answer.cite", documents=1)
    plain = ExportDialog(proposed, several_documents=False)
    qtbot.addWidget(plain)
    assert plain.encrypted_note is None
    dialog = ExportDialog(proposed, several_documents=False, encrypted=["secret.pdf"])
    qtbot.addWidget(dialog)
    dialog.resize(640, 300)
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.encrypted_note
    assert note is not None and note.isVisible()
    assert "secret.pdf is password-protected" in note.text()
    assert "HTML report" in note.text() and "unencrypted" in note.text()
