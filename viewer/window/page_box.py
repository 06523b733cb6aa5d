"""The toolbar's page number box, kept in step with the page view.

It shows the page at the middle of the view and "of N" (by its label, its number beside
it, where the PDF labels its pages: "xi (11)"); typing a number or a label and Enter (or
Ctrl+G, a number or label, Enter) shows that page and gives the keys back to the pages, so J, K
and F work again at once. A page asked for before the document is open (``--page``) is
shown once it is, or said to be out of range: never silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QSpinBox

from ..render.view import PageView
from ..widgets.page_spin import PageSpinBox

# Says that an asked-for page does not exist (the window's notice bar shows it).
Complain = Callable[[str], None]


class PageBox(QObject):
    """The page number box and its "of N" label, tied to a page view."""

    def __init__(self, view: PageView, box: QSpinBox, count: QLabel, complain: Complain
                 ) -> None:
        super().__init__(view)
        self.view, self.box, self.count = view, box, count
        self.complain = complain
        self.pending: int | None = None  # 0-based page asked for before a document showed
        self.document_name = ""  # the shown document's file name, for a complaint
        box.valueChanged.connect(self._changed)
        box.lineEdit().returnPressed.connect(self._entered)
        view.current_page_changed.connect(self._on_page)

    def focus(self) -> None:
        """Ctrl+G: into the box, its number selected to type over."""
        self.box.setFocus()
        self.box.selectAll()

    def go_to_when_ready(self, index: int) -> None:
        """Show page ``index`` (0-based) now, or once a document is shown."""
        if self.view.page_count():
            self._go(index)
        else:
            self.pending = index

    def document_shown(self, name: str) -> None:
        """A document is shown (or none, ``name`` empty): show the page asked for."""
        self.document_name = name
        self.update()
        if self.pending is not None and self.view.page_count():
            index, self.pending = self.pending, None
            self._go(index)

    def _go(self, index: int) -> None:
        n = self.view.page_count()
        if 0 <= index < n:
            self.view.jumping.emit()  # Back returns here
            self.view.go_to_page(index)
            return
        name = self.document_name or "the document"
        self.complain(f"There is no page {index + 1}: {name} has {n} page{'s' * (n != 1)}.")

    def update(self) -> None:
        n = self.view.page_count()
        self.box.blockSignals(True)
        if isinstance(self.box, PageSpinBox):  # the labels, when the document has them
            lay = self.view.pages_layout
            self.box.set_labels([p.info.label for p in lay.pages] if lay is not None else [])
        self.box.setRange(1 if n else 0, n)
        self.box.setValue(self.view.current_page + 1 if n else 0)
        self.box.blockSignals(False)
        self.count.setText(f" of {n} ")

    def _on_page(self, index: int) -> None:
        self.box.blockSignals(True)
        self.box.setValue(index + 1 if index >= 0 else 0)
        self.box.blockSignals(False)

    def _changed(self, value: int) -> None:
        if value >= 1:
            self.view.jumping.emit()  # Back returns here
            self.view.go_to_page(value - 1)

    def _entered(self) -> None:
        # The number is taken (valueChanged, keyboard tracking off); the keys go back.
        self.box.interpretText()
        self.view.setFocus()
