"""The windows of one citeview process, and the files the desktop asks it to open.

A file arrives three ways: handed over by a later launch (:mod:`viewer.launcher.instance`), as a
``QFileOpenEvent`` (macOS delivers every document opened from the Finder so, also the one
a double-click launched citeview for), or as a further FILE on the command line. Each
opens in a window of its own, unless a window already shows it: that one is raised. An
empty window (citeview started without a file) is used first. All windows share one
:class:`~viewer.window.settings.Preferences`; each has its own file, check and render processes.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, QSocketNotifier, QTimer
from PySide6.QtGui import QColor, QFileOpenEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

from ..launcher.handover import max_windows
from ..launcher.instance import (
    MAX_WINDOW_PX,
    LineReader,
    Listener,
    ProtocolError,
    Request,
    decode,
    encode,
)
from ..state.files import resolved
from .screen_fit import place_after
from .shell import MainWindow

log = logging.getLogger(__name__)

# A connection that has not sent its request line after this long is dropped (a launch
# sends it at once after the greeting).
CONNECTION_TIMEOUT_S = 10.0

FileHandler = Callable[[Path], object]


class Application(QApplication):
    """citeview's QApplication: a ``QFileOpenEvent`` goes to the handler given to
    :meth:`set_file_handler` (kept until there is one)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self._file_handler: FileHandler | None = None
        self._pending: list[Path] = []

    def set_file_handler(self, handler: FileHandler) -> None:
        self._file_handler = handler
        pending, self._pending = self._pending, []
        for path in pending:
            handler(path)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen:
            assert isinstance(event, QFileOpenEvent)
            path = Path(event.file())
            if self._file_handler is None:
                self._pending.append(path)
            else:
                self._file_handler(path)
            return True
        return super().event(event)


def shown_file(window: MainWindow) -> Path | None:
    """The citations file or bare PDF ``window`` has open (resolved), if any."""
    session = window.session
    if session.citations_path is not None:
        return session.citations_path
    if session.is_plain_pdf and "pdf" in session.documents:
        return session.documents["pdf"].path
    return None


def bring_to_front(window: MainWindow) -> None:
    """Show ``window`` un-minimised, on top, with the keyboard focus (as far as the window
    manager allows a running program to take it)."""
    if window.isMinimized():
        window.showNormal()
    window.show()
    window.raise_()
    window.activateWindow()


class WindowSet(QObject):
    """The open windows of this process; opens the files handed to it."""

    def __init__(self, app: QApplication, first: MainWindow, listener: Listener | None = None,
                 *, highlight: QColor | None = None) -> None:
        super().__init__(app)
        self._windows: list[MainWindow] = []
        self._closed: list[MainWindow] = []  # closed, let go of once their close is over
        self._asked: dict[int, Path] = {}  # id(window) → what it was asked to open
        self._highlight = highlight
        self._track(first)
        if isinstance(app, Application):
            app.set_file_handler(self.open)
        self.server = _Server(listener, self.handle, parent=self) if listener else None
        app.aboutToQuit.connect(self.close)

    # -- the windows --------------------------------------------------------------------
    def windows(self) -> list[MainWindow]:
        """The windows still open, oldest first."""
        return list(self._windows)

    def window_for(self, path: Path) -> MainWindow | None:
        """The open window that shows ``path``, or was asked to open it and shows nothing else."""
        target = resolved(path)
        for window in self._windows:
            shown = shown_file(window)
            if shown is not None and resolved(shown) == target:
                return window
            if shown is None and self._asked.get(id(window)) == target:
                return window
        return None

    def open(self, path: Path, options: Mapping[str, Any] | None = None) -> MainWindow:
        """Open ``path`` in a window of its own (an empty one if there is one), or raise the
        window that has it; ``options`` are the viewer's (claim, page, zoom, size, highlight).
        The window is brought to the front."""
        options = options or {}
        path = Path(os.path.abspath(path))
        window = self.window_for(path)
        if window is None:
            window = self._empty_window() or self.new_window(options)
            self._asked[id(window)] = resolved(path)
            window.open_path(path)
        if options.get("claim") is not None:
            window.select_claim_when_ready(str(options["claim"]))
        if options.get("page") is not None:
            window.go_to_page_when_ready(int(options["page"]) - 1)
        bring_to_front(window)
        return window

    def open_all(self, paths: Iterable[Path], options: Mapping[str, Any] | None = None) -> None:
        for path in paths:
            self.open(path, options)

    def new_window(self, options: Mapping[str, Any] | None = None) -> MainWindow:
        """A new, empty window like the newest one, placed below and right of it."""
        options = options or {}
        reference = self._reference()
        color = QColor(options["highlight"]) if options.get("highlight") else self._highlight
        window = MainWindow(reference.prefs, interactive=reference.interactive, highlight=color)
        window.restore_layout()  # the remembered splitter; the place is set below
        size = options.get("size")
        window.apply_initial_zoom(options.get("zoom"))
        # Like the newest window (or as asked), below and right of it, wholly on screen.
        place_after(window, reference,
                    QSize(*on_screen(window, size)) if size else reference.size())
        self._track(window)
        window.show()
        return window

    def _empty_window(self) -> MainWindow | None:
        """A window with nothing open and nothing opening (a window still reading the
        file it was started with is busy)."""
        for window in self._windows:
            if shown_file(window) is None and id(window) not in self._asked \
                    and not window.is_busy():
                return window
        return None

    def _reference(self) -> MainWindow:
        active = QApplication.activeWindow()
        return active if isinstance(active, MainWindow) and active in self._windows \
            else self._windows[-1]

    def _track(self, window: MainWindow) -> None:
        self._windows.append(window)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A closed window has stopped its check and render processes: it is not reused.
        # It is let go of (and so deleted) on the next turn of the event loop, not while
        # its close is being handled; callbacks still queued for it keep it alive till
        # they have run (a widget deleted under them would fail them).
        if event.type() == QEvent.Type.Close and watched in self._windows:
            window = watched
            assert isinstance(window, MainWindow)
            self._windows.remove(window)
            self._asked.pop(id(window), None)
            self._closed.append(window)
            QTimer.singleShot(0, lambda: self._closed.remove(window))
        return False

    # -- requests from later launches ---------------------------------------------------
    def handle(self, request: Request) -> dict[str, Any]:
        """Carry out a launch's request; the reply for it. At most :func:`max_windows`
        files are opened; the reply names the rest as refused."""
        limit = max_windows()
        if not request.status:
            self.open_all((Path(f) for f in request.files[:limit]), request.options)
            if not request.files:  # `citeview` alone: show the one running
                if self._windows:
                    bring_to_front(self._reference())
                else:
                    bring_to_front(self.new_window(request.options))
        reply: dict[str, Any] = {"ok": True, "pid": os.getpid(), "windows": self.status()}
        if len(request.files) > limit:
            reply["refused"] = list(request.files[limit:])
        return reply

    def status(self) -> list[dict[str, Any]]:
        """What each open window shows, for the launch that asked."""
        active = QApplication.activeWindow()
        out = []
        for window in self._windows:
            shown = shown_file(window)
            file = shown if shown is not None else self._asked.get(id(window))
            citations = window.session.citations
            g = window.frameGeometry()
            out.append({
                "file": str(file) if file is not None else None,
                "opened": shown is not None,
                "title": window.windowTitle(),
                "claims": len(citations.claims) if citations is not None else None,
                "checked": window.session.report is not None,
                "active": window is active,
                "geometry": [g.x(), g.y(), g.width(), g.height()],
            })
        return out

    def close(self) -> None:
        """Stop listening (the app is quitting): later launches start a citeview of their own."""
        if self.server is not None:
            self.server.close()


def on_screen(window: QWidget, size: Sequence[int]) -> tuple[int, int]:
    """``size`` cut to what the window's screen can show (and to Qt's 16384 px without a
    screen: offscreen), so a request can never make a window of gigabytes."""
    cap_w = cap_h = MAX_WINDOW_PX
    if QGuiApplication.platformName() not in ("offscreen", "minimal"):
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            area = screen.availableGeometry()
            cap_w, cap_h = min(cap_w, area.width()), min(cap_h, area.height())
    return max(1, min(int(size[0]), cap_w)), max(1, min(int(size[1]), cap_h))


# -- the socket, served in the GUI thread ----------------------------------------------
class _Server(QObject):
    """Accepts launches' connections on the listener as they come (no thread: the socket
    is watched by the event loop) and hands each request to ``handle``."""

    def __init__(self, listener: Listener, handle: Callable[[Request], dict[str, Any]],
                 parent: QObject) -> None:
        super().__init__(parent)
        self.listener = listener
        self._handle = handle
        self._connections: set[_Connection] = set()
        self._notifier = QSocketNotifier(listener.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._accept)
        # Launches may have connected while this process was still starting.
        QTimer.singleShot(0, self._accept)

    def _accept(self, *_args: object) -> None:
        while self._notifier.isEnabled() and (conn := self.listener.accept()) is not None:
            connection = _Connection(conn, self)
            self._connections.add(connection)
            connection.greet(self.listener.greeting())  # may close it at once: it is known

    def answer(self, connection: _Connection, line: bytes) -> bytes:
        try:
            request = Request.from_json(decode(line))
        except ProtocolError as exc:
            return encode({"ok": False, "error": str(exc)})
        try:
            return encode(self._handle(request))
        except Exception as exc:  # a bug: logged in full; the launch is told in a line
            log.exception("handling a handed-over request failed")
            return encode({"ok": False, "error": f"{type(exc).__name__}: {exc}"})

    def forget(self, connection: _Connection) -> None:
        self._connections.discard(connection)

    def close(self) -> None:
        self._notifier.setEnabled(False)
        for connection in list(self._connections):
            connection.close()
        self.listener.close()


class _Connection(QObject):
    """One launch: greet it, read its request line, answer, close."""

    def __init__(self, sock: socket.socket, server: _Server) -> None:
        super().__init__(server)
        self.sock = sock
        self.server = server
        self._closed = False
        self._reader = LineReader()
        self._notifier = QSocketNotifier(sock.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._read)
        self._timer = QTimer(self, singleShot=True, interval=int(CONNECTION_TIMEOUT_S * 1000))
        self._timer.timeout.connect(self.close)
        self._timer.start()

    def greet(self, greeting: bytes) -> None:
        """Send the greeting; a launch that has already gone is closed, silently."""
        if not self._send(greeting):
            self.close()

    def _send(self, data: bytes) -> bool:
        # A line of a few hundred bytes fits the socket's buffer whole.
        try:
            return self.sock.send(data) == len(data)
        except OSError:
            return False

    def _read(self, *_args: object) -> None:
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        try:
            line = self._reader.feed(data)
        except ProtocolError as exc:
            self._send(encode({"ok": False, "error": str(exc)}))
            self.close()
            return
        if line is not None:
            self._notifier.setEnabled(False)
            self._send(self.server.answer(self, line))
            self.close()

    def close(self) -> None:
        if self._closed:  # closed already (early, by its launch, or at quitting): once
            return
        self._closed = True
        self._timer.stop()
        self._notifier.setEnabled(False)
        self.sock.close()
        self.server.forget(self)
        self.deleteLater()
