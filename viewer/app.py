"""Start the viewer: parse the GUI options, build the window, open the file.

``citeview FILE`` ends up in :func:`main`. With ``--screenshot PNG`` the window is laid out,
the check and the rendering of every visible page are waited for (by their signals, never
by sleeping), and the whole window is saved as a PNG; then the program exits.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import sys
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QObject, QPoint, QSettings, QTimer
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from .errors import install_excepthook, setup_logging
from .palette import parse_color
from .settings import Preferences
from .window import MainWindow

log = logging.getLogger(__name__)

# A screenshot that is not ready after this long is taken anyway and the exit code says so.
SCREENSHOT_TIMEOUT_S = 60.0
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def demo_path() -> Path:
    """The bundled demo citations file (its PDF, ``policy.pdf``, sits beside it)."""
    return Path(str(resources.files("resources") / "demo" / "demo.cite"))


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, "
                                         f"not {text!r}") from None
    if w < 100 or h < 100:
        raise argparse.ArgumentTypeError(f"{text!r} is too small (at least 100x100)")
    return w, h


def _color(text: str) -> QColor:
    color = parse_color(text)
    if color is None:
        raise argparse.ArgumentTypeError(f"expected a colour as #RRGGBB, not {text!r}")
    return color


def _zoom(text: str) -> str:
    value = text.strip().lower().rstrip("%")
    if value in ("width", "page"):
        return value
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'width', 'page' or a percentage, "
                                         f"not {text!r}") from None
    if not 10 <= number <= 800:
        raise argparse.ArgumentTypeError("zoom must be between 10 and 800 percent")
    return str(number)


def add_gui_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the viewer's options to ``parser`` (shared with the ``citeview`` command)."""
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE",
                        help="a citations file (.cite or .json) to check and view, or a PDF "
                             "to view on its own")
    parser.add_argument("--demo", action="store_true",
                        help="open the bundled sample insurance application")
    parser.add_argument("--claim", metavar="ID",
                        help="select this claim at start and scroll its highlight into view")
    parser.add_argument("--page", type=int, metavar="N", help="start at page N (1-based)")
    parser.add_argument("--zoom", type=_zoom, metavar="ZOOM",
                        help="'width', 'page' or a percentage (100 = one pixel per point)")
    parser.add_argument("--size", type=_size, metavar="WxH",
                        help="window size in logical pixels, e.g. 1280x800")
    parser.add_argument("--highlight-color", type=_color, metavar="#RRGGBB",
                        help="highlight colour for this run (View ▸ Highlight Colour "
                             "changes the remembered one)")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="wait until the window is ready, save it as PNG and exit")
    parser.add_argument("--geometry-json", type=Path, metavar="JSON",
                        help="with --screenshot: also write where each page and highlight "
                             "rectangle was painted, in the PNG's pixels")


def main(argv: list[str] | None = None) -> int:
    """Run the viewer with command-line ``argv`` (without the program name)."""
    parser = argparse.ArgumentParser(
        prog="citeview",
        description="Check an answer's citations against the PDF: each quote highlighted "
                    "on its page, or plainly reported as not found.")
    add_gui_arguments(parser)
    args = parser.parse_args(argv)
    if args.demo and args.file is not None:
        parser.error("give either FILE or --demo, not both")
    if args.geometry_json is not None and args.screenshot is None:
        parser.error("--geometry-json needs --screenshot")
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Run the viewer for already-parsed options (see :func:`add_gui_arguments`)."""
    log_path = setup_logging()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("citeview")
    app.setOrganizationName("citeview")
    app.setDesktopFileName("citeview")
    icon = resources.files("resources") / "citeview.svg"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    interactive = args.screenshot is None
    prefs = Preferences(QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                                  "citeview", "citeview"))
    window = MainWindow(prefs, interactive=interactive, highlight=args.highlight_color)

    def show_error(message: str) -> None:
        if interactive:
            QMessageBox.warning(window, "citeview", message)

    install_excepthook(show_error, log_path)
    if args.size is not None:
        window.resize(*args.size)
    elif interactive:
        window.resize(1280, 860)
        window.restore_layout()
    else:
        window.resize(1280, 860)
    window.apply_initial_zoom(args.zoom)
    window.show()

    opened = True
    target = demo_path() if args.demo else args.file
    if target is not None:
        if args.demo and not target.is_file():
            window.notice.show_notice(f"The demo is not installed ({target}).", kind="error")
            opened = False
        else:
            opened = window.open_path(target)
    if opened and args.claim is not None:
        window.select_claim_when_ready(args.claim)
        opened = window.session.citations is not None and any(
            c.id == args.claim for c in window.session.citations.claims)
    if opened and args.page is not None:
        window.go_to_page_when_ready(args.page - 1)

    shot = None if interactive else Screenshot(window, args.screenshot, args.geometry_json)
    code = int(app.exec())
    # Everything is closed and saved; leave the surviving objects to the process's end.
    # Without this the interpreter's final collections walk every object (pydantic
    # schemas, Qt wrappers…), which took a fifth of a second of a screenshot run.
    gc.freeze()
    if shot is not None and shot.error:
        print(shot.error, file=sys.stderr)
    if code == EXIT_OK and not opened:
        return EXIT_USAGE
    return code


class Screenshot(QObject):
    """Saves the window once nothing is running and every visible page is rendered."""

    def __init__(self, window: MainWindow, path: Path, geometry: Path | None) -> None:
        super().__init__(window)
        self.window = window
        self.path = path
        self.geometry = geometry
        self.error = ""
        self._done = False
        window.settled.connect(self._check)
        window.busy_changed.connect(self._check)
        self._watchdog = QTimer(self, singleShot=True, interval=int(SCREENSHOT_TIMEOUT_S * 1000))
        self._watchdog.timeout.connect(self._timeout)
        self._watchdog.start()
        QTimer.singleShot(0, self._check)

    def _check(self) -> None:
        if not self._done and self.window.is_settled():
            # Let the paints and callbacks queued in this turn run, then look again.
            QTimer.singleShot(0, self._shoot_if_settled)

    def _shoot_if_settled(self) -> None:
        if self._done:
            return
        if not self.window.is_settled():
            self.window.view.viewport().update()  # its paint asks for what is missing
            return
        self._save(EXIT_OK)

    def _timeout(self) -> None:
        if not self._done:
            self.error = (f"the window was not ready after {SCREENSHOT_TIMEOUT_S:.0f} s; "
                          "saved it as it was")
            self._save(EXIT_FAILED)

    def _save(self, code: int) -> None:
        self._done = True
        pixmap = self.window.grab()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            saved = pixmap.save(str(self.path), "PNG")
        except OSError as exc:
            saved, self.error = False, f"cannot write {self.path}: {exc}"
        if not saved:
            self.error = self.error or f"cannot write {self.path}"
            code = EXIT_FAILED
        elif self.geometry is not None:
            self.geometry.write_text(json.dumps(painted_geometry(self.window,
                                                                 pixmap.devicePixelRatio()),
                                                indent=1))
        window = self.window
        QTimer.singleShot(0, lambda: (window.close(), QApplication.exit(code)))


def painted_geometry(window: MainWindow, dpr: float) -> dict[str, object]:
    """Where the last paint put each page and highlight, in device pixels of a window grab."""
    view = window.view
    origin = view.viewport().mapTo(window, QPoint(0, 0))

    def device(r: object) -> list[float]:
        x, y, w, h = r.x(), r.y(), r.width(), r.height()  # type: ignore[attr-defined]
        return [(origin.x() + x) * dpr, (origin.y() + y) * dpr, w * dpr, h * dpr]

    return {
        "dpr": dpr,
        "zoom": view.zoom,
        "document": view.doc.path if view.doc is not None else None,
        "claim": window.session.selected,
        "viewport": device(view.viewport().rect()),
        "pages": [{"index": i, "rect": device(r)} for i, r in sorted(view.painted_pages.items())],
        "highlights": [{"page": i, "rect": device(r)} for i, r in view.painted_highlights],
        "highlight_color": view.highlighter.color.name(),
    }


if __name__ == "__main__":  # python -m viewer.app
    sys.exit(main(sys.argv[1:]))
