"""The installed PySide6 may drop references to None/True on void calls and emits
(viewer/qtcompat.py); with the guard a long session of such calls must not abort."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from viewer import qtcompat
app = QCoreApplication([])
qtcompat.install_guard()
class O(QObject):
    s = Signal()
o, t = O(), QTimer()
for i in range(300_000):          # far more than None's own reference count
    t.stop()
    o.s.emit()
    if i % 5_000 == 0:
        qtcompat.top_up()         # what the guard's timer and the page view's paint do
print("survived", qtcompat.DROPS_REFERENCES)
"""


def test_many_void_calls_and_emits_do_not_abort() -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={"PYTHONPATH": str(REPO),
                                                       "QT_QPA_PLATFORM": "offscreen"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("survived")
