"""The real window on a real X display: Qt's xcb platform plugin finds every library it
needs, and ``citeview --demo`` draws under Xvfb what the offscreen runs draw.

A fresh machine once aborted here ("xcb-cursor0 or libxcb-cursor0 is needed") while
scripts/system-deps said nothing was missing: these tests keep that list honest.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QImage

from viewer.palette import DEFAULT_HIGHLIGHT

from .helpers import count_color
from .test_screenshot import check_shot

REPO = Path(__file__).resolve().parents[2]
QT = Path(__import__("PySide6").__file__).parent
# The ELF files a citeview run on X loads (scripts/system-deps --derive reads the same):
# the virtual-keyboard input method and the other plugins PySide6-Essentials ships need
# libraries of PySide6-Addons or of a desktop, and are loaded only when asked for.
PLUGIN_GLOBS = ("Qt/plugins/platforms/libqxcb.so", "Qt/plugins/xcbglintegrations/*.so",
                "Qt/plugins/platforms/libqoffscreen.so", "Qt/plugins/imageformats/libqsvg.so",
                "Qt/plugins/iconengines/*.so",
                "Qt/plugins/platforminputcontexts/libcompose*.so",
                "Qt/plugins/platforminputcontexts/libibus*.so",
                "QtCore*.so", "QtGui*.so", "QtWidgets*.so")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 on Linux")


def plugin_files() -> list[Path]:
    files = [p for pattern in PLUGIN_GLOBS for p in sorted(QT.glob(pattern))]
    assert any(p.name == "libqxcb.so" for p in files), "PySide6 ships no xcb plugin?"
    return files


def ldd(path: Path) -> dict[str, str]:
    """soname → resolved path ("not found" when the dynamic linker cannot find it)."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    libs = {}
    for line in out.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow:
            libs[name] = rest.split(" (")[0].strip()
    return libs


@linux_only
def test_the_xcb_plugin_finds_every_library() -> None:
    missing = {f"{path.name}: {soname}" for path in plugin_files()
               for soname, where in ldd(path).items() if where == "not found"}
    assert not missing, ("libraries Qt's xcb plugin needs are missing (scripts/system-deps "
                         f"should install them): {sorted(missing)}")


@linux_only
@pytest.mark.skipif(shutil.which("dpkg") is None, reason="maps libraries to Debian packages")
def test_system_deps_lists_the_package_of_every_library() -> None:
    listed = set(subprocess.run([str(REPO / "scripts" / "system-deps"), "--list"],
                                capture_output=True, text=True, check=True).stdout.split())
    resolved = {soname: where for path in plugin_files()
                for soname, where in ldd(path).items()
                # the test above names what is missing; PySide6 ships the rest
                if where != "not found" and not where.startswith(str(QT))}
    # dpkg knows a file by the path its package put it at: /lib/... or /usr/lib/...
    candidates = sorted({p for w in resolved.values() for p in (w, os.path.realpath(w))})
    out = subprocess.run(["dpkg", "-S", *candidates], capture_output=True, text=True).stdout
    owner = {}
    for line in out.splitlines():
        package, _, file = line.partition(": ")
        owner[file.strip()] = package.split(":")[0]  # "libc6:amd64" → "libc6"
    unlisted = {}
    for soname, where in resolved.items():
        package = owner.get(where) or owner.get(os.path.realpath(where))
        if package not in listed:
            unlisted[soname] = package or f"no package owns {where}"
    assert not unlisted, f"add to scripts/system-deps: {unlisted}"


@pytest.fixture
def xvfb() -> Iterator[str]:
    """A real X server on a display number of its own choosing (others run tests too)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("needs Xvfb (scripts/system-deps test installs it)")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0",
                             "1600x1000x24", "-nolisten", "tcp"], pass_fds=(write_end,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    os.close(write_end)
    with os.fdopen(read_end) as ready:
        number = ready.readline().strip()  # written once the server accepts clients
    if not number:
        proc.wait(10)
        pytest.fail(f"Xvfb did not start: {proc.stderr.read() if proc.stderr else ''}")
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def runtime() -> Iterator[Path]:
    """A private runtime folder with a short path (Qt wants one on X; so does a socket)."""
    folder = Path(tempfile.mkdtemp(prefix="cv-x-", dir="/tmp"))
    os.chmod(folder, 0o700)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def x_env(display: str, runtime: Path, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY",)}
    env.update(QT_QPA_PLATFORM="xcb", DISPLAY=display, XDG_RUNTIME_DIR=str(runtime),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(REPO))
    return env


def test_the_demo_screenshot_on_a_real_x_display(xvfb: str, runtime: Path, tmp_path: Path
                                                  ) -> None:
    from viewer.app import demo_path

    png, geometry = tmp_path / "xcb.png", tmp_path / "xcb.json"
    proc = subprocess.run([sys.executable, "-m", "viewer.app", "--demo", "--claim", "c3",
                           "--size", "1280x800", "--zoom", "150", "--screenshot", str(png),
                           "--geometry-json", str(geometry)], env=x_env(xvfb, runtime, tmp_path),
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "platform plugin" not in proc.stderr
    # Pages pixel for pixel as PyMuPDF renders them, highlights on the matcher's words
    # and the highlight colour nowhere else.
    check_shot(demo_path(), "c3", png, geometry, 1, (1280, 800))


GRAB_SCREEN = """
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv[:1])
sys.exit(0 if app.primaryScreen().grabWindow(0).save(sys.argv[1]) else 1)
"""


def test_the_window_is_on_the_x_screen(xvfb: str, runtime: Path, tmp_path: Path,
                                       qtbot: Any) -> None:
    """Not a grab of the widget: the X server's own picture of its screen."""
    env = x_env(xvfb, runtime, tmp_path)
    viewer = subprocess.Popen([sys.executable, "-m", "viewer.app", "--demo", "--claim", "c3",
                               "--size", "1100x760", "--new-instance"], env=env, cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    screen = tmp_path / "screen.png"
    highlight = QColor(DEFAULT_HIGHLIGHT)

    def highlight_on_screen() -> bool:
        assert viewer.poll() is None, viewer.stderr.read() if viewer.stderr else ""
        subprocess.run([sys.executable, "-c", GRAB_SCREEN, str(screen)], env=env,
                       check=True, timeout=60)
        return count_color(QImage(str(screen)), highlight) > 500

    try:
        qtbot.waitUntil(highlight_on_screen, timeout=90000)
    finally:
        viewer.terminate()
        viewer.wait(10)
    image = QImage(str(screen))
    assert (image.width(), image.height()) == (1600, 1000)


LEAVING = """
import sys
from PySide6.QtWidgets import QApplication
from viewer import app as viewer_app
qapp = QApplication(sys.argv[:1])
if sys.argv[1] == "copied":
    QApplication.clipboard().setText("The insured sum is 250,000 EUR.")
    qapp.processEvents()
qapp.destroyed.connect(lambda: print("application deleted", flush=True))
viewer_app._finished = True  # as after a window's run
viewer_app.leave(0)
"""


@linux_only
@pytest.mark.parametrize("copied", [True, False])
def test_the_application_is_deleted_at_exit_only_when_it_holds_the_clipboard(
        xvfb: str, runtime: Path, tmp_path: Path, copied: bool) -> None:
    """Deleting Qt's application object is what hands a copied quote to the desktop's
    clipboard manager; with nothing copied, leaving skips it (viewer.app.leave)."""
    proc = subprocess.run([sys.executable, "-c", LEAVING, "copied" if copied else "not"],
                          env=x_env(xvfb, runtime, tmp_path), cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert ("application deleted" in proc.stdout) == copied, proc.stdout
