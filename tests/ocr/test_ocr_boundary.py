"""``matcher.ocr`` stays Qt-free and may be imported by ``matcher.document``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_CHECK = """
import sys
import matcher.ocr, matcher.ocr.cli, matcher.ocr.prepare, matcher.ocr.ondemand
bad = sorted(m for m in sys.modules
             if m.split('.')[0] in {'PySide6', 'PyQt5', 'PyQt6', 'qtpy', 'viewer'})
print(bad)
sys.exit(1 if bad else 0)
"""


def test_ocr_package_imports_no_qt_and_no_viewer() -> None:
    proc = subprocess.run([sys.executable, "-c", _CHECK], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_importing_in_either_order_works() -> None:
    """``matcher.document`` may import ``matcher.ocr.textlayer`` at its top without a cycle."""
    for first, second in (("matcher.document", "matcher.ocr"), ("matcher.ocr", "matcher.document")):
        code = f"import {first}, {second}; from matcher.ocr import ocr_page"
        proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
