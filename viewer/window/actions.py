"""The window's commands: every action with its shortcut, the menus and the toolbar.

One object holds them (:class:`WindowActions`), as qpageview's ``ViewActions`` does: the
shell asks for the menus and the toolbar to be built, and enables or disables actions by
name; what each one does is the slot it was given, so the commands are listed in one
place with their keys and the keyboard-shortcut help is built from the menus.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QSpinBox, QToolBar

from ..state.presentation import either_of
from ..state.rows import FLAGGED_BADGES
from .settings import Preferences

# The help boxes' Qt classes (which Qt makes on first use) are imported when one is shown.
if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

Slot = Callable[[], object]


@dataclass
class Slots:
    """What the commands do (given by the shell, which owns the widgets they act on)."""

    open: Slot
    open_demo: Slot
    locate: Slot
    recheck: Slot
    quit: Slot
    zoom_in: Slot
    zoom_out: Slot
    actual_size: Slot
    fit_width: Slot
    fit_page: Slot
    go_to_page: Slot
    highlight_color: Slot
    next_claim: Slot
    previous_claim: Slot
    next_flagged: Slot
    previous_flagged: Slot
    shortcuts: Slot
    about: Slot
    export: Slot = lambda: None  # File ▸ Export (viewer/window/export.py)
    import_answer: Slot = lambda: None  # File ▸ Import (viewer/window/importing.py)


class WindowActions(QObject):
    """Every command of the window as a QAction, plus the menus and toolbar showing them."""

    def __init__(self, window: QMainWindow, slots: Slots) -> None:
        super().__init__(window)
        S = QKeySequence.StandardKey
        self.open = self._action("&Open…", slots.open, S.Open,
                                 tip="Open a citations file or a PDF")
        self.import_answer = self._action("&Import…", slots.import_answer,
                                          tip="Open another system's answer (a Messages "
                                              "API response) with its documents")
        self.demo = self._action("Open &Demo", slots.open_demo,
                                 tip="Open the bundled sample application")
        self.locate = self._action("&Locate Document…", slots.locate, "Ctrl+L",
                                   tip="Point to a document the citations file names")
        self.recheck = self._action("&Check Again", slots.recheck, "F5",
                                    tip="Run the check again")
        self.export = self._action("&Export…", slots.export, "Ctrl+E",
                                   tip="Write an annotated PDF, an HTML report, CSV, "
                                       "W3C annotations")
        self.quit = self._action("&Quit", slots.quit, S.Quit, "Ctrl+Q")
        self.zoom_in = self._action("Zoom &In", slots.zoom_in, S.ZoomIn, "Ctrl+=")
        self.zoom_out = self._action("Zoom &Out", slots.zoom_out, S.ZoomOut)
        self.zoom_100 = self._action("&Actual Size", slots.actual_size, "Ctrl+0")
        self.fit_width = self._action("Fit &Width", slots.fit_width, "Ctrl+1")
        self.fit_page = self._action("Fit &Page", slots.fit_page, "Ctrl+2")
        self.goto = self._action("&Go to Page…", slots.go_to_page, "Ctrl+G")
        self.color = self._action("&Highlight Colour…", slots.highlight_color)
        self.next = self._action("&Next Claim", slots.next_claim, "J",
                                 tip="Select the next claim")
        self.prev = self._action("&Previous Claim", slots.previous_claim, "K",
                                 tip="Select the previous claim")
        self.next_flag = self._action("Next &Flagged", slots.next_flagged, "F",
                                      tip=f"Next claim marked {either_of(FLAGGED_BADGES)}")
        self.prev_flag = self._action("Previous F&lagged", slots.previous_flagged, "Shift+F")
        self.shortcuts = self._action("&Keyboard Shortcuts", slots.shortcuts, "F1")
        self.about = self._action("&About citeview", slots.about)
        self.locate.setEnabled(False)
        self.recheck.setEnabled(False)
        self.export.setEnabled(False)

    def _action(self, text: str, slot: Slot, *shortcuts: str | QKeySequence,
                tip: str = "") -> QAction:
        return command(self.parent(), text, slot, *shortcuts, tip=tip)

    def build_menus(self, window: QMainWindow) -> QMenu:
        """Fill the window's menu bar; returns the (still empty) Open Recent menu."""
        bar = window.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(self.open)
        recent = file_menu.addMenu("Open &Recent")
        for a in (self.import_answer, self.demo, None, self.locate, self.recheck,
                  self.export, None, self.quit):
            file_menu.addSeparator() if a is None else file_menu.addAction(a)
        view_menu = bar.addMenu("&View")
        for a in (self.zoom_in, self.zoom_out, self.zoom_100, None, self.fit_width,
                  self.fit_page, None, self.goto, None, self.color):
            view_menu.addSeparator() if a is None else view_menu.addAction(a)
        claims_menu = bar.addMenu("&Claims")
        for a in (self.next, self.prev, None, self.next_flag, self.prev_flag):
            claims_menu.addSeparator() if a is None else claims_menu.addAction(a)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.shortcuts)
        help_menu.addAction(self.about)
        return recent

    def build_toolbar(self, window: QMainWindow) -> Toolbar:
        """Add the main toolbar: open, claim stepping, zoom, and the page number box."""
        tb = QToolBar("Main")
        tb.setObjectName("main-toolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        window.addToolBar(tb)
        tb.addAction(self.open)
        tb.addSeparator()
        self.prev.setIconText("◀ Claim")
        self.next.setIconText("Claim ▶")
        self.next_flag.setIconText("Next flagged")
        for a in (self.prev, self.next, self.next_flag):
            tb.addAction(a)
        tb.addSeparator()
        self.zoom_out.setIconText("−")
        self.zoom_in.setIconText("+")
        tb.addAction(self.zoom_out)
        zoom_label = QLabel("100%")
        zoom_label.setMinimumWidth(44)
        zoom_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        tb.addWidget(zoom_label)
        tb.addAction(self.zoom_in)
        self.fit_width.setIconText("Width")
        self.fit_page.setIconText("Page")
        tb.addAction(self.fit_width)
        tb.addAction(self.fit_page)
        tb.addSeparator()
        tb.addWidget(QLabel(" Page "))
        page_box = QSpinBox()
        page_box.setRange(0, 0)
        page_box.setKeyboardTracking(False)
        page_box.setAccessibleName("Page number")
        tb.addWidget(page_box)
        page_count = QLabel(" of 0 ")
        tb.addWidget(page_count)
        return Toolbar(tb, zoom_label, page_box, page_count)


def command(parent: QObject, text: str, slot: Slot, *shortcuts: str | QKeySequence,
            tip: str = "") -> QAction:
    """A window command: its menu text, what it does, its keys and its status-bar tip."""
    action = QAction(text, parent)
    # A platform may have no key for a standard command (an empty sequence), or give the
    # same key twice: each key is bound once.
    keys = list(dict.fromkeys(k for k in (QKeySequence(s) for s in shortcuts) if not k.isEmpty()))
    if keys:
        action.setShortcuts(keys)
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(lambda _checked=False: slot())
    return action


@dataclass(frozen=True)
class Toolbar:
    """The toolbar and the widgets on it that show state: zoom, page number, page count."""

    bar: QToolBar
    zoom_label: QLabel
    page_box: QSpinBox
    page_count_label: QLabel


def menu_actions(menu: QMenu) -> list[QAction]:
    """The commands of a menu and of its submenus, in menu order."""
    out: list[QAction] = []
    for a in menu.actions():
        sub = a.menu()
        if isinstance(sub, QMenu):
            out += menu_actions(sub)
        elif not a.isSeparator():
            out.append(a)
    return out


def shortcut_table(window: QMainWindow) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every command of the menu bar's menus that has keys, menu by menu: the menu's
    title and (keys, command) rows, all of a command's keys, the usual one first."""
    table = []
    for top in window.menuBar().actions():
        menu = top.menu()
        rows = []
        for a in menu_actions(menu) if isinstance(menu, QMenu) else ():
            keys = [k.toString(QKeySequence.SequenceFormat.NativeText)
                    for k in a.shortcuts() if not k.isEmpty()]
            if keys:
                rows.append((" or ".join(keys), a.text().replace("&", "")))
        if rows:
            table.append((top.text().replace("&", ""), rows))
    return table


def shortcut_lines(window: QMainWindow) -> list[str]:
    """Every menu command with keys, as "keys<TAB>command" lines."""
    return [f"{keys}\t{name}" for _menu, rows in shortcut_table(window)
            for keys, name in rows]


# What the keyboard-shortcut help says besides the menus' commands: the mouse, and the
# keys the page takes when it has the focus.
MOUSE_AND_PAGE_KEYS = (("Ctrl+wheel", "Zoom around the pointer"),
                       ("Drag on the page", "Select words (double click: a word; "
                                            "triple click: a line)"),
                       ("Esc on the page", "Clear the selected words"))


def shortcuts_html(window: QMainWindow) -> str:
    """Help ▸ Keyboard Shortcuts: a table per menu, then the mouse and the page."""
    # One table, so the keys line up in one column; each menu's title heads its rows.
    rows = []
    for title, keys in [*shortcut_table(window), ("Mouse and page", list(MOUSE_AND_PAGE_KEYS))]:
        rows.append(f'<tr><td colspan=2 style="padding-top:8px"><b>{escape(title)}</b></td></tr>')
        rows += [f"<tr><td>{escape(k)}</td><td>{escape(n)}</td></tr>" for k, n in keys]
    return f"<table cellspacing=2 cellpadding=2>{''.join(rows)}</table>"


def show_shortcuts(window: QMainWindow) -> None:
    """Help ▸ Keyboard Shortcuts (see :func:`shortcuts_dialog`)."""
    shortcuts_dialog(window).exec()


def shortcuts_dialog(window: QMainWindow) -> QDialog:
    """The Help ▸ Keyboard Shortcuts box: every menu command with keys, and the mouse; it
    scrolls, so it fits a small screen."""
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard shortcuts")
    text = QTextBrowser(dialog)
    text.setHtml(shortcuts_html(window))
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    column = QVBoxLayout(dialog)
    column.addWidget(text)
    column.addWidget(buttons)
    # As tall as the list wants, within the screen and about the window it belongs to.
    screen = window.screen().availableGeometry()
    dialog.resize(min(560, screen.width() - 40),
                  min(720, screen.height() - 80, max(360, window.height() - 40)))
    return dialog


def about_text() -> str:
    """The About box's text: what citeview is, and its version (with Qt's and Python's)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from PySide6 import __version__ as pyside

    try:
        ours = version("citeview")
    except PackageNotFoundError:
        ours = "(version unknown: not installed)"
    return (f"citeview {ours}\n\n"
            "Check that an answer's citations say what it claims: each quote is found in "
            "the PDF and highlighted on its page, or plainly reported as not found.\n\n"
            f"PySide6 {pyside}, Python {platform.python_version()}")


def show_about(window: QMainWindow) -> None:
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.about(window, "About citeview", about_text())


def fill_recent(menu: QMenu, prefs: Preferences, open_path: Callable[[Path], None]) -> None:
    """Fill the Open Recent menu (it is filled each time it is about to show)."""
    menu.clear()
    # A file deleted or moved since is left out: choosing it could only fail.
    recent = [p for p in prefs.recent_files() if p.is_file()]
    for p in recent:
        action = menu.addAction(str(p))
        action.triggered.connect(lambda _c=False, p=p: open_path(p))
    if not recent:
        menu.addAction("(none)").setEnabled(False)
    else:
        menu.addSeparator()
        menu.addAction("Clear Menu").triggered.connect(prefs.clear_recent)
