"""Scanned pages: every one recognised for a quote that names no page (progress, Cancel),
and a window closed while a page is being recognised leaves at once, cleanly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import psutil
import pymupdf
import pytest
from pytestqt.qtbot import QtBot

from viewer.children import STOP_TIMEOUT_S
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, write_citations

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None,
                                reason="tesseract is not installed")
MakeWindow = Callable[..., MainWindow]
REPO = Path(__file__).resolve().parents[2]


def scanned(folder: Path, pages: int = 2) -> Path:
    """A PDF whose pages are bare 200-dpi images of text pages: no text layer at all."""
    text = text_pdf(folder / "text.pdf", pages=pages)
    scan = pymupdf.open()
    with pymupdf.open(text) as src:
        for page in src:
            pix = page.get_pixmap(dpi=200)
            out = scan.new_page(width=page.rect.width, height=page.rect.height)
            out.insert_image(out.rect, pixmap=pix)
    scan.save(folder / "scan.pdf")
    scan.close()
    return folder / "scan.pdf"


@pytest.fixture
def unhinted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CITEVIEW_OCR_STORE", str(tmp_path / "store"))
    scanned(tmp_path)
    return write_citations(tmp_path / "scan.cite", "scan.pdf", [
        {"id": "s", "text": "somewhere in the scan", "evidence": [
            {"quote": paragraph_lines(1, 40)[6]}]}])  # page 2's line, no page named


def test_an_unhinted_quote_offers_every_scanned_page(qtbot: QtBot, make_window: MakeWindow,
                                                     unhinted: Path) -> None:
    window = make_window((1000, 750))
    window.open_path(unhinted)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    qtbot.waitUntil(lambda: bool(window.notice.buttons()), timeout=20000)
    assert "names no page, and 2 pages of scan.pdf are scanned images" in window.notice.text()
    [button] = window.notice.buttons()
    assert button.text() == "Recognise Text on All 2 Scanned Pages"
    before = window.session.report
    button.click()
    assert window.progress.isVisible() and window.progress.maximum() == 2
    assert [b.text() for b in window.notice.buttons()] == ["Cancel"]
    qtbot.waitUntil(lambda: window.session.report is not before
                    and not window.reader.recognise.running, timeout=120000)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    claim = window.session.claim_result("s")
    assert claim is not None and claim.evidence[0].status in ("located", "review")
    assert claim.evidence[0].page == 2


def test_recognising_every_page_can_be_cancelled(qtbot: QtBot, make_window: MakeWindow,
                                                 unhinted: Path) -> None:
    window = make_window((1000, 750))
    window.open_path(unhinted)
    qtbot.waitUntil(lambda: bool(window.notice.buttons()), timeout=30000)
    window.notice.buttons()[0].click()
    window.notice.buttons()[0].click()  # Cancel
    assert not window.reader.recognise.running
    assert not window.progress.isVisible() and not window.notice.isVisible()
    assert "cancelled" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60000)


QUIT_WHILE_RECOGNISING = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import psutil
    from viewer.checker import client as checker
    from viewer.render import process as render_process
    checker.prestart(render=render_process.prestart())
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow
    app = QApplication([])
    folder = Path(sys.argv[1])
    prefs = Preferences(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(prefs, interactive=False)
    window.resize(900, 700)
    window.show()
    window.open_path(folder / "scan.cite")
    clicked = []
    def poll():
        buttons = window.notice.buttons()
        if not clicked and buttons and buttons[0].text().startswith("Recognise"):
            buttons[0].click()
            clicked.append(True)
        me = psutil.Process()
        if any(p.name() == "tesseract" for p in me.children(recursive=True)):
            started = time.monotonic()
            window.close()  # while tesseract reads the page
            print(f"closed {time.monotonic() - started:.3f}")
            app.quit()
            return
        QTimer.singleShot(10, poll)
    QTimer.singleShot(0, poll)
    app.exec()
    print("left", [p.name() for p in psutil.Process().children(recursive=True)])
""")


def test_closing_while_a_page_is_recognised_is_immediate_and_clean(tmp_path: Path) -> None:
    scanned(tmp_path)
    write_citations(tmp_path / "scan.cite", "scan.pdf", [
        {"id": "s", "text": "t", "evidence": [{"page": 2, "quote": paragraph_lines(1, 40)[6]}]}])
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               TMPDIR=str(scratch), CITEVIEW_OCR_STORE=str(tmp_path / "store"))
    proc = subprocess.run([sys.executable, "-c", QUIT_WHILE_RECOGNISING, str(tmp_path)],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    closed = next(line for line in proc.stdout.splitlines() if line.startswith("closed"))
    # It did not wait for the page to be read, nor for a stop to time out.
    assert float(closed.split()[1]) < STOP_TIMEOUT_S
    assert "left []" in proc.stdout
    assert "QThread" not in proc.stderr and "leaked" not in proc.stderr, proc.stderr
    # Nothing of tesseract's is left: no process reading from the scratch folder, no file.
    assert not [p for p in psutil.process_iter(["name", "cmdline"])
                if p.info["name"] == "tesseract"
                and str(scratch) in " ".join(p.info["cmdline"] or [])]
    assert list(scratch.iterdir()) == []
