"""Selecting the words of a page and copying them, as in any document reader.

:class:`PageSelection` puts the page's own word boxes under the mouse: a drag selects
whole words (:class:`~viewer.render.word_drag.WordDrag` over
:mod:`viewer.state.selection`, the words asked of the check process once a page by
:class:`~.page_words.PageWordsCache`), a double click a word, a triple click a line.
The selection is drawn in the selection style, never the highlight colour. Edit ▸ Copy
(Ctrl+C) puts its words on the clipboard in reading order, a line of the page a line of
text; Edit ▸ Select All on Page (Ctrl+A) takes every word of the page in view; Esc on the
page clears it, and so does showing another document.

Relocating a quote (:mod:`.relocation`) selects with this same drag while it runs; what
is selected then is the relocation's, and Enter records it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QClipboard, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMenu

from ..render.overlay import SELECTION_LAYER, Mark, PageOverlay, Style
from ..render.view import PageView
from ..render.word_drag import WordDrag
from ..state.selection import WordSelection
from ..state.session import Session
from .actions import command
from .controller import Controller
from .page_words import PageWordsCache


def no_words(page: int) -> str:
    """Said of a 0-based page whose words are asked for but that has none."""
    return (f"Page {page + 1} has no words to select (a scanned page whose text has not "
            "been recognised yet).")


class PageSelection(QObject):
    """The words selected on the shown document's pages, and copying them."""

    changed = Signal()  # the selection changed (or was cleared)
    message = Signal(str)  # a sentence for the status bar

    def __init__(self, session: Session, view: PageView, controller: Controller,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.cache = PageWordsCache(session, controller, self)
        self.drag = WordDrag(view, self.cache.words_of)
        self.overlay = PageOverlay(view)  # the review's marks are drawn on it too
        S = QKeySequence.StandardKey
        self.copy_action = command(self, "&Copy", self.copy, S.Copy,
                                   tip="Copy the words selected on the page")
        self.select_all_action = command(self, "Select &All on Page", self.select_all,
                                         S.SelectAll,
                                         tip="Select every word of the page in view")
        self.cache.arrived.connect(self.drag.words_arrived)
        self.cache.failed.connect(self.message)
        self.drag.changed.connect(self._on_changed)
        self.drag.finished.connect(self._finished)
        view.document_changed.connect(self._document_changed)
        view.installEventFilter(self)  # Esc on the page
        view.menu_parts.append(self._add_to_menu)
        self._on_changed(None)
        self._document_changed()

    @property
    def selection(self) -> WordSelection | None:
        return self.drag.selection

    def text(self) -> str:
        """The selected words in reading order, a space between words, a newline
        between lines ("" when nothing is selected)."""
        return self.selection.text() if self.selection is not None else ""

    def copy(self) -> bool:
        """Put the selected words on the clipboard; False when nothing is selected."""
        selection = self.selection
        if selection is None:
            return False
        QGuiApplication.clipboard().setText(selection.text())
        n = len(selection.words())
        self.message.emit(f"Copied {n} word{'s' * (n != 1)} from page "
                          f"{selection.page.page + 1}.")
        return True

    def select_all(self) -> None:
        """Select every word of the page in view (once its words are known)."""
        page = self.view.current_page
        if page < 0:
            return
        self.drag.select_page(page)
        words = self.cache.words_of(page)
        if words is not None and not words.words:
            self.message.emit(no_words(page))

    def clear(self) -> None:
        self.drag.clear()

    def _on_changed(self, selection: WordSelection | None) -> None:
        marks = [Mark(selection.page.page, selection.line_rects(), Style.SELECTION)] \
            if selection is not None else []
        self.overlay.set_marks(marks, layer=SELECTION_LAYER)
        self.copy_action.setEnabled(selection is not None)
        self.changed.emit()

    def _finished(self, selection: WordSelection | None) -> None:
        """A drag ended: where the platform has a selection clipboard (X11's primary
        selection, pasted with the middle button), the words go there, as text
        selected anywhere else does."""
        clipboard = QGuiApplication.clipboard()
        if selection is not None and clipboard.supportsSelection():
            clipboard.setText(selection.text(), QClipboard.Mode.Selection)

    def _document_changed(self) -> None:
        self.drag.clear()
        self.select_all_action.setEnabled(self.view.doc is not None)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() == Qt.Key.Key_Escape and self.selection is not None \
                    and not self.drag.active:
                self.clear()
                return True
        return False

    def _add_to_menu(self, menu: QMenu, _point: QPointF) -> None:
        """The page's context menu: Copy first when words are selected."""
        if self.selection is not None:
            menu.addAction(self.copy_action)
            menu.addSeparator()
