"""A child started as a terminal's foreground command is: Ctrl-C (SIGINT) reaches it.

A shell starts a background job (``cmd &`` without job control, as CI scripts and
``nohup … &`` do) with SIGINT ignored, and an ignored signal stays ignored across
``exec``: Python then installs no KeyboardInterrupt handler, and a test's Ctrl-C does
nothing. Tests of what Ctrl-C does start their child with SIGINT's default restored
(``preexec_fn=foreground``), whatever the test run itself was started with.
"""

from __future__ import annotations

import signal


def foreground() -> None:
    """In the child, before ``exec``: SIGINT back to its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
