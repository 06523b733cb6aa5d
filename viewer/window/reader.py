"""What makes the window a document reader: find, the side panel, turning the view,
printing, context menus, the permanent summary, and help on the badges.

:class:`Reader` is built by the window's shell once its widgets exist, and adds its
parts to them: the find bar above the pages, the side panel beside them, its commands
to the menus (each with its shortcut, so Help ▸ Keyboard Shortcuts lists them), a
permanent summary at the right of the status bar (never hidden by a passing message),
and the context menus of the claims list and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import QMenu, QSizePolicy

from ..palette import badge_color
from ..render.tiles import DocRef
from ..state.presentation import (
    SCORE_EXPLANATION,
    STATUS_EXPLANATIONS,
    claims_summary,
    status_word,
    summary_line,
)
from ..state.review_text import progress_text
from ..state.session import Change
from ..widgets.labels import LineLabel
from .actions import command
from .controller import Notice
from .files import RecentFiles
from .find import FindController
from .history import Navigation
from .locations import LocatedDocuments
from .menus import ClaimCopying, PageMenu
from .navigate import DocumentSwitch, Navigator, Shown
from .panel import PanelController
from .prefetch import Prefetch
from .recognise import RecogniseAll

# Printing, Qt's print support and the dialogs here are imported when first used: the
# first window of a start-up needs none of them.
if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrinter

    from ..render.renderer import SideQueue
    from .print_vector import VectorPrint
    from .printing import PrintJob, PrintPage
    from .shell import MainWindow

Slot = Callable[[], object]
# The status bar: room kept beside a message (its margins and the size grip), and the
# least of the summary left while a message needs the rest (logical pixels).
SUMMARY_PAD, MESSAGE_PAD, SUMMARY_MIN = 8, 48, 120


class Reader(QObject):
    """Adds the reader's parts to a :class:`~viewer.window.shell.MainWindow`."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.find = FindController(window.view, window.controller, window.statusBar(),
                                   window.prefs.find_color(), parent=window)
        self.panel = PanelController(
            window.session, window.view, window.renderer, window.controller,
            window.review.controller, self.find, window.prefs, interactive=window.interactive,
            shown_doc=lambda: window.shown_doc, parent=window)
        shown = Shown(document=lambda: window.shown_doc,
                      show_document=lambda doc: window.show_document(doc),
                      show_selection=lambda: window.show_selection())
        self.navigator = Navigator(window.session, window.view, window.controller,
                                   window.review.controller, window.detail, window.claims,
                                   shown, parent=window)
        self.documents = DocumentSwitch(window.session, window.view, window.toolbar,
                                        self.navigator, shown, parent=window)
        parts = (window.session, window.controller, window.prefs)
        self.recent = RecentFiles(*parts, interactive=window.interactive, parent=window)
        self.located = LocatedDocuments(*parts, interactive=window.interactive, parent=window)
        self.recognise = RecogniseAll(window.session, window.controller, window.statusBar(),
                                      parent=window)
        self.copying = ClaimCopying(window.session, window.review.controller, window.statusBar())
        self.history = Navigation(window.session, window.view, window.controller,  # Back / Fwd
                                  show_document=lambda doc: window.show_document(doc),
                                  parent=window)
        # Pictures of the other documents' pages.
        self.prefetch = Prefetch(window.session, window.view, window.renderer, parent=window)
        self._print_queue: SideQueue | None = None  # made by the first print
        self.job: PrintJob | None = None
        self._vector: VectorPrint | None = None
        self._bar = window.statusBar()
        self._build_actions()
        # Whole, but cut ("…", the whole in its tooltip) while a message needs the room.
        self.summary = LineLabel()
        self.summary.setObjectName("summary")
        self.summary.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self._bar.addPermanentWidget(self.summary)
        self._bar.messageChanged.connect(lambda _text: self._fit_summary())
        self._bar.installEventFilter(self)  # resized: fit the summary again
        window.claims.menu_parts.append(self.copying.add_to)
        window.detail.link.connect(lambda link: link.kind == "tip" and self.show_badges())
        page_menu = PageMenu(window.session, window.view, self._page_commands)
        window.view.menu_parts.append(page_menu.add_to)
        window.session.changed.connect(self._on_session)
        window.review.controller.changed.connect(self.show_summary)  # decisions counted
        window.view.document_changed.connect(self._document_changed)
        self._on_session("citations")  # nothing selected yet: nothing to copy

    # -- commands and menus ---------------------------------------------------------------
    def _action(self, text: str, slot: Slot, *keys: str | QKeySequence, tip: str = ""
                ) -> QAction:
        return command(self.window, text, slot, *keys, tip=tip)

    def _build_actions(self) -> None:
        f, w = self.find, self.window
        S = QKeySequence.StandardKey
        self.find_action = self._action("&Find…", f.open, S.Find, tip="Find text in the document")
        # F3 only: the platform's other "find next" key is Ctrl+G, Go to Page here.
        self.find_next = self._action("Find &Next", lambda: f.step(1), "F3")
        self.find_previous = self._action("Find Pre&vious", lambda: f.step(-1), "Shift+F3")
        self.copy_quote = self._action("Copy &Quote", lambda: self.copying.copy_selected(0),
                                       tip="Copy the selected claim's quotes")
        self.copy_found = self._action("Copy F&ound Text",
                                       lambda: self.copying.copy_selected(1),
                                       tip="Copy the words under the selected claim's highlight")
        self.copy_citation = self._action("Copy &Citation",
                                          lambda: self.copying.copy_selected(2), "Ctrl+Shift+C",
                                          tip="Copy the claim, its quotes, documents and pages")
        self.side_panel = self._action("Side &Panel", self.panel.toggle, "F4",
                                       tip="Show or hide thumbnails, outline and find results")
        self.side_panel.setCheckable(True)
        self.side_panel.setChecked(self.panel.is_shown())
        self.panel.panel.installEventFilter(self)  # keeps the check mark right
        self.rotate_left = self._action("Rotate &Left", lambda: self.turn(-90), "Ctrl+Left",
                                        tip="Turn the pages a quarter anticlockwise")
        self.rotate_right = self._action("Rotate &Right", lambda: self.turn(90), "Ctrl+Right",
                                         tip="Turn the pages a quarter clockwise")
        self.find_color = self._action("Find &Mark Colour…", self.choose_find_color)
        self.dark_pages = self._action(
            "&Dark Pages", lambda: w.view.set_dark(self.dark_pages.isChecked()),
            tip="Show the pages inverted, light text on dark; highlights keep their colour")
        self.dark_pages.setCheckable(True)
        self.facing = self._action(
            "&Two Pages", lambda: w.view.set_facing(self.facing.isChecked()),
            tip="Show the pages two by two, side by side, as a book lies open")
        self.facing.setCheckable(True)
        self.print_action = self._action(
            "&Print…", self.print_document, S.Print,
            tip="Print the document's pages (all, a range or the page in view) as PDF, "
                "the highlights as annotations")
        self.print_claim = self._action(
            "Print Claim's Pa&ges…", self.print_claim_pages, "Ctrl+Shift+P",
            tip="Print only the pages the selected claim's evidence is on")
        self.badges = self._action("What the &Badges Mean", self.show_badges,
                                   tip="What each status and the score mean")
        menus, words = w.menus, w.selecting  # handed over as objects, never found by title
        _add(menus.edit, (words.copy_action, words.select_all_action, None, self.find_action,
                          self.find_next, self.find_previous, None, self.copy_quote,
                          self.copy_found, self.copy_citation))
        _add(menus.view, (None, self.side_panel, None, self.rotate_left,
                          self.rotate_right, None, self.history.back,
                          self.history.forward, None, self.facing, self.dark_pages,
                          self.find_color))
        _insert(menus.file, w.commands.quit, (self.print_action, self.print_claim, None))
        _insert(menus.help, w.commands.about, (self.badges,))

    def _page_commands(self) -> Sequence[QAction | None]:
        c = self.window.commands
        return (self.window.selecting.select_all_action, self.find_action, None, c.zoom_in,
                c.zoom_out, c.fit_width, c.fit_page, None, self.rotate_left, self.rotate_right,
                None, self.print_action)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.panel.panel and event.type() in (QEvent.Type.Show,
                                                              QEvent.Type.Hide):
            self.side_panel.setChecked(self.panel.is_shown())
        elif watched is self._bar and event.type() == QEvent.Type.Resize:
            self._fit_summary()
        return False

    def _fit_summary(self) -> None:
        """The summary's width: all of it, unless a message beside it would be cut."""
        w, label, bar = self.window, self.summary, self._bar
        if not shiboken6.isValid(w) or not shiboken6.isValid(bar):
            return  # the window is being destroyed
        metrics = label.fontMetrics()
        whole = metrics.horizontalAdvance(label.text()) + SUMMARY_PAD
        message = bar.currentMessage()
        others = sum(x.width() for x in (w.progress, w.cancel_button) if x.isVisible())
        room = bar.width() - others - metrics.horizontalAdvance(message) \
            - MESSAGE_PAD
        label.setFixedWidth(whole if not message else max(SUMMARY_MIN, min(whole, room)))

    # -- the summary ------------------------------------------------------------------------
    def show_summary(self) -> None:
        """The claims by status, and how much of the review is decided."""
        s = self.window.session
        rows = s.rows()
        if s.citations is None:
            self.summary.setText("")
        elif s.report is None:
            self.summary.setText(f"{len(rows)} claim{'s' * (len(rows) != 1)}: "
                                 f"{status_word('pending')}")
        else:
            text = claims_summary(r.status for r in rows)
            review = progress_text(self.window.review.controller.review)
            self.summary.setText(f"{text} · {review}", tip=(
                f"{text} · {review}\nEach claim is counted once, by its worst evidence "
                f"item.\nEvidence items: {summary_line(s.report.summary)}"))
        self._fit_summary()

    def _on_session(self, change: Change) -> None:
        s = self.window.session
        if change in ("citations", "report", "documents", "consistency"):
            self.show_summary()
        if change in ("citations", "selection", "report"):
            has = s.selected is not None
            for action in (self.copy_quote, self.copy_found, self.copy_citation,
                           self.print_claim):
                action.setEnabled(has)

    # -- turning the view -------------------------------------------------------------------
    def turn(self, delta: int) -> None:
        """Turn the pages ``delta`` degrees (a quarter either way), remembered per file."""
        view = self.window.view
        if view.doc is None:
            return
        view.set_turn(view.turn + delta)
        if self.window.interactive:
            self.window.prefs.set_turn_for(Path(view.doc.path), view.turn)
        self.panel.show_document()

    def _document_changed(self) -> None:
        view = self.window.view
        if view.doc is not None:
            turn = self.window.prefs.turn_for(Path(view.doc.path))
            if turn != view.turn:
                view.set_turn(turn)
                self.panel.show_document()

    # -- colours and help -------------------------------------------------------------------
    def choose_find_color(self) -> None:
        from PySide6.QtWidgets import QColorDialog

        color = QColorDialog.getColor(self.find.color, self.window, "Find mark colour")
        if color.isValid():
            self.find.set_color(color)
            self.window.prefs.set_find_color(color)

    def highlight_changed(self, color: QColor) -> None:
        """The highlight colour changed: keep the marks and thumbnail badges apart from it."""
        self.find.set_color(self.find.color)
        self.panel.panel.thumbnails.set_highlight(color)

    def badges_html(self) -> str:
        """Help ▸ What the Badges Mean: every badge in its colour, what it means, the score."""
        highlight = self.window.view.highlighter.color
        rows = "".join(
            f'<tr><td><span style="background-color:{badge_color(st, highlight).name()}; '
            f'color:#FFFFFF; font-weight:bold">&nbsp;{status_word(st)}&nbsp;</span></td>'
            f"<td>{text}</td></tr>" for st, text in STATUS_EXPLANATIONS.items())
        return (f"<p>Each evidence item of a claim gets a badge:</p><table cellspacing=6>"
                f"{rows}</table><p><b>Score.</b> {SCORE_EXPLANATION}</p>"
                "<p>The summary at the bottom right counts claims, each by its worst badge.</p>")

    def show_badges(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(self.window)
        box.setWindowTitle("What the badges mean")
        box.setTextFormat(box.textFormat().RichText)
        box.setText(self.badges_html())
        box.exec()

    # -- printing ---------------------------------------------------------------------------
    @property
    def print_queue(self) -> SideQueue:
        """The render process's queue for printing (made when first printing)."""
        if self._print_queue is None:
            from .printing import PRINT_CACHE_BYTES

            self._print_queue = self.window.renderer.side_queue(PRINT_CACHE_BYTES)
        return self._print_queue

    def document_pages(self) -> list[PrintPage]:
        """Every page of the document shown, with the selected claim's highlights."""
        from .printing import PrintPage

        w, s = self.window, self.window.session
        doc = w.view.doc
        if doc is None or w.view.pages_layout is None:
            return []
        rects = w.review.highlights(s.selected, w.shown_doc)
        return [PrintPage(doc, p.info, tuple(rects.get(p.index, ())))
                for p in w.view.pages_layout.pages]

    def claim_pages(self) -> list[PrintPage]:
        """The pages the selected claim's evidence is placed on, in every document."""
        from .printing import PrintPage

        s, review = self.window.session, self.window.review
        out: list[PrintPage] = []
        seen: set[tuple[str, int]] = set()
        for drawn in review.records(s.selected):  # decisions applied, as on screen
            doc = s.documents.get(drawn.document or "")
            if not drawn.drawn or drawn.page is None or doc is None or not doc.usable:
                continue
            if (doc.id, drawn.page) in seen or not 0 < drawn.page <= len(doc.pages):
                continue
            seen.add((doc.id, drawn.page))
            rects = review.highlights(s.selected, doc.id).get(drawn.page - 1, [])
            out.append(PrintPage(DocRef(str(doc.path), doc.password), doc.pages[drawn.page - 1],
                                 tuple(rects)))
        return out

    def print_document(self) -> None:
        self._ask_and_print(claim=False)

    def print_claim_pages(self) -> None:
        self._ask_and_print(claim=True)

    @property
    def vector(self) -> VectorPrint:
        """Vector printing (made by the first print)."""
        if self._vector is None:
            from .print_vector import VectorPrint

            w = self.window
            self._vector = VectorPrint(w.session, w.controller, w.statusBar(), parent=w)
        return self._vector

    def _ask_and_print(self, *, claim: bool) -> None:
        """The print dialog (a page range, the page in view, a file or a printer), then
        vector printing, or without a spooler the pages rendered for the printer."""
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from . import print_vector as pv

        w = self.window
        pages = pv.claim_pages(w.session) if claim else pv.shown_pages(w.session, w.view, "all")
        if not pages:
            w.statusBar().showMessage("Nothing to print.", 5000)
            return
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, w)
        if claim:
            dialog.setWindowTitle(f"Print the claim's {len(pages)} "
                                  f"page{'s' * (len(pages) != 1)}")
        else:
            for option in pv.print_dialog_options():
                dialog.setOption(option, True)  # type: ignore[arg-type]
            dialog.setMinMax(1, len(pages))
            printer.setFromTo(1, len(pages))
        if not dialog.exec():
            return
        choice = pv.choice_from_dialog(w.session, w.view, printer, claim=claim)
        if choice.to_file is None and pv.spooler() is None:
            self.print_pages(printer, self._raster_pages(choice.pages),
                             dpi=pv.raster_dpi(printer))
        else:
            self.vector.run(choice)

    def _raster_pages(self, pages: Sequence[tuple[str, int]]) -> list[PrintPage]:
        from .printing import PrintPage

        s, out = self.window.session, []
        for doc_id, index in pages:
            doc = s.documents.get(doc_id)
            if doc is None or not doc.usable or not 0 <= index < len(doc.pages):
                continue
            rects = s.highlights(s.selected, doc_id).get(index, [])
            out.append(PrintPage(DocRef(str(doc.path), doc.password), doc.pages[index],
                                 tuple(rects)))
        return out

    def print_pages(self, printer: QPrinter, pages: Sequence[PrintPage], *,
                    dpi: int | None = None) -> PrintJob:
        """Print ``pages`` on ``printer`` in the background, with progress and Cancel:
        rendered images (for a printer without a spooler), at ``dpi`` (else PRINT_DPI)."""
        from .printing import PRINT_DPI, PrintJob

        if self.job is not None:
            self.job.cancel()
        job = PrintJob(self.print_queue, printer, pages, self.window.view.highlighter.color,
                       dpi=dpi or PRINT_DPI, parent=self)
        self.job = job
        notice = self.window.controller.notice
        notice.emit(Notice(f"Printing {len(pages)} page{'s' * (len(pages) != 1)}…", "info",
                           [("Cancel", job.cancel)]))
        job.progressed.connect(lambda done, total: notice.emit(Notice(
            f"Printing: {done} of {total} pages done…", "info", [("Cancel", job.cancel)])))
        job.finished.connect(lambda ok: self._printed(job, ok))
        job.start()
        return job

    def _printed(self, job: PrintJob, ok: bool) -> None:
        if self.job is job:
            self.job = None
        self.window.controller.notice.emit(None)
        failed = f" ({len(job.failed_pages)} could not be rendered)" if job.failed_pages else ""
        self.window.statusBar().showMessage(
            f"Printed {len(job.pages)} pages{failed}." if ok else "Printing stopped.", 8000)


def _add(menu: QMenu, actions: Sequence[QAction | None]) -> None:
    for a in actions:
        menu.addSeparator() if a is None else menu.addAction(a)


def _insert(menu: QMenu, before: QAction, actions: Sequence[QAction | None]) -> None:
    for a in actions:
        if a is None:
            menu.insertSeparator(before)
        else:
            menu.insertAction(before, a)
