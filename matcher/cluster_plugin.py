"""The worker plugin of a cluster ``citeview`` starts on this machine (imports Dask, so
it is loaded only once a cluster is started: see :mod:`matcher.cluster`)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class IgnoreCtrlC(WorkerPlugin):
    """The workers ignore Ctrl-C, which a terminal sends to the whole process group:
    the command decides what Ctrl-C does (stop, keep what was written) and stops its
    workers itself; left alone, each worker would print a traceback as it died."""

    name = "citeview-ignore-ctrl-c"

    def setup(self, worker: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
