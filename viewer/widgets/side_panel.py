"""The side panel beside the pages: thumbnails, the outline, and the find results.

Three tabs, each a widget of its own (:mod:`.thumbnails`, :mod:`.outline`,
:mod:`.find_hits`); the panel only holds them and says which page or hit was chosen.
The Outline tab is disabled when the document has no bookmarks.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTabWidget, QWidget

from ..render.renderer import Renderer
from ..state.find import FindResults
from .find_hits import FindHitList
from .outline import OutlineTree
from .thumbnails import ThumbnailList

PAGES, OUTLINE, RESULTS = 0, 1, 2


class SidePanel(QTabWidget):
    """Pages, Outline and Results tabs; ``page_chosen`` / ``hit_chosen`` from them."""

    page_chosen = Signal(int)  # 0-based
    place_chosen = Signal(int, object)  # 0-based page and a words-space point on it
    hit_chosen = Signal(int)  # index into the find results

    def __init__(self, renderer: Renderer, results: FindResults, highlight: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("side-panel")
        self.thumbnails = ThumbnailList(renderer, highlight)
        self.outline = OutlineTree()
        self.hits = FindHitList(results)
        self.addTab(self.thumbnails, "Pages")
        self.addTab(self.outline, "Outline")
        self.addTab(self.hits, "Results")
        bar = self.tabBar()
        bar.setUsesScrollButtons(False)  # three short names: all of them always in view
        bar.setExpanding(True)
        bar.setElideMode(Qt.TextElideMode.ElideRight)
        self.setTabToolTip(PAGES, "A thumbnail of every page; evidence pages are marked")
        self.setTabToolTip(RESULTS, "Every match of the find bar's text, by page")
        self.set_outline_available(False)
        self.thumbnails.page_chosen.connect(self.page_chosen)
        self.outline.page_chosen.connect(self.page_chosen)
        self.outline.place_chosen.connect(self.place_chosen)
        self.hits.hit_chosen.connect(self.hit_chosen)
        # As narrow as a column of thumbnails, but never so narrow the tabs' names are cut.
        self.setMinimumWidth(max(self.thumbnails.minimumWidth() + 8, bar.sizeHint().width() + 4))

    def set_outline_available(self, available: bool) -> None:
        self.setTabEnabled(OUTLINE, available)
        self.setTabToolTip(OUTLINE, "The document's bookmarks" if available
                           else "This PDF has no outline (bookmarks)")
        if not available and self.currentIndex() == OUTLINE:
            self.setCurrentIndex(PAGES)
