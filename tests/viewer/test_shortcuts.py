"""Every shortcut of the window, walked: none is bound twice, each single key works from
the page and from the lists, and a text field types the key instead of running it.

The keys are pressed for real (QTest through Qt's shortcut map); each action's
``Shortcut`` event is caught before it runs, so no command's work is done and every one
of them can be pressed in one window.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from viewer.widgets.note_field import NoteField
from viewer.window.actions import shortcut_lines
from viewer.window.shell import MainWindow

from .review_helpers import demo_window

MakeWindow = Callable[..., MainWindow]
README = Path(__file__).resolve().parents[2] / "README.md"
# How the README spells a key Qt names otherwise: Return is the Enter key.
README_NAMES = {"Return": "Enter"}
PORTABLE = QKeySequence.SequenceFormat.PortableText
MODIFIERS = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
             | Qt.KeyboardModifier.MetaModifier)


def bindings(window: MainWindow) -> dict[str, list[str]]:
    """Every key sequence of the window's actions and shortcuts, and what it is bound to."""
    bound: dict[str, list[str]] = defaultdict(list)
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            bound[seq.toString(PORTABLE)].append(action.text().replace("&", ""))
    for shortcut in window.findChildren(QShortcut):
        for seq in shortcut.keys():
            bound[seq.toString(PORTABLE)].append(f"shortcut {shortcut.objectName()}")
    return bound


def test_no_key_is_bound_twice(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    bound = bindings(window)
    assert {k: v for k, v in bound.items() if len(v) > 1} == {}
    # The window's well-known keys are where the README says.
    names = {k: v[0] for k, v in bound.items()}
    assert names["Ctrl+E"] == "Export…"
    assert names["Ctrl+Shift+E"] == "Review Everything"
    assert names["Ctrl+C"] == "Copy" and names["Ctrl+A"] == "Select All on Page"
    assert names["Ctrl+Shift+C"] == "Copy Citation"
    # F1's list names every menu command that has keys.
    listed = {line.split("\t")[1] for line in shortcut_lines(window)}
    in_menus = {a.text().replace("&", "") for a in window.findChildren(QAction)
                if a.shortcuts() and a.associatedObjects()}
    assert in_menus <= listed


def test_the_readme_names_every_key(qtbot: QtBot, make_window: MakeWindow,
                                    tmp_path: Path) -> None:
    """Each key of the window is written in the README as `key` (the digits that choose
    a copy as the range `1`–`9`)."""
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    readme = README.read_text(encoding="utf-8")
    named = set(re.findall(r"`([^`\n]+)`", readme))
    digits = "`1`–`9`" in readme
    keys = set(bindings(window))
    assert {"Ctrl+Q", "Ctrl+Shift+E", "Return", "5"} <= keys
    missing = sorted(k for k in keys if README_NAMES.get(k, k) not in named
                     and not (digits and k.isdigit()))
    assert missing == []


def single_keys(window: MainWindow) -> list[tuple[QAction, QKeySequence]]:
    """The actions run by one key that a text field could type (a letter, a digit, a
    sign; with Shift or without), each with that key."""
    out = []
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            combo = seq[0] if seq.count() == 1 else None
            if combo is None or combo.keyboardModifiers() & MODIFIERS:
                continue
            if combo.key().value < Qt.Key.Key_Escape.value:  # printable, as Qt counts it
                out.append((action, seq))
    return out


class Caught(QObject):
    """Takes the Shortcut events of the actions it watches (so none of them runs)."""

    def __init__(self) -> None:
        super().__init__()
        self.got: list[QObject] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Shortcut:
            self.got.append(watched)
            return True
        return False


@contextmanager
def catching(window: MainWindow) -> Iterator[Caught]:
    """Every action with keys enabled and watched, for as long as the block runs."""
    caught = Caught()
    actions = [a for a in window.findChildren(QAction) if a.shortcuts()]
    enabled = {a: a.isEnabled() for a in actions}
    for a in actions:
        a.setEnabled(True)
        a.installEventFilter(caught)
    try:
        yield caught
    finally:
        for a in actions:
            a.removeEventFilter(caught)
            a.setEnabled(enabled[a])


def key_click(qtbot: QtBot, widget: QWidget, seq: QKeySequence) -> str:
    combo = seq[0]
    qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())
    return seq.toString(PORTABLE)


def test_single_keys_work_from_the_page_and_lists_and_type_in_text_fields(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    window.session.select("c14")  # a claim with copies: the digit keys apply
    window.reader.find.open()  # the find field is shown
    keys = single_keys(window)
    assert len(keys) >= 25  # J K F N I C W R A S P X U E / and the digits 1–9 at least
    # A note field takes the keys even while it has nothing to note on (read-only).
    fields: list[QWidget] = [w for w in window.findChildren(QLineEdit)
                             if w.isVisibleTo(window)
                             and (not w.isReadOnly() or isinstance(w, NoteField))
                             and not isinstance(w.parentWidget(), QAbstractSpinBox)]
    fields += [w for w in window.findChildren(QAbstractSpinBox) if w.isVisibleTo(window)]
    assert {window.reader.find.bar.field, window.review.filter_bar.search,
            window.review.panel.evidence_note, window.page_box} <= set(fields)
    keeping = [window.view, window.claims, window.detail]
    with catching(window) as caught:
        for action, seq in keys:
            for widget in keeping:
                widget.setFocus()
                caught.got.clear()
                name = key_click(qtbot, widget, seq)
                assert caught.got == [action], f"{name} from {type(widget).__name__}"
            for field in fields:
                field.setEnabled(True)
                field.setFocus()
                caught.got.clear()
                before = field.text() if isinstance(field, QLineEdit) else ""
                name = key_click(qtbot, field, seq)
                assert caught.got == [], f"{name} ran a command from {field.accessibleName()}"
                if isinstance(field, QLineEdit):  # and the field typed it (or nothing)
                    typed = before if field.isReadOnly() else before + name[-1]
                    assert field.text().casefold() == typed.casefold(), name


def test_enter_or_esc_in_a_text_field_gives_the_keys_back(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    window.session.select("c9")
    find = window.reader.find
    for field, key in ((window.review.filter_bar.search, Qt.Key.Key_Return),
                       (window.page_box, Qt.Key.Key_Return),
                       (find.bar.field, Qt.Key.Key_Escape)):
        if field is find.bar.field:
            find.open()
        field.setFocus()
        assert field.hasFocus()
        qtbot.keyClick(field, key)
        assert window.view.hasFocus(), field.accessibleName()
        with catching(window) as caught:
            qtbot.keyClick(window.view, Qt.Key.Key_J)
        assert [a.text() for a in caught.got] == ["&Next Claim"]  # type: ignore[attr-defined]
