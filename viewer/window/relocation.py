"""Relocating a quote by selecting words on the page, and the marks the review draws there.

Relocating (the ``R`` key) lets the reviewer drag across words with the window's own
word selection (:mod:`.page_selection`): it snaps to whole words using the page's own
word boxes, asked of the check process once per page and kept, and becomes one
rectangle per line in words space. ``Enter`` records it as the
item's ``relocated`` placement; ``Esc`` gives up. Besides the selection, the overlay
shows what the reviewer is deciding among: each copy of the quoted words, numbered, when
the placement is in doubt because the words stand more than once; the item being decided
when a claim has several; and words already confirmed or relocated.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ..render.overlay import Mark, Style
from ..state.outcome import AGREED
from ..state.review import copies
from ..state.selection import PageWordBoxes
from ..state.session import Change
from .page_selection import PageSelection, no_words
from .review import ReviewController


class Relocation(QObject):
    """Word selection on the page for the review, and the review's marks over the page."""

    changed = Signal()  # relocating started or ended, or the selection changed
    message = Signal(str)  # a sentence for the status bar

    def __init__(self, review: ReviewController, selecting: PageSelection,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.review = review
        self.session = review.session
        self.view = selecting.view
        self.overlay = selecting.overlay
        self.cache = selecting.cache
        self.cache.arrived.connect(self._arrived)
        self.drag = selecting.drag
        self.drag.changed.connect(self._on_selection)
        self.active = False
        review.changed.connect(self.refresh_marks)
        self.view.current_page_changed.connect(self._prefetch_current)
        self.session.changed.connect(self._on_session)

    # -- relocating ---------------------------------------------------------------------
    def start(self) -> bool:
        """Start selecting words for the current item; False when there is none or no
        usable document is shown."""
        item = self.review.item()
        if item is None or self.cache.document() is None:
            return False
        self.active = True
        self.drag.start()
        pages = {self.view.current_page}
        if item.outcome is not None and item.outcome.page is not None:
            pages.add(item.outcome.page - 1)
        for page in sorted(p for p in pages if p >= 0):
            self.words_of(page)
        self.message.emit("Drag across the words meant, then press Enter (Esc cancels).")
        self.changed.emit()
        return True

    def accept(self) -> bool:
        """Record the selected words as the current item's placement and stop."""
        selection = self.drag.selection
        if not self.active or selection is None:
            self.message.emit("Select the words first: drag across them on the page.")
            return False
        done = self.review.decide_placement(
            "relocated", page=selection.page.page + 1, rects=selection.line_rects(),
            document=self.session.shown_document, text=selection.text())
        self.stop()
        return done

    def stop(self) -> None:
        """Stop selecting (the selection is dropped)."""
        was = self.active
        self.active = False
        self.drag.stop()
        self.drag.clear()
        if was:
            self.changed.emit()
        self.refresh_marks()

    # -- the page's words ---------------------------------------------------------------
    def words_of(self, page: int) -> PageWordBoxes | None:
        return self.cache.words_of(page)

    def words_ready(self, page: int) -> bool:
        return self.cache.ready(page)

    def _arrived(self, page: int) -> None:
        words = self.cache.words_of(page)
        if self.active and words is not None and not words.words:
            self.message.emit(no_words(page))

    def _prefetch_current(self, page: int) -> None:
        if self.active and page >= 0:
            self.words_of(page)

    def _on_session(self, change: Change) -> None:
        if change == "selection" and self.active:
            self.stop()  # the words were to be for the claim that was selected

    def _on_selection(self, _selection: object) -> None:
        if self.active:  # otherwise the words are selected for copying, not for the review
            self.changed.emit()

    # -- marks --------------------------------------------------------------------------
    def refresh_marks(self) -> None:
        """Draw the review's marks for the selected claim on the shown document."""
        marks: list[Mark] = []
        state = self.review.state()
        doc = self.session.shown_document
        current = self.review.item()
        for item in state.items if state is not None else ():
            drawn = self.review.review.record(item)
            if not drawn.drawn or drawn.document != doc or drawn.page is None:
                continue
            if drawn.outcome in AGREED and drawn.shade != "differs":  # never green there
                marks.append(Mark(drawn.page - 1, drawn.rects, Style.DECIDED))
            elif current is not None and item.index == current.index and \
                    state is not None and len(state.items) > 1:
                marks.append(Mark(drawn.page - 1, drawn.rects, Style.CURRENT))
        if current is not None and current.outcome is not None and not current.decided \
                and current.outcome.document == doc:
            for n, copy in enumerate(copies(current.outcome), start=1):
                marks.append(Mark(copy.page - 1, copy.rects, Style.COPY, str(n)))
        self.overlay.set_marks(marks)  # the selection is drawn by the page selection
