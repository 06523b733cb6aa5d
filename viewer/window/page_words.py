"""The shown document's page words, asked of the check process once a page and kept.

Selecting words on a page (relocating a quote, copying text) needs the page's own word
boxes, which only the check process can read. :class:`PageWordsCache` asks for a page the
first time it is wanted, in the background, and says when it has arrived; pages asked
for again are answered from memory (the pages used last, up to :data:`KEPT_PAGES`). It
knows nothing about what the words are for.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, Signal

from ..state.selection import PageWordBoxes
from ..state.session import Session
from .controller import Controller

# Pages whose words are kept. A page's words take roughly 100 kB; a reader selecting text
# works on a few pages at a time, and a page dropped is simply asked for again.
KEPT_PAGES = 64


class PageWordsCache(QObject):
    """Page words of the session's shown document, fetched once a page."""

    arrived = Signal(int)  # 0-based page of the shown document whose words came
    failed = Signal(str)  # a sentence: a page's words could not be read

    def __init__(self, session: Session, controller: Controller,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.controller = controller
        # (document path, page) → its words, the page used last at the end.
        self.words: OrderedDict[tuple[str, int], PageWordBoxes] = OrderedDict()
        self._asked: set[tuple[str, int]] = set()

    def document(self) -> tuple[str, str | None] | None:
        """The shown document's path and password, if it can be read."""
        doc_id = self.session.shown_document
        doc = self.session.documents.get(doc_id) if doc_id is not None else None
        if doc is None or not doc.usable:
            return None
        return str(doc.path), doc.password

    def words_of(self, page: int) -> PageWordBoxes | None:
        """The words of 0-based ``page`` if known; else they are asked for (once), None
        is returned and :attr:`arrived` says when they are here."""
        doc = self.document()
        if doc is None:
            return None
        path, password = doc
        key = (path, page)
        known = self.words.get(key)
        if known is not None:
            self.words.move_to_end(key)
            return known
        if key in self._asked:
            return None
        self._asked.add(key)

        def came(words: PageWordBoxes) -> None:
            self.words[key] = words
            while len(self.words) > KEPT_PAGES:
                self.words.popitem(last=False)
            self._asked.discard(key)
            if self.document() == doc:
                self.arrived.emit(page)

        def failed(exc: BaseException) -> None:
            self._asked.discard(key)
            self.failed.emit(f"The words of page {page + 1} could not be read: {exc}")

        self.controller.ask(lambda c, _p, cancel: c.words(path, page, password=password,
                                                          cancel=cancel),
                            came, on_failure=failed, name="citeview-words")
        return None

    def ready(self, page: int) -> bool:
        doc = self.document()
        return doc is not None and (doc[0], page) in self.words
