"""A claim's consistency kept in step with the review: once a person decides where its
evidence stands (confirms, relocates, marks a wrong place or an absent quote, or undoes
one of those), its figures, dates and negations are read again against the words its
evidence now stands on, in the check process, and the session takes the reply.

The GUI process never imports the matcher's reading of figures (:mod:`matcher.consistency`
needs rapidfuzz, which the import contracts keep out of it), so the words are worked out
here by the one rule (:mod:`viewer.state.standing`), sent as a
:class:`~viewer.checker.protocol.Reconsider` through the controller's one door to
background calls, and the reply is put with :meth:`Session.set_consistency`, which tells
the claims list, the detail pane, the summary and the review queue once. A reply about
words that have changed again since it was asked is dropped (the newer ask follows).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject

from ..state.records import Consistency
from ..state.session import Change, Session
from ..state.standing import Standing, standing
from .controller import Controller
from .review import ReviewController

log = logging.getLogger(__name__)


class ConsistencyFollower(QObject):
    """Asks for a claim's consistency again whenever its evidence's words change."""

    def __init__(self, session: Session, review: ReviewController, controller: Controller,
                 *, say: Callable[[str], None] = lambda _text: None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.review, self.controller, self.say = session, review, controller, say
        # Per claim, the words its consistency in the session was (or is being) read
        # against, for the claims a decision touched since the report came in.
        self._asked: dict[str, Standing] = {}
        session.changed.connect(self._on_session)
        review.changed.connect(self.follow)

    def _on_session(self, change: Change) -> None:
        if change in ("citations", "report"):
            self._asked.clear()  # the check's own consistency: no decision read into it
        if change in ("report", "documents"):
            self.follow()

    def follow(self) -> None:
        """Ask again for each claim whose evidence stands on other words than last asked."""
        if self.session.report is None:
            return
        review = self.review.review
        touched = {d.claim for d in review.decisions.evidence.values()} | set(self._asked)
        for claim_id in sorted(touched):
            state = review.claim_state(claim_id)
            if state is None:
                continue
            words = standing(state)
            if self._asked.get(claim_id) == words:
                continue
            self._asked[claim_id] = words
            self._ask(claim_id, state.claim.text, words)

    def _ask(self, claim_id: str, text: str, words: Standing) -> None:
        def done(value: Consistency) -> None:
            if self._asked.get(claim_id) == words:  # else newer words are being asked
                self.session.set_consistency(claim_id, value)

        def failed(exc: BaseException) -> None:
            log.warning("consistency of %s not read again: %s", claim_id, exc)
            self.say(f"Claim {claim_id}'s figures could not be read against its evidence "
                     f"again ({exc}); press F5 to check again.")

        self.controller.ask(
            lambda c, _p, cancel: c.reconsider(text, words.texts, words.pages, cancel=cancel),
            done, on_failure=failed, name="citeview-consistency")
