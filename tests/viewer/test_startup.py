"""What start-up loads in the GUI process: none of the OCR stack, and none of what the
check process (viewer.checker.server) is there for.

pytesseract brings numpy and PIL with it (~0.15 s of a 0.9 s start before they were
loaded on first use), and nothing needs them until a page is actually recognised.
pydantic, PyMuPDF and the matcher's search code (~0.25 s) are imported by the check and
render processes, beside Qt's imports instead of after them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OCR_STACK = ("pytesseract", "numpy", "PIL")
CHECK_STACK = ("pydantic", "pymupdf", "matcher.citations", "matcher.check", "rapidfuzz")


def test_a_screenshot_run_imports_neither_ocr_nor_check_stack(tmp_path: Path) -> None:
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    png = tmp_path / "shot.png"
    # The whole run, check included, so imports made on the way (not only at start) count.
    code = ("import sys\n"
            "from viewer.app import main\n"
            f"status = main(['--demo', '--claim', 'c3', '--screenshot', {str(png)!r}])\n"
            f"print(sorted(m for m in {OCR_STACK + CHECK_STACK!r} if m in sys.modules))\n"
            "sys.exit(status)\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert png.is_file()
    assert proc.stdout.splitlines()[-1] == "[]"
