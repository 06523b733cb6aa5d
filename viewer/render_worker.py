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
import signal
import sys
import warnings
from collections import OrderedDict
from typing import Any

# Documents kept open in the worker: the current one and the one before it.
OPEN_DOCUMENTS = 2
# MuPDF's own cache (fonts, decoded images) may grow to 256 MB and PyMuPDF cannot report
# its size, so it is halved after every this many pages rendered.
SHRINK_EVERY = 24

log = logging.getLogger(__name__)


def start() -> tuple[Any, Any]:
    """Start a render process; returns it and the GUI's end of its connection."""
    ctx = _context()
    ours, theirs = ctx.Pipe(duplex=True)
    args = (theirs, ours) if ctx.get_start_method() == "fork" else (theirs,)
    process = ctx.Process(target=serve, args=args, name="citeview-render", daemon=True)
    with warnings.catch_warnings():
        # Python warns about fork in a process with threads. A prestarted worker (see
        # below) is forked before there are any; one started later is forked from the
        # GUI, and the child only imports PyMuPDF, never touches Qt, and leaves through
        # os._exit, so no lock another thread held is ever needed there.
        warnings.simplefilter("ignore", DeprecationWarning)
        process.start()
    theirs.close()
    return process, ours


def _context() -> Any:
    # fork on Linux: the child starts in milliseconds; a spawned interpreter would spend
    # a good part of a second on its imports before the first page could appear.
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    return multiprocessing.get_context(method)


_prestarted: tuple[Any, Any] | None = None


def prestart() -> None:
    """Start the render process now (``citeview`` does, before importing Qt), so PyMuPDF
    is imported there while the GUI imports Qt."""
    global _prestarted
    if _prestarted is None:
        _prestarted = start()


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
