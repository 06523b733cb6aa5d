"""One running citeview per user and display: a later launch hands its files over and leaves.

No Qt here: ``citeview FILE`` decides before it imports Qt or starts its check and render
processes whether another citeview already runs, so a launch that only hands a file over
costs one connection, not a second application.

The running citeview listens on a Unix socket, one per user and display, in
``$XDG_RUNTIME_DIR`` (else a private folder under the temporary folder). A launch takes
an advisory lock beside the socket, so two launches at once cannot both decide to be the
first, and then either

* connects, and hands its request over: the running citeview greets each connection with
  one line, is sent one request line back (what to open, with absolute paths, so a path
  relative to the launching shell's folder means what it meant there), and confirms it;
* or finds no one listening (no socket, or one left by a citeview that crashed: connecting
  is refused), and binds the socket itself: it is the running citeview from now on.

A launch that connects but is not greeted within :data:`GREETING_TIMEOUT_S` (the running
citeview hangs) sends nothing, so nothing is opened twice, and runs on its own without a
socket. Every message is one line of JSON::

    server  {"citeview": 1, "pid": 1234}
    client  {"open": ["/abs/a.cite"], "options": {"claim": "c3", "page": 2}}
        or  {"status": true}
    server  {"ok": true, "pid": 1234, "windows": [{"file": "/abs/a.cite", ...}]}
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import socket
import stat
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

log = logging.getLogger(__name__)

PROTOCOL = 1
# A running citeview greets within milliseconds when idle; this long covers one that is
# still starting (importing Qt, building its first window) on a busy machine.
GREETING_TIMEOUT_S = 10.0
# The confirmation follows the request at once (opening itself runs in the background).
REPLY_TIMEOUT_S = 5.0
# Two launches settle who listens within milliseconds; waiting longer than this for the
# lock means its holder is stopped, and this launch goes its own way.
LOCK_TIMEOUT_S = 3.0
LOCK_POLL_S = 0.01
# A request line is a few hundred bytes; anything longer is not a citeview talking.
MAX_MESSAGE_BYTES = 1 << 20
# sockaddr_un holds 108 bytes on Linux, 104 on macOS.
MAX_SOCKET_PATH = 100
# Connecting, finding the socket gone or refused and binding it can race a citeview that is
# closing; each try takes milliseconds.
CLAIM_ATTEMPTS = 3


class ProtocolError(Exception):
    """A message on the socket was not what the protocol says."""


class Request(NamedTuple):
    """What a launch asks the running citeview: open ``files`` (absolute paths) with the
    viewer ``options`` (claim, page, zoom, size, highlight), or report its ``status``."""

    files: tuple[str, ...] = ()
    options: Mapping[str, Any] = MappingProxyType({})
    status: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.status:
            return {"status": True}
        return {"open": list(self.files), "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Any) -> Request:
        if not isinstance(data, dict):
            raise ProtocolError("a request is a JSON object")
        if data.get("status") is True:
            return cls(status=True)
        files, options = data.get("open"), data.get("options", {})
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            raise ProtocolError("'open' must be a list of paths")
        if not all(os.path.isabs(f) for f in files):
            raise ProtocolError("paths handed over must be absolute")
        if not isinstance(options, dict):
            raise ProtocolError("'options' must be an object")
        return cls(files=tuple(files), options=_checked_options(options))


# The largest window a request may ask for, in logical pixels: Qt's own limit for an
# offscreen window's backing store (16384), and more than any screen (a window is also
# cut to its screen). A running viewer once made a 40000x40000 window (6.4 GB).
MAX_WINDOW_PX = 16384
MIN_WINDOW_PX = 100


def _checked_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The viewer options of a request, each of the type and range the viewer takes."""
    kinds: dict[str, Any] = {"claim": str, "page": int, "zoom": (str, int, float),
                             "highlight": str, "size": list}
    out = {}
    for key, value in options.items():
        kind = kinds.get(key)
        if kind is None or not isinstance(value, kind) or isinstance(value, bool):
            raise ProtocolError(f"option {key!r} is not one the viewer takes")
        out[key] = value
    if "page" in out and out["page"] < 1:
        raise ProtocolError("option 'page' must be 1 or more")
    size = out.get("size")
    if size is not None and not (len(size) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool)
            and MIN_WINDOW_PX <= v <= MAX_WINDOW_PX for v in size)):
        raise ProtocolError(f"option 'size' must be [width, height], each "
                            f"{MIN_WINDOW_PX} to {MAX_WINDOW_PX}")
    return out


def encode(message: Mapping[str, Any]) -> bytes:
    """One protocol line."""
    return json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"


def decode(line: bytes) -> Any:
    """The JSON value of one protocol line (a :class:`ProtocolError` if it is none)."""
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"not a JSON line: {exc}") from None
    except RecursionError:  # '[[[[…' a million deep: not a citeview talking
        raise ProtocolError("not a JSON line: nested too deeply") from None


class LineReader:
    """Collects bytes until a whole line has arrived (the protocol's unit)."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> bytes | None:
        """Add ``data``; the first complete line (without its newline) once there is one."""
        self._buffer += data
        line, newline, _rest = self._buffer.partition(b"\n")
        if newline:
            return line
        if len(self._buffer) > MAX_MESSAGE_BYTES:
            raise ProtocolError("message too long")
        return None


# -- where the socket is ---------------------------------------------------------------
def display_key(env: Mapping[str, str]) -> str:
    """Which display a launch would show its window on, as a file-name part.

    ``:0`` and ``:0.0`` are one display (the screen number is dropped); a Wayland socket is
    named as it is; Qt's windowless platforms (``offscreen``, ``minimal``: scripts and
    tests) count as a display of their own, so they never hand over to a visible citeview.
    """
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if platform in ("offscreen", "minimal"):
        key = platform
    elif env.get("WAYLAND_DISPLAY"):
        key = "wayland-" + env["WAYLAND_DISPLAY"].rsplit("/", 1)[-1]
    elif env.get("DISPLAY"):
        host, _, number = env["DISPLAY"].rpartition(":")
        key = f"x{host}:{number.split('.')[0]}"
    else:
        key = "console"
    return re.sub(r"[^A-Za-z0-9._-]", "_", key)


def _private_dir(path: Path) -> bool:
    """Is ``path`` a real folder of this user that no one else may enter?"""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
            and stat.S_IMODE(st.st_mode) & 0o077 == 0)


def runtime_dir(env: Mapping[str, str]) -> Path | None:
    """This user's private folder for the socket: ``$XDG_RUNTIME_DIR`` when it is one (the
    session manager makes it, owned by the user, mode 0700), else
    ``<temporary folder>/citeview-<uid>``, made 0700 and checked to be ours. None if
    neither can be had: no single instance then."""
    given = env.get("XDG_RUNTIME_DIR")
    if given and _private_dir(Path(given)):
        return Path(given)
    import tempfile  # here: it imports random and hashlib, which a start needs no more

    fallback = Path(tempfile.gettempdir()) / f"citeview-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        fallback.mkdir(mode=0o700)
    if _private_dir(fallback):
        return fallback
    log.warning("%s is not a private folder of this user; not looking for a running "
                "citeview", fallback)
    return None


def socket_path(env: Mapping[str, str] | None = None) -> Path | None:
    """The socket of this user's citeview on this display (None: none can be used)."""
    env = os.environ if env is None else env
    if sys.platform == "win32" or not hasattr(socket, "AF_UNIX"):
        return None  # Windows: every launch runs on its own
    folder = runtime_dir(env)
    if folder is None:
        return None
    path = folder / f"citeview-{display_key(env)}.socket"
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        log.warning("socket path %s is too long for a Unix socket; not looking for a "
                    "running citeview", path)
        return None
    return path


# -- the running citeview's side -------------------------------------------------------
class Listener:
    """The bound, listening socket of the running citeview.

    Child processes forked after it was made close their copy at once: a check process
    still holding it after the GUI died would keep the socket accepting connections no one
    answers, where a closed one is refused and so seen to be stale.
    """

    def __init__(self, sock: socket.socket, path: Path) -> None:
        self.sock = sock
        self.path = path
        self.pid = os.getpid()
        self._inode = os.stat(path).st_ino
        sock.setblocking(False)
        os.register_at_fork(after_in_child=self._close_in_child)

    def fileno(self) -> int:
        return self.sock.fileno()

    def accept(self) -> socket.socket | None:
        """A waiting connection (non-blocking), or None."""
        try:
            conn, _ = self.sock.accept()
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as exc:
            log.warning("accepting a connection failed: %s", exc)
            return None
        conn.setblocking(False)
        return conn

    def greeting(self) -> bytes:
        return encode({"citeview": PROTOCOL, "pid": self.pid})

    def close(self) -> None:
        """Stop listening and remove the socket, unless another citeview has replaced it."""
        if self.sock.fileno() < 0:
            return
        self.sock.close()
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)

    def _close_in_child(self) -> None:
        if os.getpid() != self.pid:  # a fork: close the copy, leave the file alone
            with contextlib.suppress(OSError):
                self.sock.close()


# -- a launch's side -------------------------------------------------------------------
class Outcome(NamedTuple):
    """What :func:`claim` settled: this process listens (``listener``), or it handed its
    request over (``reply`` from the running citeview), or neither (it runs on its own)."""

    listener: Listener | None = None
    reply: Mapping[str, Any] | None = None

    @property
    def handed_over(self) -> bool:
        return self.reply is not None

    @property
    def exit_status(self) -> int:
        """A handed-over launch's exit status: 0, or 2 if the running citeview refused."""
        return 0 if self.reply is not None and self.reply.get("ok") else 2


class _NoAnswer(Exception):
    """Connected, but the running citeview did not answer in time."""


class _Closed(_NoAnswer):
    """Connected, but the running citeview closed the connection (it is quitting)."""


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[bool]:
    """Hold the advisory lock beside the socket (True), or go on without it after
    :data:`LOCK_TIMEOUT_S` (False). The lock file stays: removing it would let two
    launches lock two different files."""
    import fcntl  # here: Windows has none, and never gets this far (no AF_UNIX)

    fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    log.warning("the lock %s is held too long; going on without it",
                                path.with_suffix(".lock"))
                    yield False
                    return
                time.sleep(LOCK_POLL_S)
        yield True
    finally:
        os.close(fd)  # releases the lock


def _read_line(sock: socket.socket, timeout: float) -> Any:
    reader = LineReader()
    deadline = time.monotonic() + timeout
    while True:
        sock.settimeout(max(0.0, deadline - time.monotonic()))
        try:
            data = sock.recv(65536)
        except TimeoutError:
            raise _NoAnswer("no answer in time") from None
        except ConnectionResetError:
            data = b""
        if not data:
            raise _Closed("the connection was closed")
        line = reader.feed(data)
        if line is not None:
            return decode(line)


def _bind(path: Path) -> Listener:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        # Made private before it exists under its name: no moment when others may connect.
        old = os.umask(0o177)
        try:
            sock.bind(os.fspath(path))
        finally:
            os.umask(old)
        sock.listen(16)
    except BaseException:
        sock.close()
        raise
    return Listener(sock, path)


def _ask(sock: socket.socket, request: Request) -> dict[str, Any]:
    """Hand ``request`` over on a connected socket; the running citeview's reply."""
    hello = _read_line(sock, GREETING_TIMEOUT_S)
    if not isinstance(hello, dict) or hello.get("citeview") != PROTOCOL:
        raise ProtocolError(f"unexpected greeting {hello!r}")
    try:
        sock.sendall(encode(request.to_json()))
    except (BrokenPipeError, ConnectionResetError):
        raise _Closed("the connection was closed") from None
    try:
        reply = _read_line(sock, REPLY_TIMEOUT_S)
    except _NoAnswer:
        # The request is delivered; the running citeview has it even unconfirmed.
        return {"ok": True, "pid": hello.get("pid"), "unconfirmed": True}
    if not isinstance(reply, dict):
        raise ProtocolError(f"unexpected reply {reply!r}")
    return reply


def claim(request: Request, path: Path | None = None) -> Outcome:
    """Hand ``request`` to the citeview running for this user and display, or become it.

    ``path`` defaults to :func:`socket_path`. Never raises for a socket problem: what goes
    wrong is logged, and the launch then runs on its own.
    """
    path = socket_path() if path is None else path
    if path is None:
        return Outcome()
    try:
        for _ in range(CLAIM_ATTEMPTS):
            outcome = _try_claim(request, path)
            if outcome is not None:
                return outcome
    except (OSError, ProtocolError) as exc:
        log.warning("single-instance socket %s: %s; running on its own", path, exc)
    return Outcome()


def _try_claim(request: Request, path: Path) -> Outcome | None:
    """One attempt; None when the running citeview closed on us (it is quitting): try again."""
    with _locked(path) as locked:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(os.fspath(path))
        except OSError as exc:
            sock.close()
            if exc.errno not in (errno.ECONNREFUSED, errno.ENOENT):
                raise
            if not locked:
                return Outcome()  # cannot tell safely who should listen: no one does
            if exc.errno == errno.ECONNREFUSED:
                log.info("replacing the stale socket %s", path)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
            return Outcome(listener=_bind(path))
    # Connected: the connection waits in the running citeview's queue, so the lock can go
    # before the (possibly slower) exchange.
    with sock:
        try:
            return Outcome(reply=_ask(sock, request))
        except _Closed:
            return None
        except _NoAnswer as exc:
            log.warning("the citeview at %s does not answer (%s); running on its own",
                        path, exc)
            return Outcome()
