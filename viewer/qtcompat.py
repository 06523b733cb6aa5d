"""Work around a reference-count bug in PySide6 6.12: ``SignalInstance.emit()`` returns
``True`` without owning a reference to it.

Every emit from Python then lowers ``True``'s reference count by one. Python 3.11 does not
make ``True`` immortal, so after a few thousand emits (one per rendered tile, per scroll
step) the count reaches zero and the interpreter aborts with "bool_dealloc: deallocating
True or False". Emitting through :func:`emit` gives the reference back, but only if a probe
at import shows this PySide6 has the bug; holding one reference too many to ``True``
would be harmless anyway, as it is never freed.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal

_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]
_incref.restype = None

_PROBES = 16


class _Probe(QObject):
    ping = Signal()


def _emit_drops_true() -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(_PROBES):
        probe.ping.emit()
    # Allow for a little noise from other threads touching True meanwhile.
    return sys.getrefcount(True) <= before - _PROBES // 2


EMIT_DROPS_TRUE = _emit_drops_true()
if EMIT_DROPS_TRUE:  # give back what the probe itself took
    for _ in range(_PROBES):
        _incref(True)


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``, without PySide6 6.12 stealing a reference to ``True``."""
    signal.emit(*args)
    if EMIT_DROPS_TRUE:
        _incref(True)


def restore_true(count: int) -> None:
    """Give ``True`` back ``count`` references (for callers measuring a known loss)."""
    for _ in range(max(0, count)):
        _incref(True)
