"""The detail pane: the selected claim's evidence — quote, text found, score, reason.

It also says plainly when there is no highlight and why ("Not found in policy.pdf — no
highlight shown"; "This claim is uncited"), so a missing box is never a silent one. A
quote that differs from the words found under its highlight is shown word by word (the
matcher's ``word_diff``): the quote's words the page lacks are marked, with the page's word
beside them, and page words the quote dropped are dimmed, so "$952.18 ≠ $925.18" is seen
without reading both passages. None of these marks uses the highlight colour.

Every place an item points to is a link: "Show" (its page, in its document, which may
not be the one on screen), each other copy of a quote that stands more than once, and
each other page a quote fits equally well. A link is ``show:I``, ``copy:I:K`` or
``page:I:N`` (item I; copy K, 0 the placement itself, then its alternatives; 1-based
page N); :attr:`DetailPane.link` says which was
clicked, as a parsed :class:`~viewer.state.links.Link`. Hovering a badge or the score explains it.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtGui import QColor, QHelpEvent
from PySide6.QtWidgets import QTextBrowser, QToolTip, QWidget

from matcher.vocabulary import PLACED

from ..palette import DIMMED_CONTRAST, TEXT_CONTRAST, badge_color, legible
from ..state.links import Link
from ..state.presentation import (
    DIFFERS,
    SCORE_EXPLANATION,
    STATUS_WORDS,
    UNCITED_SENTENCE,
    BadgeStatus,
    DiffMark,
    consistency_sentence,
    diff_marks,
    difference_pair,
    explain,
    status_word,
)
from ..state.rows import EvidenceView
from ..state.session import Change, Session

# How a marked word is drawn (rich text): a quoted word the page lacks, and the page word
# against it, bold and underlined in red; a page word the quote left out in grey.
DIFF_STYLES: dict[DiffMark, str] = {
    "changed": "color:#B3261E; font-weight:bold; text-decoration:underline",
    "dropped": "color:#8A8F98",
}
# Each mark's colour and the contrast it keeps on the pane's background, whatever the
# palette (a dark one lightens the red: :func:`~viewer.palette.legible`).
DIFF_COLORS: dict[DiffMark, tuple[str, float]] = {
    "changed": ("#B3261E", TEXT_CONTRAST), "dropped": ("#8A8F98", DIMMED_CONTRAST)}


def diff_styles(background: QColor) -> dict[DiffMark, str]:
    """:data:`DIFF_STYLES` with each colour made legible on ``background`` (unchanged on
    the light palette's white)."""
    out = {}
    for mark, style in DIFF_STYLES.items():
        color, minimum = DIFF_COLORS[mark]
        out[mark] = style.replace(color, legible(QColor(color), background, minimum).name()
                                  .upper())
    return out


# The evidence items of one claim the pane lists. A real answer's claim cites a handful;
# a claim of thousands made the pane lay out and reflow all of them on every change
# (10,000 items: 9 s a selection), and no one reads past the first screens anyway.
MAX_ITEMS_SHOWN = 100

class DetailPane(QTextBrowser):
    """Shows the session's selected claim; rebuilt whenever the session changes."""

    link = Signal(object)  # a Link: a place an item points to was clicked (module docstring)

    def __init__(self, session: Session, highlight: QColor,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.highlight = QColor(highlight)
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.setMinimumHeight(120)
        # The copy the review chose for an item (claim id, item → its number in reading
        # order, or None): given by the window's review part, so the pane shows it.
        self.chosen: Callable[[str, int], int | None] = lambda _claim, _index: None
        session.changed.connect(self._on_change)
        self.refresh()

    def _styles(self) -> dict[DiffMark, str]:
        """How marked words are drawn, legible on this pane's background."""
        return diff_styles(self.palette().color(self.palette().ColorRole.Base))

    def set_highlight(self, color: QColor) -> None:
        self.highlight = QColor(color)
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        """A palette changed (a dark theme turned on): the marks' colours follow."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.refresh()

    def _on_change(self, change: Change) -> None:
        if change in ("citations", "report", "selection", "documents", "consistency"):
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
        result = s.report.claim(claim.id) if s.report is not None else None
        if result is not None and result.consistency.differs:
            said = "<br>".join(escape(consistency_sentence(d.kind, d.claim, d.evidence))
                               for d in result.consistency.differences)
            parts.append(f'<p>{self._badge("differs")}<br><span style="'
                         f'{self._styles()["changed"]}">{said}</span></p>')
        if not claim.evidence:
            parts.append(self._badge("uncited") + " " + _p(UNCITED_SENTENCE))
        views = s.evidence_views(claim.id)
        for ev in views[:MAX_ITEMS_SHOWN]:
            parts.append(self._evidence(ev, len(claim.evidence)))
        if len(views) > MAX_ITEMS_SHOWN:
            parts.append(_p(f"… and {len(views) - MAX_ITEMS_SHOWN:,} more evidence items, "
                            "not listed here: the review panel steps through every one, "
                            "and the export lists them all."))
        return "".join(parts)

    def _badge(self, status: BadgeStatus) -> str:
        color = badge_color(status, self.highlight).name()
        return (f'<a href="tip:{status}" style="text-decoration:none">'
                f'<span style="background-color:{color}; color:#FFFFFF; font-weight:bold">'
                f"&nbsp;{escape(status_word(status))}&nbsp;</span></a>")

    def _clicked(self, url: QUrl) -> None:
        link = Link.parse(url.toString())
        if link is not None:
            self.link.emit(link)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            tip = _tip(self.anchorAt(event.pos()))
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def _evidence(self, ev: EvidenceView, count: int) -> str:
        head = f"Evidence {ev.index + 1} of {count}: " if count > 1 else ""
        out = [f"<hr><p>{escape(head)}{self._badge(ev.status)} <b>{escape(ev.notice)}</b></p>"]
        quote, found = diff_marks(ev.word_diff, ev.quote, ev.found_text)
        out.append(f"<p><b>Quote</b><br>“{_marked(quote, self._styles())}”</p>")
        if ev.found_text:
            out.append(f"<p><b>Found under the highlight</b><br>"
                       f"“{_marked(found, self._styles())}”</p>")
        if ev.differences:
            pairs = " · ".join(escape(difference_pair(d.quote, d.page)) for d in ev.differences)
            out.append(f'<p><b>{DIFFERS}</b><br><span style="'
                       f'{self._styles()["changed"]}">{pairs}</span></p>')
        facts = []
        if ev.score is not None:
            text = self.palette().color(self.palette().ColorRole.Text).name()
            facts.append(f'<a href="tip:score" style="text-decoration:none; color:{text}">'
                         f"score {ev.score:.1f}</a>")
        if ev.page is not None:
            facts.append(f"page {ev.page}")
        if facts:
            out.append(f"<p>{' · '.join(facts)}</p>")
        links = _places(ev, self.chosen(self.session.selected or "", ev.index))
        if links:
            out.append(f"<p>{links}</p>")
        if ev.reason:
            out.append(f"<p><b>Reason</b><br>{escape(ev.reason)}</p>")
        return "".join(out)


def _marked(words: list[tuple[str, DiffMark]], styles: dict[DiffMark, str]) -> str:
    return " ".join(escape(w) if mark == "same" else
                    f'<span style="{styles[mark]}">{escape(w)}</span>'
                    for w, mark in words)


def _p(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def _places(ev: EvidenceView, chosen: int | None = None) -> str:
    """Links to every place the item points to: its page, its copies, its other pages."""
    if ev.status not in PLACED or ev.page is None:
        return ""
    where = f"page {ev.page}" + (f" of {escape(ev.document_name)}" if ev.document_name else "")
    parts = [f'<a href="show:{ev.index}">Show {where}</a>']
    if ev.copy_order:
        # Numbered in reading order, as the keys 1–9 choose them; the link names the copy
        # (0 the placement itself, 1… its alternatives; all of them marked).
        copies = ", ".join(f'<a href="copy:{ev.index}:{k}">copy {n} (page {page})</a>'
                           + (" <b>(chosen)</b>" if n == chosen else "")
                           for n, (k, page) in enumerate(ev.copy_order, start=1))
        parts.append(f"The quoted words stand more than once, all marked: {copies}")
    if ev.other_pages:
        pages = ", ".join(f'<a href="page:{ev.index}:{n}">page {n}</a>' for n in ev.other_pages)
        parts.append(f"Fits equally well on {pages}")
    return "<br>".join(parts)


def _tip(anchor: str) -> str:
    """The tooltip of a badge or the score (their links are ``tip:…``)."""
    name = anchor.removeprefix("tip:")
    if name == "score":
        return SCORE_EXPLANATION
    for status in STATUS_WORDS:
        if status == name:
            return explain(status)
    return ""
