"""Start the viewer: parse the GUI options, build the window, open the file.

``citeview FILE`` ends up in :func:`main`. With ``--screenshot PNG`` the window is laid out,
the check and the rendering of every visible page are waited for, and the whole window is
saved as a PNG (:mod:`.screenshot`); then the program exits.

Qt and the window are imported by :func:`run`, not at the top of this module, so that they
are imported while the garbage collector is paused (see there). ``citeview --help`` and
the subcommands, which read this module's options, do not load Qt at all.
"""

from __future__ import annotations

import argparse
import gc
import os
import stat
import sys
from collections.abc import MutableMapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, NoReturn

from . import codecache
from .errors import install_excepthook, setup_logging
from .launcher import handover
from .launcher.handover import max_windows, refused_windows
from .launcher.instance import MAX_WINDOW_PX, MIN_WINDOW_PX
from .state.files import demo_path, is_citations_file

if TYPE_CHECKING:
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication

    from .launcher.instance import Listener
    from .window.screenshot import Screenshot
    from .window.shell import MainWindow
    from .window.signals import SignalQuitter
    from .window.windows import WindowSet

EXIT_USAGE = 2
# Set once a window's event loop has ended and everything it saves is saved: from then on
# the process may leave without the interpreter's teardown (see leave()).
_finished = False


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, "
                                         f"not {text!r}") from None
    if w < MIN_WINDOW_PX or h < MIN_WINDOW_PX:
        raise argparse.ArgumentTypeError(f"{text!r} is too small (at least 100x100)")
    if w > MAX_WINDOW_PX or h > MAX_WINDOW_PX:
        raise argparse.ArgumentTypeError(f"{text!r} is too large (at most "
                                         f"{MAX_WINDOW_PX}x{MAX_WINDOW_PX}; a window is "
                                         "also cut to its screen)")
    return w, h


def _color(text: str) -> QColor:
    from .palette import parse_color

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
    parser.add_argument("--document", action="append", type=Path, default=[],
                        metavar="FILE",
                        help="FILE is an answer to import (a Messages API response): one "
                             "of its documents, in its order (repeatable)")
    parser.add_argument("--request", type=Path, metavar="REQUEST.json",
                        help="FILE is an answer to import: the request that carried its "
                             "documents")
    handover.add_gui_arguments(parser)  # --new-instance, further FILEs (viewer.launcher)


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
    handover.check_gui_arguments(parser, args)
    if _importing(args):
        if args.file is None or args.demo or args.more_files:
            parser.error("--document and --request go with one answer FILE to import")
        if args.document and args.request is not None:
            parser.error("give either --document or --request, not both")
    return run(args)


def _importing(args: argparse.Namespace) -> bool:
    """Whether FILE is an answer to import (its documents or request given)."""
    return bool(getattr(args, "document", None)) or getattr(args, "request", None) is not None


# What D-Bus clients (Qt's platform theme and portal look-ups, through libdbus) are told
# when there is no session bus to find: an address no transport takes, so they fail at
# once instead of "autolaunching" one (running dbus-launch, which starts a bus daemon that
# outlives citeview, or on X11 asks the display for one).
NO_BUS = "disabled:"


def no_bus_autolaunch(env: MutableMapping[str, str]) -> str | None:
    """Point ``DBUS_SESSION_BUS_ADDRESS`` at the user's session bus when it is unset and
    the session has one (``$XDG_RUNTIME_DIR/bus``, as systemd and elogind make it), else
    at :data:`NO_BUS`, so no D-Bus client starts a bus of its own; a value already set is
    left as it is. Returns the value set, or None.

    >>> env = {"XDG_RUNTIME_DIR": "/nonexistent"}
    >>> no_bus_autolaunch(env), env["DBUS_SESSION_BUS_ADDRESS"]
    ('disabled:', 'disabled:')
    >>> no_bus_autolaunch({"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1/bus"})
    """
    if env.get("DBUS_SESSION_BUS_ADDRESS"):
        return None
    runtime = env.get("XDG_RUNTIME_DIR")
    bus = Path(runtime) / "bus" if runtime else None
    try:
        found = bus is not None and stat.S_ISSOCK(os.stat(bus).st_mode)
    except OSError:
        found = False
    value = f"unix:path={bus}" if found else NO_BUS
    env["DBUS_SESSION_BUS_ADDRESS"] = value
    return value


def run(args: argparse.Namespace) -> int:
    """Run the viewer for already-parsed options (see :func:`add_gui_arguments`)."""
    codecache.install()  # before the window's ~80 dataclasses are made (and the children's)
    log_path = setup_logging()
    if _importing(args):
        args.new_instance = True  # a running citeview is handed file names, not documents
    # One citeview per user and display (viewer.launcher): a launch that hands its files
    # to the running one ends here, having started no child process.
    instance = handover.hand_over(args)
    if instance.handed_over:
        return instance.exit_status
    # Start-up makes some 130,000 objects that live as long as the process (modules, Qt
    # wrappers, pydantic schemas, the window) and next to no garbage (~750 objects in
    # cycles), yet the cyclic garbage collector walked them again and again while they
    # were being made: ~40 ms of a 0.7 s screenshot run. It is paused until the window is
    # up, and what exists then is frozen out of its sight for good, so later collections,
    # while scrolling too, walk only what was made since.
    gc.disable()
    # Before Qt is imported: the check and render processes start now, with no thread to
    # inherit, and do their own imports (pydantic, PyMuPDF, the matcher) beside Qt's.
    from .checker import client as checker
    from .render import process as render_process

    no_bus_autolaunch(os.environ)
    target = demo_path() if args.demo else args.file
    checker.prestart(prepare=target if target is not None and is_citations_file(target)
                     and target.is_file() and not _importing(args) else None,
                     render=render_process.prestart())
    try:
        started = _start_up(args, target, log_path, instance.listener)
    finally:
        gc.freeze()
        gc.enable()
    code = int(started.app.exec())
    if started.quitter.exit_status is not None:
        return started.quitter.exit_status  # Ctrl-C or SIGTERM: windows closed as usual
    # Everything is closed and saved; leave the surviving objects to the process's end.
    # Without this the interpreter's final collections walk every object made since
    # start-up, which took a fifth of a second of a screenshot run before the freeze above.
    gc.freeze()
    codecache.save()
    global _finished
    _finished = True
    shot = started.screenshot
    if shot is not None and shot.error:
        print(shot.error, file=sys.stderr)
    if code == 0 and (not started.opened or started.window.failed_to_open):
        return EXIT_USAGE  # closed normally, but what was asked for could not be shown
    return code


def _go_to(window: MainWindow, args: argparse.Namespace) -> None:
    """Select ``--claim`` and show ``--page`` once what was opened is read."""
    if args.claim is not None:
        window.select_claim_when_ready(args.claim)
    if args.page is not None:
        window.go_to_page_when_ready(args.page - 1)


class _Started(NamedTuple):
    app: QApplication
    window: MainWindow
    screenshot: Screenshot | None
    opened: bool  # what the options asked to open could be opened
    windows: WindowSet  # every window of this process (viewer.window.windows)
    quitter: SignalQuitter  # Ctrl-C and SIGTERM close the windows and quit


def _start_up(args: argparse.Namespace, target: Path | None, log_path: Path | None,
              listener: Listener | None = None) -> _Started:
    """Build the window and open ``target`` (the file or demo the options name)."""
    from PySide6.QtCore import QSettings

    from . import qtimport

    # Before the window's modules: PySide6 looks at each of them as it is imported.
    qtimport.install()
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from .window.screenshot import Screenshot
    from .window.settings import Preferences
    from .window.shell import MainWindow
    from .window.signals import SignalQuitter
    from .window.windows import Application, WindowSet, on_screen

    app = QApplication.instance() or Application(sys.argv[:1])
    assert isinstance(app, QApplication)
    quitter = SignalQuitter(app)
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
            from PySide6.QtWidgets import QMessageBox  # Qt makes the class on first use

            QMessageBox.warning(window, "citeview", message)

    install_excepthook(show_error, log_path)
    from .window.screen_fit import keep_on_screen, place_first

    if args.size is not None:
        window.resize(*on_screen(window, args.size))
    elif interactive:
        place_first(window)  # the default size, or the screen's available area; centred
        window.restore_layout()
        keep_on_screen(window)  # a remembered geometry from another screen or scale
    else:
        place_first(window)
    window.apply_initial_zoom(args.zoom)
    window.show()

    opened = True
    if target is not None:
        if args.demo and not target.is_file():
            window.notice.show_notice(f"The demo is not installed ({target}).", kind="error")
            opened = False
        elif _importing(args):
            window.importer.run(target, documents=args.document, request=args.request,
                                then=lambda: _go_to(window, args))
        else:
            window.open_path(target)
    if opened and not _importing(args):
        _go_to(window, args)

    # The further windows of this process: further FILEs, files handed over by later
    # launches, macOS's file-open events (viewer.window.windows).
    windows = WindowSet(app, window, listener, highlight=args.highlight_color)
    windows.open_all(args.more_files[:max(0, max_windows() - 1)])
    refused_windows(args.more_files[max(0, max_windows() - 1):], sys.stderr)
    shot = None if interactive else Screenshot(window, args.screenshot, args.geometry_json)
    return _Started(app, window, shot, opened, windows, quitter)


def leave(code: int) -> NoReturn:
    """End the program with ``code``. After a window's run (see :func:`run`) that is done
    without the interpreter's teardown, which destroys the window's Qt objects one by
    one: 15-20 ms of a screenshot run, with every file already written. Standard output
    and error are flushed and the exit handlers run first (logging's among them), as at
    any exit. Anything else leaves as usual. Only the entry points call this; a caller of
    :func:`main` in its own process gets the status back.

    PySide6's own exit handler, which deletes the application object and with it every
    widget (5 ms of a screenshot run, 15 under load), runs only when the application holds
    the clipboard or the selection: deleting it is what hands a copied quote to the
    desktop's clipboard manager, so that it can still be pasted after the window closed."""
    if not _finished:
        sys.exit(code)
    import atexit

    if not _holds_clipboard():
        qtcore = sys.modules.get("PySide6.QtCore")
        shutdown = getattr(qtcore, "__moduleShutdown", None)
        if shutdown is not None:
            atexit.unregister(shutdown)
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is not None:
        run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass  # closed, or none: nothing left to say there
    os._exit(code)


# Platforms whose clipboard says truly whether it holds what this process copied. On
# macOS and Windows a copy may be a promise the application keeps until it is deleted.
OWNED_CLIPBOARDS = ("xcb", "wayland", "offscreen", "minimal")


def _holds_clipboard() -> bool:
    """Whether this process's application holds the clipboard or the selection (what was
    copied from it and not yet replaced by another program), or may hold it."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    app = widgets.QApplication.instance() if widgets is not None else None
    if app is None:
        return False
    if not app.platformName().startswith(OWNED_CLIPBOARDS):  # "wayland-egl" too
        return True
    board = widgets.QApplication.clipboard()
    return bool(board.ownsClipboard() or board.ownsSelection())


if __name__ == "__main__":  # python -m viewer.app
    leave(main(sys.argv[1:]))
