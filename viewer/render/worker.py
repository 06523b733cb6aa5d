"""The render process: open documents with PyMuPDF and rasterise page tiles on request.

This module runs only in that process (the GUI's handle on it is :mod:`.process`).

Runs in a child process, not a thread: MuPDF keeps the GIL while it rasterises, so a
render thread would stall the GUI thread for as long as each page takes (tens of ms on a
plain page, far more on a scan or a map). This module imports no Qt; it speaks plain
tuples over a :mod:`multiprocessing` connection:

    request   (job, path, password, page, scale, (x, y, w, h))      or None to stop
    reply     ("ok", job, x, y, width, height, stride) + the RGB bytes
              ("error", job, message)
    request   ("pages", job, path, password): the document's pages, to lay them out
    reply     ("pages", job, (PageInfo, ...))                      or ("error", job, message)

``(x, y, w, h)`` is the tile in device pixels of the whole page image at ``scale`` (pixels
per point); MuPDF renders the matching clip of ``page.rect`` and reports where the pixmap
really starts, which the caller uses rather than the request.

MuPDF's complaints about a page it still renders (a glyph it cannot draw, an image over its
size limit) go to the log, not to the terminal the viewer was started from; a page it
cannot render at all is an ``"error"`` reply, which the window shows on the page.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
from collections import OrderedDict
from typing import Any

# Documents kept open in the worker: the current one and the one before it.
OPEN_DOCUMENTS = 2
# MuPDF's own cache (fonts, decoded images) may grow to 256 MB and PyMuPDF cannot report
# its size, so it is halved after every this many pages rendered.
SHRINK_EVERY = 24

log = logging.getLogger(__name__)


def fork_here(handoff: Any, *close: Any) -> None:
    """In the check process: fork the render process of ``handoff`` (made by
    :func:`viewer.render.process.prestart`); the child closes ``close`` (the check
    process's own connection) and its copy of the GUI's end."""
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


def serve(conn: Any, parent_end: Any = None) -> None:
    """Answer render requests on ``conn`` until it closes or sends None."""
    gc.enable()  # paused by the window's start-up, two forks up
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
        if msg[0] == "pages":
            if not _send(conn, _pages(open_pdf, docs, *msg[1:]), None):
                return
            continue
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
        if not _send(conn, reply, data):
            return
        rendered += 1
        if rendered % SHRINK_EVERY == 0:
            pymupdf.TOOLS.store_shrink(50)
    for doc in docs.values():
        doc.close()


def _send(conn: Any, reply: tuple[Any, ...], data: Any) -> bool:
    """Send a reply (and its pixels); False once the GUI has gone."""
    try:
        conn.send(reply)
        if data is not None:
            conn.send_bytes(data)
    except (EOFError, OSError):
        return False
    return True


def _pages(open_pdf: Any, docs: OrderedDict[tuple[str, str | None], Any], job: int,
           path: str, password: str | None) -> tuple[Any, ...]:
    """The reply to a "pages" request: every page's size, as the check process's
    inspection reads them (the window lays out the page it shows first from these)."""
    from .page_facts import page_infos

    try:
        return ("pages", job, page_infos(_document(open_pdf, docs, path, password)))
    except Exception as exc:  # a file the check process will explain
        return ("error", job, f"{type(exc).__name__}: {exc}"[:300])


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
