"""What the GUI process loads: none of the OCR stack, and none of what the check process
(viewer.checker.server) is there for — at start-up, and after opening, checking and
recognising a scanned page.

pytesseract brings numpy and PIL with it (~0.15 s of a 0.9 s start before they were
loaded on first use), and nothing needs them until a page is actually recognised.
pydantic, PyMuPDF and the matcher's search code (~0.25 s) are imported by the check and
render processes, beside Qt's imports instead of after them. Printing (with Qt's print
support) and the export dialog are loaded when first used: the first window shows neither.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OCR_STACK = ("pytesseract", "numpy", "PIL")
CHECK_STACK = ("pydantic", "pymupdf", "matcher.citations", "matcher.check", "rapidfuzz")
FIRST_USE = ("PySide6.QtPrintSupport", "viewer.window.printing", "viewer.widgets.export_dialog")


def test_a_screenshot_run_imports_neither_ocr_nor_check_stack_nor_printing(
        tmp_path: Path) -> None:
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    png = tmp_path / "shot.png"
    # The whole run, check included, so imports made on the way (not only at start) count.
    code = ("import sys\n"
            "from viewer.app import main\n"
            f"status = main(['--demo', '--claim', 'c3', '--screenshot', {str(png)!r}])\n"
            f"print(sorted(m for m in {OCR_STACK + CHECK_STACK + FIRST_USE!r} "
            "if m in sys.modules))\n"
            "sys.exit(status)\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert png.is_file()
    assert proc.stdout.splitlines()[-1] == "[]"


GUI_FORBIDDEN = ("pydantic", "pymupdf", "fitz", "pytesseract", "numpy", "PIL", "rapidfuzz",
                 "matcher.citations", "matcher.check", "matcher.document", "matcher.locate",
                 "matcher.placement", "matcher.words", "matcher.span", "matcher.ocr")
# Run in a fresh interpreter as the GUI process: open the citations file, let it be
# checked, press the offer to recognise the scanned page, let it be checked again; then
# say which of the forbidden modules the process holds.
GUI_SESSION = r"""
import sys
from pathlib import Path
from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

def wait(cond, ms=90000):
    loop = QEventLoop()
    poll = QTimer(interval=20)
    poll.timeout.connect(lambda: cond() and loop.quit())
    poll.start()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    poll.stop()
    if not cond():
        sys.exit("timed out")

app = QApplication([])
prefs = Preferences(QSettings(sys.argv[2], QSettings.Format.IniFormat))
window = MainWindow(prefs, interactive=False)
window.resize(1000, 750)
window.show()
window.open_path(Path(sys.argv[1]))
wait(lambda: window.session.report is not None and bool(window.notice.buttons()))
first = window.session.report
[button] = window.notice.buttons()
button.click()
wait(lambda: window.session.report is not first and window.is_settled())
evidence = window.session.claim_result("s").evidence[0]
print(evidence.status, evidence.page)
print(sorted(m for m in sys.modules if m.startswith(tuple(f + "." for f in FORBIDDEN))
             or m in FORBIDDEN))
window.close()
"""


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_the_gui_process_opens_checks_and_recognises_without_the_check_stack(
        tmp_path: Path) -> None:
    import pymupdf

    from .helpers import paragraph_lines, text_pdf, write_citations

    text = text_pdf(tmp_path / "text.pdf", pages=2)
    scan = pymupdf.open()
    with pymupdf.open(text) as src:
        for page in src:  # each page as a bare 200-dpi image: no text layer at all
            out = scan.new_page(width=page.rect.width, height=page.rect.height)
            out.insert_image(out.rect, pixmap=page.get_pixmap(dpi=200))
    scan.save(tmp_path / "scan.pdf")
    scan.close()
    cite = write_citations(tmp_path / "scan.cite", "scan.pdf", [
        {"id": "s", "text": "on the scan",
         "evidence": [{"page": 2, "quote": paragraph_lines(1, 40)[6]}]}])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               CITEVIEW_OCR_STORE=str(tmp_path / "ocr-store"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    code = f"FORBIDDEN = {GUI_FORBIDDEN!r}\n" + GUI_SESSION
    proc = subprocess.run([sys.executable, "-c", code, str(cite), str(tmp_path / "s.ini")],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    *_, placed, held = proc.stdout.splitlines()
    assert placed.split()[0] in ("located", "review") and placed.split()[1] == "2"
    assert held == "[]"
