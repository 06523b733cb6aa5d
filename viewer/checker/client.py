"""The GUI's one door to the check process: typed calls that block until answered.

    client = CheckClient()
    citations = client.open(path)                       # -> Citations
    inspection = client.inspect(doc.path, password)     # -> Inspection
    report = client.check(path, progress=bar.update)    # -> Report
    client.ocr_page(scan, 0)                            # -> words stored
    client.export(path, html=out, progress=bar.update)  # -> Exported (files written)
    client.words(doc.path, 2)                           # -> PageWordBoxes

Each call blocks the calling thread (a :mod:`viewer.tasks` operation, never the GUI
thread), so the window's code reads as if the work ran in-thread; calls from several
threads at once are safe. A ``cancel()`` given to a call is looked at while it waits:
once true, the process is asked to stop early, and what it then replies (a partial
report, or a failure saying "cancelled") is of no use to the caller. A failed request
raises :class:`~viewer.checker.protocol.CheckerError` with a sentence for the person. The
process is started by the name of its body, so this module imports nothing of what runs
there.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from matcher.vocabulary import CancelCallback, ProgressCallback, Rect

from .. import children
from ..state.documents import Inspection
from ..state.records import Citations, Consistency, Report
from ..state.selection import PageWordBoxes
from . import protocol as p

T = TypeVar("T")
# Hears the results a request streams ahead of its reply (a find's hits), on the reader.
Streamed = Callable[[tuple[Any, ...]], None]

BODY = "viewer.checker.server:serve"
# How often a waiting caller looks at its own cancel() (seconds).
CANCEL_POLL_S = 0.05
# How long a process busy with a call is given to leave when the window closes, before
# it is ended (seconds): long enough to read the request if it is between two pieces of
# work, short enough that closing the window feels immediate.
BUSY_STOP_WAIT_S = 0.2
# What a call still waiting hears when the process ends under it.
DIED = "the check process stopped unexpectedly; the log has the details"


class CheckClient:
    """The GUI's end of a check process."""

    def __init__(self, render: Any = None) -> None:
        """Start a check process; with a render handoff (fork only, from
        :func:`viewer.render.process.prestart`) it also forks the render process."""
        self._process, self._conn = children.start(BODY, "citeview-check", render)
        if render is not None:
            render[0].close()  # the render process's end is its own now
        self._send_lock = threading.Lock()
        self._ids = itertools.count()
        self._waiting: dict[int, _Waiting] = {}
        self._lock = threading.Lock()
        self._dead = False
        self._reader = threading.Thread(target=self._read, name="citeview-check-reader",
                                        daemon=True)
        self._reader.start()

    # -- the requests ------------------------------------------------------------------
    def open(self, path: Path | str, *, cancel: CancelCallback | None = None) -> Citations:
        """Read and validate a citations file; CheckerError with the problems if it is bad."""
        return self.call(p.Open(p.request_path(path)), cancel=cancel)

    def inspect(self, path: Path | str, password: str | None = None, *,
                cancel: CancelCallback | None = None) -> Inspection:
        """Open a PDF: usable or why not, and its pages' sizes."""
        return self.call(p.Inspect(str(path), password), cancel=cancel)

    def check(self, path: Path | str, *, moved: Mapping[str, Path | str] | None = None,
              passwords: Mapping[str, str] | None = None,
              progress: ProgressCallback | None = None,
              cancel: CancelCallback | None = None) -> Report:
        """Check the citations file at ``path`` (as last opened), documents ``moved``."""
        request = p.Check(p.request_path(path),
                          tuple(sorted((k, str(v)) for k, v in (moved or {}).items())),
                          tuple(sorted((passwords or {}).items())))
        return self.call(request, progress=progress, cancel=cancel)

    def scanned_pages(self, path: Path | str, pages: Sequence[int], *,
                      password: str | None = None,
                      cancel: CancelCallback | None = None) -> tuple[int, ...]:
        """Which of these 0-based pages are scans with no text and no stored OCR."""
        return self.call(p.ScannedPages(str(path), tuple(pages), password), cancel=cancel)

    def ocr_page(self, path: Path | str, page: int, *, password: str | None = None,
                 cancel: CancelCallback | None = None) -> int:
        """Recognise 0-based ``page`` now and store its words (for the next check);
        returns how many words were read."""
        return self.call(p.OcrPage(str(path), page, password), cancel=cancel)

    def export(self, path: Path | str, *, pdf: Path | None = None, html: Path | None = None,
               csv: Path | None = None, annotations: Path | None = None,
               review: Path | None = None, moved: Mapping[str, Path | str] | None = None,
               passwords: Mapping[str, str] | None = None,
               progress: ProgressCallback | None = None,
               cancel: CancelCallback | None = None) -> p.Exported:
        """Check ``path`` (as last opened) again, apply its review (``review``, else the
        one beside it) and write the outputs named; CheckerError saying why not."""
        def named(target: Path | None) -> str | None:
            return None if target is None else str(target)

        request = p.Export(p.request_path(path), pdf=named(pdf), html=named(html),
                           csv=named(csv), annotations=named(annotations),
                           review=named(review),
                           moved=tuple(sorted((k, str(v)) for k, v in (moved or {}).items())),
                           passwords=tuple(sorted((passwords or {}).items())))
        return self.call(request, progress=progress, cancel=cancel)

    def print_copy(self, out: Path, pages: Sequence[tuple[str, int]],
                   documents: Mapping[str, Path | str], *, path: Path | str | None = None,
                   moved: Mapping[str, Path | str] | None = None,
                   passwords: Mapping[str, str] | None = None,
                   progress: ProgressCallback | None = None,
                   cancel: CancelCallback | None = None) -> int:
        """Write the PDF to print (see :class:`~.protocol.PrintCopy`); the page count."""
        request = p.PrintCopy(
            str(out), tuple((d, int(n)) for d, n in pages),
            tuple(sorted((k, str(v)) for k, v in documents.items())),
            path=None if path is None else p.request_path(path),
            moved=tuple(sorted((k, str(v)) for k, v in (moved or {}).items())),
            passwords=tuple(sorted((passwords or {}).items())))
        return self.call(request, progress=progress, cancel=cancel)

    def import_answer(self, response: Path | str, *, documents: Sequence[Path | str] = (),
                      request: Path | str | None = None, by_title: bool = False
                      ) -> p.Imported:
        """Import an answer (as ``citeview import`` does) and say what was written;
        CheckerError naming the file and JSON path of each problem. ``by_title``: the
        documents' order is unknown, match them to the answer's document titles."""
        return self.call(p.Import(str(response), tuple(str(d) for d in documents),
                                  None if request is None else str(request), by_title))

    def words(self, path: Path | str, page: int, *, password: str | None = None,
              cancel: CancelCallback | None = None) -> PageWordBoxes:
        """The words of 0-based ``page`` with their boxes, in reading order."""
        return self.call(p.Words(str(path), page, password), cancel=cancel)

    def find(self, path: Path | str, query: str, *, start: int = 0,
             password: str | None = None, found: Streamed | None = None,
             progress: ProgressCallback | None = None,
             cancel: CancelCallback | None = None) -> int:
        """Find ``query`` in the PDF from 0-based page ``start`` on (wrapping round);
        ``found(hits)`` hears each batch of :class:`~viewer.state.find.FindHit` as it is
        found (on the reader thread). Returns how many pages were read."""
        return self.call(p.Find(str(path), query, start, password), progress=progress,
                         cancel=cancel, streamed=found)

    def outline(self, path: Path | str, *, password: str | None = None,
                cancel: CancelCallback | None = None) -> tuple[p.OutlineEntry, ...]:
        """The PDF's bookmarks (level, title, 0-based page), or () when it has none."""
        return self.call(p.Outline(str(path), password), cancel=cancel)

    def place_on(self, path: Path | str, quote: str, pages: Sequence[int], *,
                 password: str | None = None,
                 cancel: CancelCallback | None = None) -> dict[int, tuple[Rect, ...]]:
        """Place ``quote`` on these 0-based pages: page → rectangles where it is placed."""
        return self.call(p.PlaceOn(str(path), quote, tuple(pages), password), cancel=cancel)

    def reconsider(self, claim: str, texts: Sequence[str], pages: Sequence[int] = (), *,
                   cancel: CancelCallback | None = None) -> Consistency:
        """``claim``'s consistency against the words its evidence stands on (``texts``,
        on these 1-based ``pages``)."""
        return self.call(p.Reconsider(claim, tuple(texts), tuple(pages)), cancel=cancel)

    def prepare(self, path: Path | str) -> None:
        """Have the process open, inspect and check ``path`` ahead of the requests for it."""
        self._send(p.Prepare(p.request_path(path)))

    # -- the process -------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._process.pid

    def is_alive(self) -> bool:
        return not self._dead and bool(self._process.is_alive())

    def ask_to_leave(self) -> None:
        """Tell the process to leave now, without waiting for it (a window about to
        close, with nothing left to ask): it exits while the window finishes, and
        :meth:`stop` then only waits for what is left."""
        try:
            self._send(None)
        except p.CheckerError:
            pass  # gone already

    def stop(self) -> None:
        """Ask the process to leave, and wait for it (a few seconds at most). A process
        still answering a call (a page being recognised) would not read the request
        until it is done: it is ended at once, with what it started."""
        with self._lock:
            busy = bool(self._waiting)
        with self._send_lock:
            children.stop(self._process, self._conn, group=True,
                          wait=BUSY_STOP_WAIT_S if busy else children.STOP_TIMEOUT_S)
        self._conn.close()
        self._reader.join(children.STOP_TIMEOUT_S)

    def call(self, request: p.Request[T], *, progress: ProgressCallback | None = None,
             cancel: CancelCallback | None = None, streamed: Streamed | None = None) -> T:
        """Send ``request`` and wait for its reply; CheckerError if it failed.
        ``streamed`` hears the results a request sends ahead of its reply (a find's)."""
        rid = next(self._ids)
        answers: queue.SimpleQueue[p.Done | p.Failed] = queue.SimpleQueue()
        with self._lock:
            if self._dead:
                raise p.CheckerError("the check process has stopped")
            self._waiting[rid] = _Waiting(answers, progress, streamed)
        try:
            self._send(p.Call(rid, request))
            asked = False
            while True:
                try:
                    reply = answers.get(timeout=CANCEL_POLL_S if cancel else None)
                except queue.Empty:
                    if not asked and cancel is not None and cancel():
                        self._send(p.Cancel(rid))
                        asked = True
                    continue
                if isinstance(reply, p.Done):
                    return reply.value  # type: ignore[return-value]  # typed by the request
                raise p.CheckerError(reply.message)
        finally:
            with self._lock:
                self._waiting.pop(rid, None)

    def _send(self, msg: p.ToServer) -> None:
        try:
            with self._send_lock:
                self._conn.send(msg)
        except (OSError, ValueError) as exc:
            self._dead = True
            raise p.CheckerError("the check process has stopped") from exc

    def _read(self) -> None:
        while True:
            try:
                msg: p.FromServer = self._conn.recv()
            except (EOFError, OSError, ValueError):
                break
            with self._lock:
                waiting = self._waiting.get(msg.rid)
            if waiting is None:
                continue  # the caller gave up (cancelled)
            if isinstance(msg, p.Progressed):
                if waiting.progress is not None:
                    waiting.progress(msg.done, msg.total)
            elif isinstance(msg, p.Found):
                if waiting.streamed is not None:
                    waiting.streamed(msg.items)
            else:
                waiting.answers.put(msg)
        with self._lock:
            self._dead = True
            for waiting in self._waiting.values():
                waiting.answers.put(p.Failed(-1, DIED))


class _Waiting(NamedTuple):
    """A call waiting for its reply: where the reply goes, and who hears what comes first."""

    answers: queue.SimpleQueue[Any]
    progress: ProgressCallback | None
    streamed: Streamed | None


_prestarted: CheckClient | None = None


def prestart(prepare: Path | None = None, render: Any = None) -> None:
    """Start the check process now (``citeview`` does, before importing Qt), have it
    prepare the citations file the window is about to open, if any, and fork the render
    process from the ``render`` handoff."""
    global _prestarted
    if _prestarted is None:
        _prestarted = CheckClient(render)
    if prepare is not None:
        _prestarted.prepare(prepare)


def take() -> CheckClient:
    """The process started by :func:`prestart`, else a new one; the caller owns it."""
    global _prestarted
    client, _prestarted = _prestarted, None
    if client is not None and client.is_alive():
        return client
    return CheckClient()
