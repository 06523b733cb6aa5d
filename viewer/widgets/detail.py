"""The detail pane: the selected claim's evidence — quote, text found, score, reason.

It also says plainly when there is no highlight and why ("Not found in policy.pdf — no
highlight shown"; "This claim is uncited"), so a missing box is never a silent one.
"""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTextBrowser, QWidget

from ..palette import badge_color
from ..state.presentation import UNCITED_SENTENCE, BadgeStatus, status_word
from ..state.rows import EvidenceView
from ..state.session import Change, Session


class DetailPane(QTextBrowser):
    """Shows the session's selected claim; rebuilt whenever the session changes."""

    def __init__(self, session: Session, highlight: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.highlight = QColor(highlight)
        self.setOpenLinks(False)
        self.setMinimumHeight(120)
        session.changed.connect(self._on_change)
        self.refresh()

    def set_highlight(self, color: QColor) -> None:
        self.highlight = QColor(color)
        self.refresh()

    def _on_change(self, change: Change) -> None:
        if change in ("citations", "report", "selection", "documents"):
            self.refresh()

    def refresh(self) -> None:
        self.setHtml(self.html())

    def html(self) -> str:
        s = self.session
        if s.is_plain_pdf:
            return _p("This PDF was opened on its own, without a citations file: "
                      "a plain viewer. Open a citations file (.cite) to check its claims.")
        if s.citations is None:
            return _p("Open a citations file (.cite or .json) or a PDF: File ▸ Open, "
                      "or drop it on the window.")
        claim = next((c for c in s.citations.claims if c.id == s.selected), None)
        if claim is None:
            return _p("Select a claim to see its evidence.")
        parts = [f"<p><b>{escape(claim.id)}</b> — {escape(claim.text)}</p>"]
        if not claim.evidence:
            parts.append(self._badge("uncited") + " " + _p(UNCITED_SENTENCE))
        for ev in s.evidence_views(claim.id):
            parts.append(self._evidence(ev, len(claim.evidence)))
        return "".join(parts)

    def _badge(self, status: BadgeStatus) -> str:
        color = badge_color(status, self.highlight).name()
        return (f'<span style="background-color:{color}; color:#FFFFFF; font-weight:bold">'
                f"&nbsp;{escape(status_word(status))}&nbsp;</span>")

    def _evidence(self, ev: EvidenceView, count: int) -> str:
        head = f"Evidence {ev.index + 1} of {count}: " if count > 1 else ""
        out = [f"<hr><p>{escape(head)}{self._badge(ev.status)} <b>{escape(ev.notice)}</b></p>"]
        out.append(f"<p><b>Quote</b><br>“{escape(ev.quote)}”</p>")
        if ev.found_text:
            out.append(found_html(ev.found_text))
        facts = []
        if ev.score is not None:
            facts.append(f"score {ev.score:.1f}")
        if ev.page is not None:
            facts.append(f"page {ev.page}")
        if facts:
            out.append(f"<p>{escape(' · '.join(facts))}</p>")
        if ev.reason:
            out.append(f"<p><b>Reason</b><br>{escape(ev.reason)}</p>")
        return "".join(out)


def found_html(found: str) -> str:
    """The words found under the highlight, as the pane shows them. The one place they
    are rendered, so the words that differ from the quote can be marked here alone."""
    return f"<p><b>Found under the highlight</b><br>“{escape(found)}”</p>"


def _p(text: str) -> str:
    return f"<p>{escape(text)}</p>"
