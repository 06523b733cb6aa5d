"""A screen reader can follow the window: every interactive widget, read through Qt's
accessibility interface (``QAccessible.queryAccessibleInterface``), has a name and a
description; claim rows read their id, text and badges; buttons their command and key.
Walked on the demo with the side panel and the find bar open."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QTabBar, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from viewer.state.presentation import status_word
from viewer.widgets.claims import ROW_ROLE
from viewer.window.accessibility import interactive
from viewer.window.shell import MainWindow

from .review_helpers import demo_window

MakeWindow = Callable[..., MainWindow]


def spoken(widget: QWidget) -> tuple[str, str]:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None and iface.isValid(), widget
    return iface.text(QAccessible.Text.Name), iface.text(QAccessible.Text.Description)


def test_every_interactive_widget_has_a_name_and_a_description(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 800))
    window.reader.side_panel.trigger()  # the side panel's tabs and lists too
    qtbot.wait(50)
    shown = [w for w in interactive(window.findChildren(QWidget)) if w.isVisible()]
    assert len(shown) > 25  # the walk reaches the toolbar, lists, panes and review panel
    unnamed, undescribed = [], []
    for widget in shown:
        name, description = spoken(widget)
        if isinstance(widget, QTabBar):  # Qt describes a tab bar by its tabs
            iface = QAccessible.queryAccessibleInterface(widget)
            tabs = [iface.child(i) for i in range(widget.count())]
            assert all(t.text(QAccessible.Text.Name) for t in tabs)
            if not all(t.text(QAccessible.Text.Description) for t in tabs):
                undescribed.append(f"a tab of {name!r}")
            continue
        if not name.strip():
            unnamed.append(f"{type(widget).__name__} {widget.objectName()!r}")
        if not description.strip():
            undescribed.append(f"{type(widget).__name__} {name!r}")
    assert unnamed == []
    assert undescribed == []


def test_buttons_say_their_command_and_key(qtbot: QtBot, make_window: MakeWindow,
                                           tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 800))
    buttons = {spoken(b)[0]: spoken(b)[1] for b in window.findChildren(QToolButton)
               if b.isVisible() and b.defaultAction() is not None}
    assert "key C" in buttons["Confirm (C)"] and "Confirm" in buttons["Confirm (C)"]
    assert "key J" in buttons["Claim ▶"]
    assert any("key" in d for d in buttons.values())


def test_claim_rows_read_id_text_and_badges(qtbot: QtBot, make_window: MakeWindow,
                                            tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 800))
    claims = window.claims
    iface = QAccessible.queryAccessibleInterface(claims)
    assert iface is not None
    model = claims.model()
    rows = [model.index(i, 0) for i in range(model.rowCount())]
    assert len(rows) >= 10
    said = []

    def walk(node: object, depth: int = 0) -> None:
        for i in range(node.childCount()):  # type: ignore[attr-defined]
            child = node.child(i)  # type: ignore[attr-defined]
            if child is not None:
                said.append(child.text(QAccessible.Text.Name))
                if depth < 2:
                    walk(child, depth + 1)

    walk(iface)
    for index in rows:
        row = index.data(ROW_ROLE)
        text = f"Claim {row.id}: {row.text}."
        assert any(s.startswith(text) for s in said), (text, said[:5])
        for badge in row.badges:
            assert any(s.startswith(text) and status_word(badge) in s for s in said)


def test_tab_goes_through_the_window_in_its_visual_order(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    """Pressing Tab from the toolbar visits the toolbar, then the claims side top to
    bottom (left to right on a row), then the pages and what is under them: each pane's
    stops in order on screen, measured from where they are drawn."""
    _cite, window = demo_window(qtbot, make_window, tmp_path, (1200, 800))
    window.activateWindow()
    window.page_box.setFocus()
    visited: list[QWidget] = []
    for _ in range(60):  # (Tab steps through the details' links before leaving them)
        widget = QApplication.focusWidget()
        if widget is None or (visited and widget is visited[0]):
            break
        if widget not in visited:
            visited.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    owners = [w.parentWidget() if isinstance(w.parentWidget(), QAbstractSpinBox) else w
              for w in visited]
    assert window.page_box in owners and window.claims in owners and window.view in owners
    left = [w for w in owners if window.left_panel.isAncestorOf(w)]
    right = [w for w in owners if window.splitter.widget(1).isAncestorOf(w)]
    assert owners.index(window.page_box) < owners.index(left[0]) < owners.index(right[0])
    assert owners.index(left[-1]) < owners.index(right[0])  # the left side, then the right
    for pane in (left, right):
        spots = [(w.mapTo(window, QPoint(0, 0)).y(), w.mapTo(window, QPoint(0, 0)).x())
                 for w in pane]
        rows = [(y // 20, x) for y, x in spots]  # a row: within 20 px of each other
        assert rows == sorted(rows), pane
