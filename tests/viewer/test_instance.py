"""One running citeview: the socket's place, stale sockets, two launches at once, and real
``citeview`` processes handing files over (offscreen).

Every test has its own runtime folder (``XDG_RUNTIME_DIR``), so the tests of other
checkouts running on the same machine never meet these sockets.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from viewer.launcher import instance
from viewer.launcher.instance import (
    LineReader,
    Outcome,
    ProtocolError,
    Request,
    claim,
    display_key,
    runtime_dir,
    socket_path,
)

from .helpers import paragraph_lines, text_pdf, write_citations

REPO = Path(__file__).resolve().parents[2]
# How long a handing-over launch may take, start to exit (the interpreter's own start
# included): the promise a double-click on a second file rests on.
HAND_OVER_LIMIT_S = 2.0


@pytest.fixture
def runtime() -> Iterator[Path]:
    """A private runtime folder with a short path (a Unix socket's path is limited to about
    100 bytes, which pytest's own temporary folders can exceed)."""
    folder = Path(tempfile.mkdtemp(prefix="cv-run-", dir="/tmp"))
    os.chmod(folder, 0o700)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def env_for(runtime: Path, tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(runtime),
                XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
                XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(REPO))


# -- where the socket is ---------------------------------------------------------------
@pytest.mark.parametrize(("env", "key"), [
    ({"DISPLAY": ":0"}, "x_0"),
    ({"DISPLAY": ":0.1"}, "x_0"),
    ({"DISPLAY": "localhost:10.0"}, "xlocalhost_10"),
    ({"WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"}, "wayland-wayland-1"),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "offscreen"),
    ({"DISPLAY": ":1", "QT_QPA_PLATFORM": "xcb"}, "x_1"),
    ({}, "console"),
])
def test_display_key_names_the_display(env: dict[str, str], key: str) -> None:
    assert display_key(env) == key


def test_socket_is_per_display_in_the_runtime_folder(runtime: Path) -> None:
    a = socket_path({"XDG_RUNTIME_DIR": str(runtime), "DISPLAY": ":0"})
    b = socket_path({"XDG_RUNTIME_DIR": str(runtime), "DISPLAY": ":1"})
    assert a is not None and b is not None and a != b
    assert a.parent == runtime == b.parent


def test_a_runtime_folder_others_may_enter_is_not_used(runtime: Path) -> None:
    os.chmod(runtime, 0o755)
    folder = runtime_dir({"XDG_RUNTIME_DIR": str(runtime)})
    assert folder is not None and folder != runtime
    assert folder.name == f"citeview-{os.getuid()}"
    assert folder.stat().st_mode & 0o777 == 0o700


def test_without_a_runtime_folder_a_private_one_is_made(runtime: Path, monkeypatch:
                                                        pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(runtime))
    folder = runtime_dir({})
    assert folder == runtime / f"citeview-{os.getuid()}"
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_socket_path_too_long_for_unix_sockets_is_not_used(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120)
    deep.mkdir(mode=0o700)
    assert socket_path({"XDG_RUNTIME_DIR": str(deep)}) is None


# -- the messages ----------------------------------------------------------------------
def test_requests_round_trip_and_paths_must_be_absolute() -> None:
    request = Request(files=("/a/b.cite",), options={"claim": "c3", "page": 2})
    line = instance.encode(request.to_json())
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert Request.from_json(instance.decode(line.rstrip(b"\n"))) == request
    assert Request.from_json({"status": True}).status
    for bad in ({"open": ["relative.cite"]}, {"open": "x"}, [], {"open": [], "options": 3}):
        with pytest.raises(ProtocolError):
            Request.from_json(bad)


def test_line_reader_waits_for_the_whole_line() -> None:
    reader = LineReader()
    assert reader.feed(b'{"a"') is None
    assert reader.feed(b': 1}\n{"b"') == b'{"a": 1}'
    with pytest.raises(ProtocolError):
        LineReader().feed(b"x" * (instance.MAX_MESSAGE_BYTES + 1))


# -- claiming the socket ---------------------------------------------------------------
def test_first_launch_listens_and_removes_its_socket_when_done(runtime: Path) -> None:
    path = runtime / "citeview-test.socket"
    outcome = claim(Request(), path)
    assert outcome.listener is not None and not outcome.handed_over
    assert path.exists() and path.stat().st_mode & 0o077 == 0
    outcome.listener.close()
    assert not path.exists()


def test_a_stale_socket_is_replaced(runtime: Path) -> None:
    path = runtime / "citeview-test.socket"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))  # bound, never listening, then gone: what a crash leaves
    dead.close()
    assert path.exists()
    outcome = claim(Request(), path)
    assert outcome.listener is not None
    try:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.connect(str(path))  # the new socket is the one listening now
        probe.close()
    finally:
        outcome.listener.close()


def test_a_replaced_socket_is_left_to_its_new_owner(runtime: Path) -> None:
    path = runtime / "citeview-test.socket"
    first = claim(Request(), path).listener
    assert first is not None
    os.unlink(path)
    second = claim(Request(), path).listener  # the file was gone: a new one is made
    assert second is not None
    first.close()
    assert path.exists(), "closing the old listener removed the new one's socket"
    second.close()


def test_forked_children_do_not_keep_the_socket_answering(runtime: Path) -> None:
    path = runtime / "citeview-test.socket"
    listener = claim(Request(), path).listener
    assert listener is not None
    ready_r, ready_w = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child: alive, holding what it inherited
        try:
            os.write(ready_w, b"x")  # the fork's hooks have run by now
            signal.pause()
        finally:
            os._exit(0)
    os.close(ready_w)
    try:
        assert os.read(ready_r, 1) == b"x"
        listener.sock.close()  # the parent dies without cleaning up
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with pytest.raises(ConnectionRefusedError):
            probe.connect(str(path))
        probe.close()
    finally:
        os.close(ready_r)
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)


RACER = """
import json, os, sys
from pathlib import Path
from viewer.launcher.instance import Request, claim
path = Path(sys.argv[1])
sys.stdin.readline()  # everyone starts at once
outcome = claim(Request(files=(f"/{os.getpid()}.cite",)), path)
if outcome.listener is None:
    print(json.dumps({"handed_over": outcome.handed_over}), flush=True)
    sys.exit(0)
print(json.dumps({"listening": True}), flush=True)
from viewer.launcher.instance import LineReader, decode, encode
listener, got = outcome.listener, []
listener.sock.setblocking(True)
while len(got) < int(sys.argv[2]):
    conn, _ = listener.sock.accept()
    conn.sendall(listener.greeting())
    reader, line = LineReader(), None
    while line is None:
        line = reader.feed(conn.recv(4096))
    got.append(decode(line)["open"][0])
    conn.sendall(encode({"ok": True}))
    conn.close()
print(json.dumps({"received": sorted(got)}), flush=True)
listener.close()
"""


def test_launches_at_once_settle_on_one_listener(runtime: Path) -> None:
    path = runtime / "citeview-race.socket"
    n = 5
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(path), str(n - 1)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=env) for _ in range(n)]
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    outputs = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        outputs.append([json.loads(line) for line in out.splitlines()])
    listening = [o for o in outputs if o[0].get("listening")]
    assert len(listening) == 1, outputs
    assert all(o == [{"handed_over": True}] for o in outputs if o is not listening[0])
    others = sorted(f"/{p.pid}.cite" for p, o in zip(procs, outputs, strict=True)
                    if o is not listening[0])
    assert listening[0][1] == {"received": others}


def test_a_running_citeview_that_does_not_answer_is_not_waited_for(
        runtime: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = runtime / "citeview-test.socket"
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(path))
    mute.listen(1)  # accepts into its queue, never greets
    monkeypatch.setattr(instance, "GREETING_TIMEOUT_S", 0.2)
    try:
        outcome = claim(Request(files=("/x.cite",)), path)
    finally:
        mute.close()
    assert outcome == Outcome()  # runs on its own, without a socket


# -- real citeview processes -----------------------------------------------------------
def ask_status(path: Path) -> dict[str, Any]:
    """The running citeview's answer to a status request."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(path))
        lines = sock.makefile("rb")
        assert json.loads(lines.readline())["citeview"] == instance.PROTOCOL
        sock.sendall(instance.encode({"status": True}))
        reply: dict[str, Any] = json.loads(lines.readline())
        return reply


def status_or_none(path: Path) -> dict[str, Any] | None:
    try:
        return ask_status(path)
    except OSError:
        return None


@pytest.fixture
def viewers() -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start viewer processes; every one (and its check and render processes) is killed
    at the end."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str, env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-m", "viewer.app", *args], env=env,
                                cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        kill_tree(proc.pid)
        proc.wait(10)


def kill_tree(pid: int) -> None:
    try:
        parent = psutil.Process(pid)
        family = [*parent.children(recursive=True), parent]
    except psutil.NoSuchProcess:
        return
    for p in family:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(family, timeout=10)


HAND_OVER = """
import json, multiprocessing, sys, time
t0 = time.monotonic()
from viewer.app import main
status = main(sys.argv[1:])
print(json.dumps({"status": status, "seconds": time.monotonic() - t0,
                  "qt_imported": any(m.startswith("PySide6") for m in sys.modules),
                  "children": len(multiprocessing.active_children())}))
"""


def hand_over(env: dict[str, str], cwd: Path, *args: str) -> dict[str, Any]:
    """Run a launch that should hand its files over; what it reports of itself."""
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", HAND_OVER, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    report["elapsed"] = elapsed
    return report


def two_files(folder: Path) -> tuple[Path, Path]:
    text_pdf(folder / "policy.pdf", pages=2)
    lines = paragraph_lines(0, 40)
    claims = [{"id": "c1", "text": "t", "evidence": [
        {"document": "policy", "page": 1, "quote": lines[3]}]}]
    return (write_citations(folder / "a.cite", "policy.pdf", claims),
            write_citations(folder / "b.cite", "policy.pdf", claims))


@dataclass
class Running:
    """A citeview serving ``a`` with its socket, and a second file ``b`` beside it."""

    a: Path
    b: Path
    env: dict[str, str]
    sock: Path
    process: subprocess.Popen[str]


@pytest.fixture
def running(tmp_path: Path, runtime: Path, qtbot: Any,
            viewers: Callable[..., subprocess.Popen[str]]) -> Running:
    a, b = two_files(tmp_path)
    env = env_for(runtime, tmp_path)
    sock = runtime / "citeview-offscreen.socket"
    elsewhere = tmp_path / "elsewhere"  # its own folder, not the files' one
    elsewhere.mkdir()
    process = viewers(str(a), "--size", "400x300", env=env, cwd=elsewhere)
    qtbot.waitUntil(lambda: status_or_none(sock) is not None, timeout=60000)
    return Running(a, b, env, sock, process)


def test_a_second_citeview_hands_its_file_to_the_first(running: Running, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: ask_status(running.sock)["windows"][0]["opened"], timeout=60000)
    # A relative path, from the second launch's own folder.
    report = hand_over(running.env, running.b.parent, running.b.name, "--claim", "c1")
    assert report["status"] == 0
    assert report["elapsed"] < HAND_OVER_LIMIT_S, report
    assert not report["qt_imported"] and report["children"] == 0

    def second_window_checked() -> bool:
        windows = ask_status(running.sock)["windows"]
        return len(windows) == 2 and windows[1]["checked"]

    qtbot.waitUntil(second_window_checked, timeout=60000)
    status = ask_status(running.sock)
    assert status["pid"] == running.process.pid
    one, two = status["windows"]
    assert one["file"] == str(running.a.resolve()) and two["file"] == str(running.b.resolve())
    assert two["title"] == "b.cite — citeview" and two["claims"] == 1 and two["active"]
    assert (two["geometry"][0] - one["geometry"][0],
            two["geometry"][1] - one["geometry"][1]) == (32, 32)

    # The first file again: no third window, the first one comes to the front.
    assert hand_over(running.env, running.a.parent, str(running.a))["status"] == 0
    qtbot.waitUntil(lambda: ask_status(running.sock)["windows"][0]["active"], timeout=10000)
    assert len(ask_status(running.sock)["windows"]) == 2
    assert running.process.poll() is None


def test_new_instance_runs_on_its_own(running: Running, tmp_path: Path, qtbot: Any,
                                      viewers: Callable[..., subprocess.Popen[str]]) -> None:
    alone = viewers(str(running.b), "--new-instance", "--size", "400x300", env=running.env,
                    cwd=tmp_path)
    # It starts a check process of its own: it did not hand its file over.
    qtbot.waitUntil(lambda: len(psutil.Process(alone.pid).children()) >= 1, timeout=60000)
    assert alone.poll() is None
    assert [w["file"] for w in ask_status(running.sock)["windows"]] == [str(running.a.resolve())]


def test_a_crashed_citeviews_socket_is_taken_over(
        running: Running, tmp_path: Path, qtbot: Any,
        viewers: Callable[..., subprocess.Popen[str]]) -> None:
    kill_tree(running.process.pid)  # no chance to clean up: the socket file stays
    running.process.wait(10)
    assert running.sock.exists()

    second = viewers(str(running.b), "--size", "400x300", env=running.env, cwd=tmp_path)
    qtbot.waitUntil(lambda: (s := status_or_none(running.sock)) is not None
                    and s["pid"] == second.pid, timeout=60000)
    assert hand_over(running.env, tmp_path, str(running.a))["status"] == 0
    qtbot.waitUntil(lambda: len(ask_status(running.sock)["windows"]) == 2, timeout=60000)


def test_screenshot_runs_never_hand_over(running: Running, tmp_path: Path) -> None:
    png = tmp_path / "b.png"
    proc = subprocess.run([sys.executable, "-m", "viewer.app", str(running.b), "--screenshot",
                           str(png)], env=running.env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert png.is_file()
    assert len(ask_status(running.sock)["windows"]) == 1


def test_several_files_open_a_window_each(tmp_path: Path, runtime: Path, qtbot: Any,
                                          viewers: Callable[..., subprocess.Popen[str]]
                                          ) -> None:
    # What a desktop runs for a selection of files (Exec=citeview %F).
    a, b = two_files(tmp_path)
    env = env_for(runtime, tmp_path)
    sock = runtime / "citeview-offscreen.socket"
    viewers(str(a), str(b), "--size", "400x300", env=env, cwd=tmp_path)
    qtbot.waitUntil(lambda: (s := status_or_none(sock)) is not None
                    and [w["file"] for w in s["windows"]] == [str(a.resolve()),
                                                             str(b.resolve())],
                    timeout=60000)


def test_a_screenshot_takes_one_file(tmp_path: Path, runtime: Path) -> None:
    a, b = two_files(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "viewer.app", str(a), str(b), "--screenshot",
                           str(tmp_path / "x.png")], env=env_for(runtime, tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--screenshot takes one FILE" in proc.stderr


def raw_exchange(path: Path, line: bytes | None) -> dict[str, Any] | None:
    """Connect; with ``line``, send it after the greeting and return the reply; without,
    close before even reading the greeting (as a launch killed at that moment)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(path))
        if line is None:
            return None
        lines = sock.makefile("rb")
        lines.readline()
        sock.sendall(line)
        reply: dict[str, Any] = json.loads(lines.readline())
        return reply


def test_malformed_and_early_closed_connections_leave_the_viewer_as_it_was(
        running: Running, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: ask_status(running.sock)["windows"][0]["opened"], timeout=60000)
    for _ in range(10):  # each closed before the greeting; the viewer answers after each
        raw_exchange(running.sock, None)
        assert ask_status(running.sock)["ok"]
    bad_lines = [b"[" * 200_000 + b"\n", b"\xff\xfe not utf-8\n", b'"just a string"\n',
                 instance.encode({"open": ["/a.cite"], "options": {"size": [40000, 40000]}}),
                 instance.encode({"open": ["/a.cite"], "options": {"page": "x"}}),
                 instance.encode({"open": ["/a.cite"], "options": {"page": 0}}),
                 instance.encode({"open": ["/a.cite"], "options": {"unknown": 1}})]
    for line in bad_lines:
        reply = raw_exchange(running.sock, line)
        assert reply is not None and reply["ok"] is False and reply["error"], line[:40]
    status = ask_status(running.sock)
    assert [w["file"] for w in status["windows"]] == [str(running.a.resolve())]
    running.process.terminate()  # quits as usual: no connection left half torn down
    _, stderr = running.process.communicate(timeout=60)
    assert running.process.returncode == 128 + signal.SIGTERM, stderr  # closed as usual
    assert "already deleted" not in stderr and "Traceback" not in stderr, stderr


def test_one_handover_opens_at_most_the_configured_windows(
        tmp_path: Path, runtime: Path, qtbot: Any,
        viewers: Callable[..., subprocess.Popen[str]]) -> None:
    a, b = two_files(tmp_path)
    more = [write_citations(tmp_path / f"m{i}.cite", "policy.pdf", []) for i in range(3)]
    env = env_for(runtime, tmp_path) | {"CITEVIEW_MAX_WINDOWS": "2"}
    sock = runtime / "citeview-offscreen.socket"
    first = viewers(str(a), str(b), str(more[0]), "--size", "400x300", env=env, cwd=tmp_path)
    qtbot.waitUntil(lambda: (s := status_or_none(sock)) is not None
                    and len(s["windows"]) == 2, timeout=60000)
    proc = subprocess.run([sys.executable, "-m", "viewer.app", *map(str, more)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(more) - 2} file(s) not opened" in proc.stderr and str(more[2]) in proc.stderr
    qtbot.waitUntil(lambda: len(ask_status(sock)["windows"]) == 4, timeout=60000)
    files = [w["file"] for w in ask_status(sock)["windows"]]
    assert str(more[2].resolve()) not in files and str(more[1].resolve()) in files
    first.terminate()
    _, stderr = first.communicate(timeout=60)
    assert "1 file(s) not opened" in stderr and str(more[0]) in stderr  # at its own start
