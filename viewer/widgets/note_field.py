"""A note field that keys never pass through: while it has focus, every key it is given
is text (or nothing), never one of the window's single-key review commands.

The review's commands are single letters bound as window shortcuts. A plain
:class:`QLineEdit` keeps some keys from them only while it is editable; a disabled one
cannot take the focus at all, so a click into it leaves the keys on the page, where each
letter decides something. This field is never disabled: where there is nothing to note
on yet it is read-only, says why in its placeholder, and swallows the keys.
"""

from __future__ import annotations

from collections.abc import Hashable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

# Modifiers that make a key a command even in a text field (Ctrl+Z, Ctrl+S, Alt+menu):
# those stay the window's. Any other key is the field's.
COMMAND_MODIFIERS = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                     | Qt.KeyboardModifier.MetaModifier)
# Keys that hand the keyboard back to the page.
DONE_KEYS = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape})
# Keys that move the focus on (kept: they make no decision).
FOCUS_KEYS = frozenset({Qt.Key.Key_Tab, Qt.Key.Key_Backtab})


def is_text_key(event: QKeyEvent) -> bool:
    """The key belongs to the field: it has no command modifier and does not move focus."""
    return not (event.modifiers() & COMMAND_MODIFIERS) and event.key() not in FOCUS_KEYS


class NoteField(QLineEdit):
    """A one-line note that takes every key while it has the focus."""

    done = Signal()  # Enter or Esc: the keys are the page's again
    # The decision noted on (what :attr:`subject` was when the editing began) and the note:
    # the note goes to that decision even if another claim was selected meanwhile.
    kept = Signal(object, str)

    def __init__(self, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placeholder = placeholder
        self.waiting = ""  # why there is nothing to note on yet ("" when there is)
        self.subject: Hashable | None = None  # the decision the note shown belongs to
        self._editing: Hashable | None = None  # the one being noted on since focus came
        self.setPlaceholderText(placeholder)
        self.setClearButtonEnabled(True)
        self.editingFinished.connect(self._finished)

    def _finished(self) -> None:
        if not self.isReadOnly() and self._editing is not None:
            self.kept.emit(self._editing, self.text())

    def show_note(self, note: str | None, waiting: str, subject: Hashable | None = None
                  ) -> None:
        """Show ``note`` (of decision ``subject``); with None, show ``waiting`` (why no
        note can be made yet) and take no text. The text being typed is kept while the
        field has the focus; typed about another decision, it is kept for that one first."""
        was_waiting = self.isReadOnly()
        if self.hasFocus() and not was_waiting and self._editing is not None \
                and self._editing != subject and self.isModified():
            self.kept.emit(self._editing, self.text())
        self.subject = subject if note is not None else None
        if not self.hasFocus() or was_waiting or self._editing != self.subject:
            self._editing = self.subject
            self.setModified(False)
        self.waiting = waiting if note is None else ""
        self.setReadOnly(note is None)
        self.setClearButtonEnabled(note is not None)
        self.setPlaceholderText(waiting if note is None else self._placeholder)
        self.setToolTip(waiting if note is None else "")
        if note is None:
            self.setText("")
        elif not self.hasFocus() or was_waiting or not self.isModified():
            self.setText(note)
            self.setCursorPosition(0 if not self.hasFocus() else len(note))

    def focusInEvent(self, event: QFocusEvent) -> None:
        self._editing = self.subject
        super().focusInEvent(event)

    def event(self, event: QEvent) -> bool:
        # A shortcut is offered to the focused widget first: claiming it here keeps a
        # letter typed into the note from running as a review command.
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and is_text_key(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in DONE_KEYS and not (event.modifiers() & COMMAND_MODIFIERS):
            if event.key() != Qt.Key.Key_Escape and not self.isReadOnly():
                super().keyPressEvent(event)  # Enter: the note is kept (editingFinished)
            self.done.emit()
            event.accept()
            return
        if self.isReadOnly() and is_text_key(event):
            event.accept()  # nothing to note on yet: the key goes nowhere
            return
        super().keyPressEvent(event)
