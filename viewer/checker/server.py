"""The check process: citations read, documents inspected and quotes checked outside the GUI.

Everything the window needs from pydantic, PyMuPDF and the matcher happens in one child
process, so the GUI process imports none of them. ``citeview FILE`` starts this process
before it imports Qt, and this process forks the render process once it has imported
PyMuPDF (:func:`viewer.render.worker.prestart`). On a two-core machine the child's imports
(~0.25 s of pydantic, PyMuPDF and the matcher) then run beside the GUI's own (~0.2 s of Qt),
instead of after them, and a running check no longer competes with painting for the GUI
process's interpreter lock.

It speaks plain tuples over a :mod:`multiprocessing` connection, one request at a time:

    request   (kind, rid, args)           kind: open, inspect, check, scans
              ("prepare", -1, (path,))    no reply: answer the requests for ``path``
                                          before they come (see :class:`_Server`)
              ("cancel", rid, ())         stop request ``rid`` early (a check stops
                                          between evidence items and replies with what
                                          it has, which the caller discards)
              None                        stop the process
    reply     ("progress", rid, (done, total))   any number, for a check
              ("ok", rid, result)  or  ("error", rid, message for the person)

Requests and results are plain data: the report is the ``citeview check --json`` document
(see :mod:`viewer.state.records`). While no request waits, the process imports what the next
ones will need, so the first check of a session does not start with 0.3 s of imports.

:class:`Engine` is the GUI's end. :meth:`Engine.call` blocks the calling thread (a
:mod:`viewer.tasks` operation), so the window's code reads as if the work ran in-thread.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import os
import queue
import signal
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import children
from ..render.worker import Handoff, fork_here

log = logging.getLogger(__name__)

# What the window opens as a citations file (anything else as a PDF).
CITATION_SUFFIXES = (".cite", ".json")
# Imported by the process while it waits for its first requests, in the order needed.
WARM_UP = ("matcher.citations", "matcher.document", "matcher.check", "rapidfuzz.fuzz")
# How often a waiting caller looks at its own cancel() (seconds).
CANCEL_POLL_S = 0.05

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


class EngineError(Exception):
    """A request failed: the message is a sentence for the person."""


# -- the process's side ------------------------------------------------------------------
Reply = tuple[str, Any]  # ("ok", result) or ("error", message)


def _key(kind: str, args: Sequence[Any]) -> tuple[str, str]:
    return kind, repr(tuple(args))


class _Server:
    """Serves requests in order; a check looks at what arrived between evidence items.

    ``prepare`` is the one request with no reply: open a citations file, inspect its
    documents and check it, as the window will ask next. ``citeview FILE`` sends it
    before Qt is imported, so the check is done, or well on its way, by the time the
    window asks. A foreseen request gets the prepared answer: at once if it is ready,
    else as soon as it is (it joins the work under way). Preparing never delays other
    work: a request it did not foresee, with no one waiting on the preparing, stops it.
    """

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.backlog: deque[Any] = deque()
        self.stopping = False
        self.citations: tuple[str, Any] | None = None  # the last file opened: path, model
        self.cancelled: set[int] = set()  # requests the window no longer waits for
        # Preparing: what will be asked, answers not yet asked for, requests waiting.
        self.preparing = False
        self.foreseen: set[tuple[str, str]] = set()
        self.ready: dict[tuple[str, str], Reply] = {}
        self.waiting: dict[tuple[str, str], list[Any]] = {}

    def run(self) -> None:
        warm = iter(WARM_UP)
        while not self.stopping:
            if self.backlog:
                msg = self.backlog.popleft()
            else:
                module = None
                while not self.conn.poll() and (module := next(warm, None)) is not None:
                    importlib.import_module(module)
                try:
                    msg = self.conn.recv()
                except (EOFError, OSError):
                    return
            if msg is None:
                return
            kind, rid, args = msg
            if kind == "prepare":
                self.prepare(*args)
            elif kind == "cancel":
                pass  # read here, its request was answered already: nothing to stop
            elif rid in self.cancelled:  # cancelled while it waited in the backlog
                self.send(rid, ("error", "cancelled"))
            else:
                reply = self.ready.pop(_key(kind, args), None)
                if reply is None:
                    self.ready.clear()  # not foreseen: the window has moved on
                    reply = self.answer(kind, rid, args)
                self.send(rid, reply)
            self.cancelled.discard(rid)

    def send(self, rid: int, reply: Reply) -> None:
        try:
            self.conn.send((reply[0], rid, reply[1]))
        except (EOFError, OSError):
            self.stopping = True

    def answer(self, kind: str, rid: int, args: Sequence[Any]) -> Reply:
        handler = getattr(self, f"do_{kind}", None)
        try:
            if handler is None:
                raise EngineError(f"unknown request {kind!r}")
            return "ok", handler(rid, *args)
        except EngineError as exc:
            return "error", str(exc)
        except Exception as exc:  # a bug: logged in full, the window says it plainly
            log.exception("%s request failed", kind)
            return "error", f"{type(exc).__name__}: {exc}"

    # -- preparing ---------------------------------------------------------------------
    def prepare(self, path: str) -> None:
        check = ("check", path, {}, {})
        self.ready.clear()
        self.preparing = True
        self.foreseen = {_key("open", (path,)), _key(check[0], check[1:])}
        try:
            opened = self.keep("open", path)
            if opened is None or opened[0] != "ok":
                return
            documents = list(opened[1][1].values())
            self.foreseen |= {_key("inspect", (d, None)) for d in documents}
            for doc in documents:
                if self.keep("inspect", doc, None) is None:
                    return
            self.keep(*check)
        finally:
            self.preparing = False
            self.foreseen = set()
            # Requests still waiting (preparing stopped first) are answered in turn.
            for msgs in reversed(list(self.waiting.values())):
                self.backlog.extendleft(reversed(msgs))
            self.waiting.clear()

    def keep(self, kind: str, *args: Any) -> Reply | None:
        """Answer a foreseen request: to those waiting for it, else kept until asked for.
        None if preparing was stopped."""
        if self.arrived(-1):
            return None
        reply = self.answer(kind, -1, args)
        if not self.preparing:
            return None  # stopped part way (a partial report is of no use)
        key = _key(kind, args)
        waiting = self.waiting.pop(key, [])
        for msg in waiting:
            self.send(msg[1], reply)
        if not waiting:
            self.ready[key] = reply
        return reply

    def arrived(self, rid: int) -> bool:
        """Read what arrived meanwhile; True once the work on request ``rid`` (-1: the
        preparing) should stop. What is not for the work under way waits its turn."""
        while self.conn.poll():
            msg = self.conn.recv()
            if msg is None:
                self.stopping, self.preparing = True, False
                continue
            kind, other, args = msg
            key = _key(kind, args)
            if kind == "cancel":
                self.cancelled.add(other)
                for msgs in self.waiting.values():
                    if any(m[1] == other for m in msgs):
                        msgs[:] = [m for m in msgs if m[1] != other]
                        self.send(other, ("error", "cancelled"))
                continue
            if key in self.ready:
                self.send(other, self.ready.pop(key))
            elif self.preparing and key in self.foreseen:
                self.waiting.setdefault(key, []).append(msg)
            else:
                self.backlog.append(msg)
        if self.backlog and not any(self.waiting.values()):
            self.preparing = False
        return self.stopping or rid in self.cancelled or (rid == -1 and not self.preparing)

    # -- requests ----------------------------------------------------------------------
    def do_open(self, _rid: int, path: str) -> tuple[dict[str, Any], dict[str, str]]:
        from matcher.citations import CitationsError, load_citations

        try:
            cf = load_citations(path)
        except CitationsError as exc:
            raise EngineError(str(exc)) from None
        self.citations = (path, cf)
        return citations_reply(cf, path)

    def do_inspect(self, _rid: int, path: str, password: str | None) -> Any:
        from .inspection import inspect_pdf

        return inspect_pdf(Path(path), password)

    def do_check(self, rid: int, path: str, moved: Mapping[str, str],
                 passwords: Mapping[str, str]) -> dict[str, Any]:
        """Check the file last opened (as the window shows it), documents moved as given."""
        from matcher.check import check_citations
        from matcher.citations import DocumentRef
        from matcher.ocr.store import OcrStore

        if self.citations is None or self.citations[0] != path:
            self.do_open(rid, path)  # this process was restarted since the file was opened
        assert self.citations is not None
        cf = self.citations[1]
        if moved:
            docs = [DocumentRef(id=d.id, path=moved[d.id]) if d.id in moved else d
                    for d in cf.documents]
            cf = cf.model_copy(update={"documents": docs})

        key = _key("check", (path, moved, passwords))

        def progress(done: int, total: int) -> None:
            # To the caller; while preparing, to the requests that joined this check.
            for to in [rid] if rid >= 0 else [m[1] for m in self.waiting.get(key, ())]:
                self.conn.send(("progress", to, (done, total)))

        report = check_citations(cf, path, progress=progress,
                                 cancel=lambda: self.arrived(rid),
                                 passwords=passwords, ocr=OcrStore.default())
        return report.model_dump(mode="json")

    def do_scans(self, _rid: int, path: str, pages: Sequence[int],
                 password: str | None) -> list[int]:
        from .scans import pages_needing_ocr

        return pages_needing_ocr(Path(path), pages, password=password)


def citations_reply(cf: Any, path: str | Path) -> tuple[dict[str, Any], dict[str, str]]:
    """What the window is told of a validated citations file (a ``CitationsFile``): its
    JSON, and where each document resolves to (:meth:`viewer.state.records.Citations.from_json`
    takes both)."""
    from matcher.citations import resolve_document_path

    paths = {ref.id: str(resolve_document_path(path, ref)) for ref in cf.documents}
    return cf.model_dump(mode="json"), paths


def serve(conn: Any, parent_end: Any = None, render: Handoff | None = None) -> None:
    """The process's body: answer requests on ``conn`` until it closes or sends None;
    first, given a ``render`` handoff, import PyMuPDF and fork the render process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the GUI's to handle
    if parent_end is not None:
        parent_end.close()  # so the GUI's end closing shows here as end-of-file
    try:
        if render is not None:
            import pymupdf  # noqa: F401  (shared with the render process from here on)

            fork_here(render, conn)
        _Server(conn).run()
    finally:
        logging.shutdown()
        # Leave without the interpreter's teardown of pydantic and PyMuPDF (tens of ms
        # the window would otherwise wait for when it closes).
        os._exit(0)


# -- the GUI's side ----------------------------------------------------------------------
class Engine:
    """The GUI's end of a check process: thread-safe calls that block until answered."""

    def __init__(self, render: Handoff | None = None) -> None:
        """Start a check process; with a ``render`` handoff (fork only) it also starts
        the render process (see :func:`viewer.render.worker.prestart`)."""
        ctx = children.context()
        ours, theirs = ctx.Pipe(duplex=True)
        args = (theirs, ours, render) if ctx.get_start_method() == "fork" else (theirs,)
        self._process = ctx.Process(target=serve, args=args, name="citeview-check",
                                    daemon=True)
        self._process.start()
        theirs.close()
        if render is not None:
            render[0].close()  # the render process's end is its own now
        self._conn = ours
        self._send_lock = threading.Lock()
        self._ids = itertools.count()
        self._waiting: dict[int, tuple[queue.SimpleQueue[Any], Progress | None]] = {}
        self._lock = threading.Lock()
        self._dead = False
        self._reader = threading.Thread(target=self._read, name="citeview-check-reader",
                                        daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int | None:
        return self._process.pid  # type: ignore[no-any-return]

    def is_alive(self) -> bool:
        return not self._dead and bool(self._process.is_alive())

    def call(self, kind: str, *args: Any, progress: Progress | None = None,
             cancel: Cancel | None = None) -> Any:
        """Send a request and wait for its result; an :class:`EngineError` if it failed.
        ``cancel()`` is looked at while waiting: once true, the process is asked to stop
        early and whatever it answers is returned."""
        rid = next(self._ids)
        answers: queue.SimpleQueue[Any] = queue.SimpleQueue()
        with self._lock:
            if self._dead:
                raise EngineError("the check process has stopped")
            self._waiting[rid] = (answers, progress)
        try:
            self._send((kind, rid, args))
            asked = False
            while True:
                try:
                    status, payload = answers.get(timeout=CANCEL_POLL_S if cancel else None)
                except queue.Empty:
                    if not asked and cancel is not None and cancel():
                        self._send(("cancel", rid, ()))
                        asked = True
                    continue
                if status == "ok":
                    return payload
                raise EngineError(payload)
        finally:
            with self._lock:
                self._waiting.pop(rid, None)

    def prepare(self, path: Path) -> None:
        """Have the process open, inspect and check ``path`` ahead of the requests for it."""
        self._send(("prepare", -1, (request_path(path),)))

    def stop(self) -> None:
        """Ask the process to leave, and wait for it (a few seconds at most)."""
        with self._send_lock:
            children.stop(self._process, self._conn)
        self._conn.close()
        self._reader.join(children.STOP_TIMEOUT_S)

    def _send(self, msg: Any) -> None:
        try:
            with self._send_lock:
                self._conn.send(msg)
        except (OSError, ValueError) as exc:
            self._dead = True
            raise EngineError("the check process has stopped") from exc

    def _read(self) -> None:
        while True:
            try:
                kind, rid, payload = self._conn.recv()
            except (EOFError, OSError, ValueError):
                break
            with self._lock:
                waiting = self._waiting.get(rid)
            if waiting is None:
                continue  # the caller gave up (cancelled)
            answers, progress = waiting
            if kind == "progress":
                if progress is not None:
                    progress(*payload)
            else:
                answers.put((kind, payload))
        with self._lock:
            self._dead = True
            for answers, _ in self._waiting.values():
                answers.put(("error", "the check process stopped unexpectedly; the log "
                                      "has the details"))


_prestarted: Engine | None = None


def prestart(prepare: Path | None = None, render: Handoff | None = None) -> None:
    """Start the check process now (``citeview`` does, before importing Qt), and have it
    prepare the citations file the window is about to open, if any, and fork the render
    process from the ``render`` handoff."""
    global _prestarted
    if _prestarted is None:
        _prestarted = Engine(render)
    if prepare is not None:
        _prestarted.prepare(prepare)


def request_path(path: Path) -> str:
    """How a citations file is named in requests (so a prepared answer is found)."""
    return str(Path(path).expanduser().resolve())


def take() -> Engine:
    """The process started by :func:`prestart`, else a new one; the caller owns it."""
    global _prestarted
    engine, _prestarted = _prestarted, None
    if engine is not None and engine.is_alive():
        return engine
    return Engine()
