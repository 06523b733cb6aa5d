"""What a button that presses a command says to a screen reader: the command (its
tooltip: what it does, or why it cannot be done now) and its key.

One wording, used where the window names its buttons once it is built
(:mod:`viewer.window.accessibility`) and where a panel keeps a button's description
following its command (a decision greyed out says why, :mod:`.review_panel`).
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def action_description(action: QAction) -> str:
    """``action``'s tooltip (else its text) and its key: "Confirm placement — key C"."""
    what = (action.toolTip() or action.text()).replace("&", "")
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{what} — key {keys}" if keys else what
