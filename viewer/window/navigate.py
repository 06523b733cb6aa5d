"""Every place a citation points to, one click away.

The detail pane links each evidence item to its page (switching to its document when a
claim's evidence is in two), to each copy of a quote that stands more than once on its
page, and to each other page a quote fits equally well; :class:`Navigator` follows those
links. For the other pages it asks the check process where the quote stands there, so
that those copies are highlighted too. Clicking the selected claim again centres its
highlight again. When the file names several documents, a list in the toolbar
(:class:`DocumentSwitch`) shows any of them, marking those the selected claim cites.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QObject
from PySide6.QtWidgets import QComboBox, QToolBar

from matcher.vocabulary import PLACED, Rect

from ..render.view import PageView
from ..state.links import Link
from ..state.records import EvidenceOutcome
from ..state.session import Change, Session
from ..widgets.claims import ClaimList
from ..widgets.detail import DetailPane
from .controller import Controller
from .review import ReviewController


@dataclass(frozen=True)
class Shown:
    """What these parts ask of the window about the document it shows."""

    document: Callable[[], str | None]  # the document shown (its id), if any
    show_document: Callable[[str], object]  # show another one
    show_selection: Callable[[], object]  # centre the selected claim's highlight again


class Navigator(QObject):
    """Follows the detail pane's links; fetches where a quote stands on its other pages."""

    def __init__(self, session: Session, view: PageView, controller: Controller,
                 review: ReviewController, detail: DetailPane, claims: ClaimList,
                 shown: Shown, *, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.view, self.controller = session, view, controller
        self.review, self.claims, self.shown = review, claims, shown
        self._asked: set[tuple[str, int]] = set()  # (claim, item) whose copies were asked
        detail.link.connect(self.follow)
        claims.clicked.connect(self._clicked)
        session.changed.connect(self._on_session)

    def _item(self, index: int) -> EvidenceOutcome | None:
        claim = self.session.claim_result(self.session.selected)
        if claim is None or not 0 <= index < len(claim.evidence):
            return None
        return claim.evidence[index]

    def follow(self, link: Link) -> None:
        """Go where ``link`` (an item's placement, one of its copies, another page) points."""
        kind, number = link.kind, link.number
        ev = self._item(link.item) if kind != "tip" else None
        if ev is None or ev.page is None or ev.document is None:
            return
        self.view.jumping.emit()  # Back returns here
        if kind == "show":
            # Where the review draws it (a relocation's page), else where the check put it.
            drawn = next((r for r in self.review.review.records(self.session.selected)
                          if r.index == ev.index), None)
            if drawn is not None and drawn.drawn and drawn.page is not None \
                    and drawn.document is not None:
                self.show(drawn.document, drawn.page - 1, drawn.rects)
            else:
                self.show(ev.document, ev.page - 1, ev.rects)
        elif kind == "copy" and number is not None:
            self.show(ev.document, ev.page - 1, *self._copy(ev, number))
        elif kind == "page" and number is not None:
            copies = self.session.other_copies.get((self.session.selected or "", ev.index), {})
            self.show(ev.document, number - 1, copies.get(number - 1, ()))

    @staticmethod
    def _copy(ev: EvidenceOutcome, k: int) -> tuple[tuple[Rect, ...]]:
        """The rectangles of copy ``k``: 0 the placement itself (its rectangles but those
        of its alternatives), 1… each alternative."""
        if 1 <= k <= len(ev.alternatives):
            return (ev.alternatives[k - 1].rects,)
        others = {r for alt in ev.alternatives for r in alt.rects}
        return (tuple(r for r in ev.rects if r not in others) or ev.rects,)

    def show(self, doc_id: str, page: int, rects: tuple[Rect, ...] = ()) -> None:
        """Show ``page`` (0-based) of ``doc_id`` with the selected claim's highlights, the
        band ``rects`` centred (the page's top when there are none)."""
        s, view = self.session, self.view
        if doc_id != self.shown.document():
            self.shown.show_document(doc_id)
        # What the review draws (decisions applied): a rejected highlight stays away.
        view.set_highlights(self.review.highlights(s.selected, doc_id))
        if rects:
            view.reveal(page, rects)
        else:
            view.go_to_page(page)

    def _clicked(self, index: QModelIndex) -> None:
        """A click on the claim already selected: centre its highlight again."""
        row = self.claims.model_.row(index.row()) if index.isValid() else None
        if row is not None and row.id == self.session.selected:
            self.shown.show_selection()

    def _on_session(self, change: Change) -> None:
        # Copies found on other pages are drawn by the review's refresh (decisions applied).
        if change == "report":
            self._asked.clear()
        elif change == "selection":
            self._ask_other_pages()

    def _ask_other_pages(self) -> None:
        """Ask where the selected claim's quotes stand on their other pages."""
        s = self.session
        claim = s.claim_result(s.selected)
        for ev in claim.evidence if claim is not None else ():
            key = (claim.id, ev.index) if claim is not None else ("", 0)
            doc = s.documents.get(ev.document or "")
            if ev.status not in PLACED or not ev.other_pages or key in self._asked \
                    or doc is None or not doc.usable:
                continue
            self._asked.add(key)
            path, password, quote = doc.path, doc.password, ev.quote
            pages = [p - 1 for p in ev.other_pages]
            self.controller.ask(
                lambda c, _p, cancel, pages=pages, path=path, password=password, quote=quote:
                c.place_on(path, quote, pages, password=password, cancel=cancel),
                lambda copies, key=key: s.set_other_copies(*key, copies),
                on_failure=lambda _exc: None, name="citeview-other-pages")


class DocumentSwitch(QObject):
    """A toolbar list of the citations file's documents, shown when it names more than one:
    choosing one shows it (with the selected claim's highlights on it, its first one
    centred). The documents that hold the selected claim's evidence are marked "●"."""

    def __init__(self, session: Session, view: PageView, toolbar: QToolBar,
                 navigator: Navigator, shown: Shown, *, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.navigator, self.shown = session, navigator, shown
        self.box = QComboBox()
        self.box.setAccessibleName("Document")
        self.box.setToolTip("The document shown; ● marks those holding the selected "
                            "claim's evidence")
        self.box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.action = toolbar.addWidget(self.box)
        self.action.setVisible(False)
        self._ids: list[str] = []
        self.box.activated.connect(self._chosen)
        session.changed.connect(
            lambda change: change in ("citations", "documents", "report", "selection")
            and self.refresh())
        view.document_changed.connect(self.refresh)

    def refresh(self) -> None:
        s = self.session
        ids = [d.id for d in s.citations.documents] if s.citations is not None else []
        self.action.setVisible(len(ids) > 1)
        claim = s.claim_result(s.selected)
        cited = {ev.document for ev in claim.evidence if ev.status in PLACED} \
            if claim is not None else set()
        self.box.blockSignals(True)
        self.box.clear()
        for doc_id in ids:
            doc = s.documents[doc_id]
            self.box.addItem(("● " if doc_id in cited else "") + doc.name)
        self._ids = ids
        shown = self.shown.document()
        if shown in ids:
            self.box.setCurrentIndex(ids.index(shown))
        self.box.blockSignals(False)

    def _chosen(self, row: int) -> None:
        if not 0 <= row < len(self._ids):
            return
        doc_id, s = self._ids[row], self.session
        claim = s.claim_result(s.selected)
        first = next((ev for ev in claim.evidence if ev.document == doc_id
                      and ev.status in PLACED and ev.page is not None), None) \
            if claim is not None else None
        if first is not None and first.page is not None:
            self.navigator.show(doc_id, first.page - 1, first.rects)
        elif s.documents[doc_id].usable:
            self.navigator.show(doc_id, 0)
        else:
            self.shown.show_document(doc_id)  # says why it shows nothing
