"""Quit cleanly on Ctrl-C (SIGINT) and SIGTERM: every window closed as if by its close
button (preferences saved, background work stopped, child processes told to leave).

Python runs a signal handler only between bytecodes, and while Qt's event loop waits in C
no bytecode runs, so a handler set with :func:`signal.signal` alone would wait for the next
mouse move. The C-level handler also writes the signal's number to a socket
(:func:`signal.set_wakeup_fd`), which the event loop watches: the loop wakes at once, and
the quitting happens in an ordinary slot, never inside whatever code the signal
interrupted (which is where a ``KeyboardInterrupt`` used to surface). A second signal
while the windows close ends the process at once.
"""

from __future__ import annotations

import os
import signal
import socket

from PySide6.QtCore import QObject, QSocketNotifier
from PySide6.QtWidgets import QApplication

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class SignalQuitter(QObject):
    """Watches for SIGINT and SIGTERM while the application runs; :attr:`received` is the
    first one that came (the exit status is then 128 + its number, as a shell reports)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.received: int | None = None
        self._read, self._write = socket.socketpair()
        for end in (self._read, self._write):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._write.fileno(), warn_on_full_buffer=False)
        self._previous = {s: signal.signal(s, self._note) for s in SIGNALS}
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        app.aboutToQuit.connect(self.restore)

    @property
    def exit_status(self) -> int | None:
        return None if self.received is None else 128 + self.received

    def _note(self, signum: int, _frame: object) -> None:
        # Runs in the main thread between bytecodes: only remember; _woken does the work.
        if self.received is None:
            self.received = signum
        else:  # a second one: whatever is slow to close, the person means it
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    def _woken(self, *_args: object) -> None:
        try:
            while self._read.recv(64):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        if self.received is not None:
            self.app.closeAllWindows()
            self.app.quit()

    def restore(self) -> None:
        """Give the signals back to what handled them before (idempotent)."""
        if self._previous:
            for s, handler in self._previous.items():
                signal.signal(s, handler)
            self._previous = {}
            signal.set_wakeup_fd(self._previous_fd)
            self._notifier.setEnabled(False)
