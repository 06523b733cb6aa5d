"""Keep the interpreter alive under a reference-count bug of the installed PySide6.

PySide6/shiboken6 6.12.0 on CPython 3.11 returns ``None`` from every void method
(``QTimer.stop``, ``QPainter.fillRect``, ``QScrollBar.setValue``…) and ``True`` from
``SignalInstance.emit``/``disconnect`` without giving the caller a reference. Each such
call lowers the count of that singleton by one. Python 3.11 does not make them immortal,
so after some tens of thousands of calls — a few minutes of scrolling — the count reaches
zero and the process aborts with "none_dealloc: deallocating None" (or ``bool_dealloc``).

The remedy here keeps a large reserve of references on ``None``, ``True`` and ``False`` and
refills it from a timer and from the page view's paint. Extra references to these objects
are harmless: they are never freed anyway. Nothing is done when a probe at import shows the
bug is absent, or on Python 3.12+ where the singletons are immortal.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

# References kept in reserve on each singleton, and the level at which to refill: the
# worst drift seen is a few thousand a second, so a refill every second is ample.
RESERVE = 10_000_000
REFILL_BELOW = RESERVE // 2
REFILL_EVERY_MS = 1000
_SINGLETONS = (None, True, False)
_PROBES = 32


class _Probe(QObject):
    ping = Signal()


def _drops_references() -> bool:
    if sys.version_info >= (3, 12):  # immortal singletons: the bug cannot hurt
        return False
    timer = QTimer()
    probe = _Probe()
    none0, true0 = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(_PROBES):
        timer.stop()
        probe.ping.emit()
    lost_none = none0 - sys.getrefcount(None)
    lost_true = true0 - sys.getrefcount(True)
    # Allow a little noise from other threads touching the singletons meanwhile.
    return lost_none >= _PROBES // 2 or lost_true >= _PROBES // 2


def _add_references(obj: object, count: int) -> None:
    # ob_refcnt is the first field of every object in (non-free-threaded) CPython 3.11.
    ctypes.c_ssize_t.from_address(id(obj)).value += count


DROPS_REFERENCES = _drops_references()


def top_up() -> None:
    """Refill the reserve of references on None/True/False if it ran low (cheap)."""
    if not DROPS_REFERENCES:
        return
    for obj in _SINGLETONS:
        count = sys.getrefcount(obj)
        if count < REFILL_BELOW:
            _add_references(obj, RESERVE - count)


_timer: QTimer | None = None


def install_guard() -> None:
    """Fill the reserve now and refill it every second while the application runs."""
    global _timer
    top_up()
    app = QCoreApplication.instance()
    if not DROPS_REFERENCES or app is None or _timer is not None:
        return
    _timer = QTimer(app)
    _timer.setInterval(REFILL_EVERY_MS)
    _timer.timeout.connect(top_up)
    _timer.start()


top_up()
