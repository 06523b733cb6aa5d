"""On X11 with no session bus, the viewer never autolaunches one (libdbus would run
``dbus-launch --autolaunch``, starting a bus daemon that outlives it): a real X server
(Xvfb), a real Qt xcb window, and a ``dbus-launch`` on PATH that records being run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def x_display() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("needs Xvfb (scripts/system-deps test installs it)")
    server = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        number = server.stdout.readline().strip()
        assert number.isdigit(), number
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(30)


def test_no_session_bus_is_autolaunched_on_x11(x_display: str, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    called = tmp_path / "dbus-launch-was-run"
    fake = bin_dir / "dbus-launch"
    fake.write_text(f"#!/bin/sh\necho \"$@\" >> '{called}'\nexit 1\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "WAYLAND_DISPLAY")}
    env |= {"DISPLAY": x_display, "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": str(REPO),
            "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "HOME": str(tmp_path)}
    shot = tmp_path / "x11.png"
    done = subprocess.run([sys.executable, "-m", "viewer.app", "--demo", "--screenshot",
                           str(shot), "--size", "800x600"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 10_000  # a real window was drawn on the X server
    assert not called.exists(), called.read_text()
