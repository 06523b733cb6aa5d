"""Background operations: a function that touches no widget, run on a worker thread, with
success, failure and progress delivered back on the GUI thread.

    op = Operation(lambda progress, cancel: slow(progress=progress, cancel=cancel),
                   on_success=show, on_failure=complain, on_progress=bar.update)
    op.start()

The function receives ``progress(done, total)`` and ``cancel() -> bool``. An exception
in it is handed to ``on_failure``, never to a traceback dialog. :class:`Operations` is
the set of them one owner (the window's controller) has running.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from matcher.vocabulary import CancelCallback, ProgressCallback

log = logging.getLogger(__name__)

Work = Callable[[ProgressCallback, CancelCallback], Any]


class _Thread(QThread):
    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(int, int)

    def __init__(self, work: Work, cancelled: threading.Event, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self._work = work
        self._cancelled = cancelled

    def run(self) -> None:
        try:
            result = self._work(self.progressed.emit, self._cancelled.is_set)
        except BaseException as exc:  # reported to the person by on_failure
            log.info("background operation %s failed", self.objectName(), exc_info=True)
            self.failed.emit(exc)
        else:
            self.succeeded.emit(result)


class Operation(QObject):
    """One piece of background work and what to do with its outcome."""

    finished = Signal()

    def __init__(
        self,
        work: Work,
        *,
        on_success: Callable[[Any], None],
        on_failure: Callable[[BaseException], None],
        on_progress: ProgressCallback | None = None,
        name: str = "citeview-operation",
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._cancelled = threading.Event()
        self._thread = _Thread(work, self._cancelled, name)
        self._on_success = on_success
        self._on_failure = on_failure
        # Queued to this object (it lives on the GUI thread), so callbacks run there.
        self._thread.succeeded.connect(self._succeeded)
        self._thread.failed.connect(self._failed)
        if on_progress is not None:
            self._thread.progressed.connect(on_progress)
        self._done = False

    def start(self) -> Operation:
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Ask the work to stop early (it checks ``cancel()``); callbacks are then skipped."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def wait(self, ms: int = 5000) -> bool:
        """Block until the thread ends (for shutdown only); True if it did."""
        ended = bool(self._thread.wait(ms))
        if ended:
            self._done = True
        return ended

    def is_running(self) -> bool:
        return not self._done

    def _finish(self) -> None:
        self._thread.wait()
        self._done = True
        self.finished.emit()

    def _succeeded(self, result: Any) -> None:
        self._finish()
        if not self._cancelled.is_set():
            self._on_success(result)

    def _failed(self, exc: BaseException) -> None:
        self._finish()
        if not self._cancelled.is_set():
            self._on_failure(exc)


class Operations(QObject):
    """The operations one owner has started and not yet seen finish."""

    changed = Signal()  # one started or finished

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ops: list[Operation] = []

    def run(self, work: Work, on_success: Callable[[Any], None], *,
            on_failure: Callable[[BaseException], None],
            on_progress: ProgressCallback | None = None,
            name: str = "citeview-operation") -> Operation:
        """Start ``work`` in the background; the callbacks run on the GUI thread."""
        op = Operation(work, on_success=on_success, on_failure=on_failure,
                       on_progress=on_progress, name=name, parent=self)
        self._ops.append(op)
        op.finished.connect(lambda op=op: self._finished(op))
        op.start()
        self.changed.emit()
        return op

    def _finished(self, op: Operation) -> None:
        if op in self._ops:
            self._ops.remove(op)
        self.changed.emit()

    def busy(self) -> bool:
        """Something started is still running (and was not cancelled)."""
        return any(op.is_running() and not op.cancelled for op in self._ops)

    def cancel_all(self) -> None:
        """Ask every operation to stop; their callbacks are skipped."""
        for op in self._ops:
            op.cancel()

    def wait_all(self, ms: int = 5000) -> None:
        """Wait for every operation's thread (on shutdown, after :meth:`cancel_all`)."""
        for op in list(self._ops):
            op.wait(ms)
