"""The render process: open documents with PyMuPDF and rasterise page tiles on request.

Runs in a child process, not a thread: MuPDF keeps the GIL while it rasterises, so a
render thread would stall the GUI thread for as long as each page takes (tens of ms on a
plain page, far more on a scan or a map). This module imports no Qt; it speaks plain
tuples over a :mod:`multiprocessing` connection:

    request   (job, path, password, page, scale, (x, y, w, h))      or None to stop
    reply     ("ok", job, x, y, width, height, stride) + the RGB bytes
              ("error", job, message)

``(x, y, w, h)`` is the tile in device pixels of the whole page image at ``scale`` (pixels
per point); MuPDF renders the matching clip of ``page.rect`` and reports where the pixmap
really starts, which the caller uses rather than the request.

MuPDF's complaints about a page it still renders (a glyph it cannot draw, an image over its
size limit) go to the log, not to the terminal the viewer was started from; a page it
cannot render at all is an ``"error"`` reply, which the window shows on the page.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
import warnings
from collections import OrderedDict
from typing import Any

from .. import children

# Documents kept open in the worker: the current one and the one before it.
OPEN_DOCUMENTS = 2
# MuPDF's own cache (fonts, decoded images) may grow to 256 MB and PyMuPDF cannot report
# its size, so it is halved after every this many pages rendered.
SHRINK_EVERY = 24

log = logging.getLogger(__name__)


def start() -> tuple[Any, Any]:
    """Start a render process; returns it and the GUI's end of its connection."""
    ctx = children.context()
    ours, theirs = ctx.Pipe(duplex=True)
    args = (theirs, ours) if ctx.get_start_method() == "fork" else (theirs,)
    process = ctx.Process(target=serve, args=args, name="citeview-render", daemon=True)
    with warnings.catch_warnings():
        # Python warns about fork in a process with threads. The prestarted worker (see
        # below) is forked by the check process, which has none; one started here is
        # forked from the GUI, and the child only imports PyMuPDF, never touches Qt, and
        # leaves through os._exit, so no lock another thread held is ever needed there.
        warnings.simplefilter("ignore", DeprecationWarning)
        process.start()
    theirs.close()
    return process, ours


_prestarted: tuple[Any, Any] | None = None
# What the check process needs to fork the render process: the render connection's two
# ends, and a shared integer the render process writes its pid into.
Handoff = tuple[Any, Any, Any]


def prestart() -> Handoff | None:
    """Start the render process early (``citeview`` calls this before importing Qt).

    On Linux it is forked by the check process (:mod:`viewer.checker.server`) once that has
    imported PyMuPDF, so one import serves both processes and, while the GUI imports Qt,
    only two processes compete for the cores; the returned handoff goes to
    :func:`viewer.checker.server.prestart`. Elsewhere it is started now, and None is returned.
    """
    global _prestarted
    if _prestarted is not None:
        return None
    if children.context().get_start_method() != "fork":
        _prestarted = start()
        return None
    ours, theirs = multiprocessing.Pipe(duplex=True)
    pid = multiprocessing.RawValue("i", 0)
    _prestarted = (_ForkedElsewhere(pid), ours)
    return theirs, ours, pid


def fork_here(handoff: Handoff, *close: Any) -> None:
    """In the check process: fork the render process of ``handoff``; the child closes
    ``close`` (the check process's own connection) and its copy of the GUI's end."""
    theirs, ours, pid = handoff
    child = os.fork()
    if child == 0:
        try:
            for conn in close:
                conn.close()
            ours.close()
            _close_inherited_files(keep={theirs.fileno()})
            pid.value = os.getpid()
            serve(theirs)
        finally:
            os._exit(0)
    theirs.close()
    ours.close()


def _close_inherited_files(keep: set[int]) -> None:
    """Close the descriptors a fork copied from the check process, but for ``keep``, the
    standard streams and the log file. Among them is the write end of the pipe through
    which the GUI's ``multiprocessing`` learns that the check process has ended: held
    open here, joining the check process would wait for this one to end too."""
    keep = keep | {0, 1, 2}
    for handler in logging.getLogger().handlers:
        stream = getattr(handler, "stream", None)
        if stream is not None and hasattr(stream, "fileno"):
            try:
                keep.add(stream.fileno())
            except (OSError, ValueError):
                pass
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:  # the listing's own descriptor, already closed
                pass


class _ForkedElsewhere:
    """The GUI's handle on a render process the check process forked: not its child, so
    it is watched through the pid the process wrote, the way ``multiprocessing.Process``
    would be joined."""

    def __init__(self, pid: Any) -> None:
        self._pid = pid

    @property
    def pid(self) -> int | None:
        return int(self._pid.value) or None

    def is_alive(self) -> bool:
        pid = self.pid
        if pid is None:
            return True  # not forked yet: requests wait in the pipe until it is
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state not in ("Z", "X")  # exited: a zombie until the check process ends

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)

    def terminate(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except OSError:
                pass


def take() -> tuple[Any, Any]:
    """The process started by :func:`prestart` if it still runs, else a new one."""
    global _prestarted
    started, _prestarted = _prestarted, None
    if started is not None and started[0].is_alive():
        return started
    return start()


def serve(conn: Any, parent_end: Any = None) -> None:
    """Answer render requests on ``conn`` until it closes or sends None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the GUI's to handle
    if parent_end is not None:
        # After a fork the child holds a copy of the GUI's end too; close it so that the
        # GUI process dying shows up here as end-of-file instead of a hang.
        parent_end.close()
    import pymupdf

    from matcher.document import open_pdf

    # By default PyMuPDF prints every MuPDF error to stderr ("limit error: Overly large
    # image", dozens per page of some journals), and also keeps each in a list of its own.
    pymupdf.TOOLS.mupdf_display_errors(False)
    docs: OrderedDict[tuple[str, str | None], Any] = OrderedDict()
    rendered = 0
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            break
        job, path, password, page_no, scale, (x, y, w, h) = msg
        try:
            doc = _document(open_pdf, docs, path, password)
            page = doc.load_page(page_no)
            clip = pymupdf.Rect(x / scale, y / scale, (x + w) / scale, (y + h) / scale)
            pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), clip=clip,
                                  alpha=False, colorspace=pymupdf.csRGB)
            reply: tuple[Any, ...] = ("ok", job, pix.x, pix.y, pix.width, pix.height, pix.stride)
            data = pix.samples_mv
        except Exception as exc:  # a damaged page must not end the worker
            reply, data = ("error", job, f"{type(exc).__name__}: {exc}"[:300]), None
        _log_complaints(pymupdf, path, page_no)
        try:
            conn.send(reply)
            if data is not None:
                conn.send_bytes(data)
        except (EOFError, OSError):
            return
        rendered += 1
        if rendered % SHRINK_EVERY == 0:
            pymupdf.TOOLS.store_shrink(50)
    for doc in docs.values():
        doc.close()


def _log_complaints(pymupdf: Any, path: str, page_no: int) -> None:
    """Log what MuPDF said while rendering a page, and empty PyMuPDF's list of it, which
    would otherwise grow for as long as the worker lives."""
    said = [line for line in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines() if line]
    if said:
        log.info("page %d of %s: MuPDF reported %d problem(s), first: %s",
                 page_no + 1, path, len(said), said[0])


def _document(open_pdf: Any, docs: OrderedDict[tuple[str, str | None], Any], path: str,
              password: str | None) -> Any:
    """The open document for ``path``, opened (and authenticated) by the matcher's one
    opener, so the render process refuses a file for the same reason the window does."""
    key = (path, password)
    doc = docs.get(key)
    if doc is not None:
        docs.move_to_end(key)
        return doc
    doc = open_pdf(path, password=password)
    docs[key] = doc
    while len(docs) > OPEN_DOCUMENTS:
        docs.popitem(last=False)[1].close()
    return doc
