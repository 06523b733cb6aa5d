"""Context menus: a claim's (copy its quote, found text or citation) and the page's.

Both menus are built from parts (``ClaimList.menu_parts``, ``PageView.menu_parts``), so
other parts of the window add their own entries beside these. The page's menu offers
what applies where it was opened — "Copy Found Text" over the selected claim's
highlight — and the view commands (find, zoom, turn, print).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu, QStatusBar

from ..render.view import PageView
from ..state.copying import citation_text, found_text, quotes_text
from ..state.presentation import decision_sentence, placement_word, support_word
from ..state.session import Session
from .review import ReviewController


def copy(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


class ClaimCopying:
    """Copy Quote / Copy Found Text / Copy Citation, for any claim."""

    def __init__(self, session: Session, review: ReviewController, status: QStatusBar) -> None:
        self.session, self.review, self.status = session, review, status

    def texts(self, claim_id: str) -> tuple[str, str, str]:
        """The claim's quotes, found text and citation, as the clipboard gets them."""
        s = self.session
        claim = s.citations.claim(claim_id) if s.citations is not None else None
        views = s.evidence_views(claim_id)
        state = self.review.review.claim_state(claim_id)
        placements = [decision_sentence(placement_word(i.decision.placement),
                                        reviewer=i.decision.reviewer, at=i.decision.at,
                                        note=i.decision.note, stale=bool(i.stale))
                      if i.decision is not None else "" for i in
                      (state.items if state is not None else ())]
        s_ = state.support if state is not None else None
        support = decision_sentence(support_word(s_.support), reviewer=s_.reviewer, at=s_.at,
                                    note=s_.note, stale=bool(state and state.support_stale)) \
            if s_ is not None else ""
        return (quotes_text(views), found_text(views),
                citation_text(claim_id, claim.text if claim is not None else "", views,
                              placements, support))

    def add_to(self, menu: QMenu, claim_id: str) -> None:
        """The claims list's part: its three copy commands for ``claim_id``."""
        quote, found, citation = self.texts(claim_id)
        for label, text, none in (("Copy Quote", quote, "no quote"),
                                  ("Copy Found Text", found, "nothing was found"),
                                  ("Copy Citation", citation, "")):
            action = menu.addAction(label)
            action.setEnabled(bool(text))
            if not text:
                action.setToolTip(none)
            action.triggered.connect(lambda _c=False, t=text: copy(t))

    def copy_selected(self, which: int) -> None:
        """Edit ▸ Copy …: 0 quote, 1 found text, 2 citation, of the selected claim."""
        claim = self.session.selected
        if claim is not None:
            text = self.texts(claim)[which]
            if text:
                copy(text)
                self.status.showMessage("Copied.", 3000)


class PageMenu:
    """The page's context menu part."""

    def __init__(self, session: Session, view: PageView,
                 commands: Callable[[], Sequence[QAction | None]]) -> None:
        self.session, self.view = session, view
        self.commands = commands  # the view commands to list (None: a separator)

    def found_at(self, point: QPointF) -> str:
        """The found text of the selected claim's item painted under ``point``."""
        view = self.view
        pages = {page for page, rect in view.painted_highlights if rect.contains(point)}
        if not pages:
            return ""
        claim = self.session.claim_result(self.session.selected)
        texts = [ev.found_text for ev in claim.evidence if ev.page is not None
                 and ev.page - 1 in pages and ev.found_text] if claim is not None else []
        return "\n".join(texts)

    def add_to(self, menu: QMenu, point: QPointF) -> None:
        found = self.found_at(point)
        if found:
            menu.addAction("Copy Found Text").triggered.connect(lambda: copy(found))
            menu.addSeparator()
        for action in self.commands():
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
