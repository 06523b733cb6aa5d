"""Names and descriptions for a screen reader, given to every interactive widget.

Qt's accessibility interface (``QAccessible``) reads a widget's accessible name and
description. Many widgets have a name from their text (a button's label), but not a
description, and views, fields and panes have neither. :func:`name_widgets` walks the
window once it is built (and again when parts are added) and gives each interactive
widget what it lacks: buttons their command and its key ("Confirm placement — key C"),
text fields what they are for (from their placeholder, its key hint kept for the
description), the panes and views the names below. Names already set are kept. A
claim row reads its id, text and badges (the claims model's accessible text,
:func:`viewer.widgets.claims.accessible_row_text`).

:func:`visual_focus_order` makes Tab go through the window as it is laid out: the
toolbar left to right, then the claims side top to bottom (search, filter, claims,
details), then the pages and the review panel under them.

It owns no widget: it only labels what the window's parts made, and orders their focus.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QTabBar,
    QToolBar,
    QToolButton,
    QWidget,
)

from ..widgets.buttons import action_description

# What each pane or view is, by its class name: (name, description).
PANES: dict[str, tuple[str, str]] = {
    "PageView": ("Document pages",
                 "The pages of the document shown, with the selected claim's highlights. "
                 "Arrow keys and Page Up or Down scroll; drag to select words; Ctrl+C "
                 "copies them."),
    "SidePanel": ("Side panel", "Page thumbnails, the document's outline and the find "
                                "results, a tab each; F4 shows or hides it."),
    "ThumbnailList": ("Page thumbnails", "Every page of the document; Enter shows the "
                                         "page chosen. Evidence pages are marked."),
    "OutlineTree": ("Outline", "The document's bookmarks; Enter goes to the one chosen."),
    "FindHitList": ("Find results", "Every match of the find bar's text by page; Enter "
                                    "shows the one chosen."),
    "ClaimList": ("Claims", "Every claim with its badges; J and K step through them, F "
                            "to the next flagged one."),
    "DetailPane": ("Claim details", "The selected claim, its quotes, the text found, the "
                                    "score and the reason."),
    "QComboBox": ("Filter", "Which claims the list shows."),
    "QTabBar": ("Tabs", "Choose a tab with the arrow keys."),
}
_KEY_HINT = re.compile(r"\s*\(([^()]*)\)\s*$")  # "Note on the claim (Shift+E)"


def name_widgets(root: QWidget) -> list[QWidget]:
    """Give every interactive widget under ``root`` an accessible name and description
    where it has none; returns those still without a name (none, when all went well)."""
    unnamed = []
    for widget in interactive(root.findChildren(QWidget)):
        name, description = _wanted(widget)
        if not widget.accessibleName() and name:
            widget.setAccessibleName(name)
        if not widget.accessibleDescription() and description:
            widget.setAccessibleDescription(description)
        if not widget.accessibleName() and not _has_own_name(widget):
            unnamed.append(widget)
    return unnamed


def interactive(widgets: Iterable[QWidget]) -> list[QWidget]:
    """The widgets a person can reach or press: buttons, and what takes the focus
    (the line edit inside a spin box or a combo box speaks through its owner)."""
    out = []
    for w in widgets:
        parent = w.parentWidget()
        if isinstance(parent, (QAbstractSpinBox, QComboBox)) and isinstance(w, QLineEdit):
            continue
        if isinstance(w, QAbstractButton) or w.focusPolicy() != Qt.FocusPolicy.NoFocus:
            out.append(w)
    return out


def _has_own_name(widget: QWidget) -> bool:
    """A button or tab bar is named by its text, as Qt reads it."""
    if isinstance(widget, QAbstractButton):
        return bool(widget.text().strip())
    return isinstance(widget, QTabBar) and widget.count() > 0


def _wanted(widget: QWidget) -> tuple[str, str]:
    """The name and description ``widget`` should have."""
    if isinstance(widget, QToolButton) and widget.defaultAction() is not None:
        action = widget.defaultAction()
        what = (action.toolTip() or action.text()).replace("&", "")
        name = widget.text().replace("&", "") or what
        return name, action_description(action)
    if isinstance(widget, QAbstractButton):
        text = widget.text().replace("&", "")
        return text, widget.toolTip() or text
    if isinstance(widget, QLineEdit):
        hint = widget.placeholderText()
        keys = _KEY_HINT.search(hint)
        name = _KEY_HINT.sub("", hint) or widget.toolTip() or "Text field"
        description = widget.toolTip() or (f"{name} — key {keys.group(1)}" if keys else name)
        return name, description
    for cls in type(widget).__mro__:
        if cls.__name__ in PANES:
            return PANES[cls.__name__]
    tip = widget.toolTip()
    return tip, tip


def tab_stops(root: QWidget) -> list[QWidget]:
    """The widgets Tab stops at under ``root``, in the order they were made."""
    tab = Qt.FocusPolicy.TabFocus
    return [w for w in interactive(root.findChildren(QWidget))
            if (w.focusPolicy() & tab) == tab and not isinstance(w, QTabBar)]


def visual_focus_order(window: QWidget, panes: Sequence[QWidget]) -> list[QWidget]:
    """Chain Tab through ``window``'s tab stops pane by pane: the toolbars first, then
    each of ``panes`` in the order given, then the rest; within a pane, in the order
    of their layouts (a box layout's order is its order on screen). Returns the order."""
    stops = [w for w in tab_stops(window) if w.window() is window]  # not a popup's

    def pane_of(w: QWidget) -> int:
        for n, pane in enumerate(panes, 1):
            if pane is w or pane.isAncestorOf(w):
                return n
        parent = w.parentWidget()
        while parent is not None:
            if isinstance(parent, QToolBar):
                return 0
            parent = parent.parentWidget()
        return len(panes) + 1

    order = sorted(stops, key=lambda w: (pane_of(w), layout_path(w)))
    for a, b in itertools.pairwise(order):
        QWidget.setTabOrder(a, b)
    return order


def layout_path(widget: QWidget) -> tuple[int, ...]:
    """Where ``widget`` stands in its ancestors' layouts (or splitters), outermost first:
    sorting by it puts widgets in their order on screen."""
    path: list[int] = []
    child, parent = widget, widget.parentWidget()
    while parent is not None:
        layout = parent.layout()
        index = layout.indexOf(child) if layout is not None else -1
        if index < 0 and hasattr(parent, "indexOf"):
            try:
                index = int(parent.indexOf(child))  # a splitter, a tab widget
            except TypeError:
                index = -1
        path.append(max(index, 0))
        child, parent = parent, parent.parentWidget()
    return tuple(reversed(path))
