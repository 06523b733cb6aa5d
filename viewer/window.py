"""The main window: claims and detail on the left, the pages on the right; menus, toolbar,
status bar; opening files and running the check in the background.

The window wires the parts together and owns the background operations; the state itself
lives in :class:`viewer.session.Session`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QColorDialog,
    QFileDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from matcher.files import looks_like_pdf

from . import engine, qtcompat
from .claims import ClaimList
from .detail import DetailPane
from .documents import Inspection
from .highlight import Highlighter
from .layout import ZoomMode
from .notice import NoticeBar
from .records import Citations, Report
from .render import DocRef, Renderer
from .session import Change, Session
from .settings import Preferences
from .tasks import Cancel, Operation, Progress
from .view import PageView

log = logging.getLogger(__name__)

# Width of the claims side: a share of the window, within limits (logical pixels).
LEFT_SHARE, LEFT_MIN, LEFT_MAX = 0.3, 260, 460
OPEN_FILTER = "Citations or PDF (*.cite *.json *.pdf);;Citations (*.cite *.json);;PDF (*.pdf)"

AskPassword = Callable[[str, str], str | None]  # (document name, message) → password
AskPath = Callable[[str, str], Path | None]  # (title, filter) → chosen file


class MainWindow(QMainWindow):
    """citeview's window. ``interactive=False`` (screenshots, scripts) never opens a dialog."""

    busy_changed = Signal()  # background work started or ended
    settled = Signal()  # nothing running and every visible page rendered

    def __init__(self, prefs: Preferences, *, interactive: bool = True,
                 highlight: QColor | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        qtcompat.install_guard()
        self.prefs = prefs
        self.interactive = interactive
        self.session = Session()
        # The check process: reads citations files, inspects and checks documents.
        self.engine = engine.take()
        # What was asked to be opened (a file, a claim, a page) turned out not to exist.
        self.failed_to_open = False
        color = QColor(highlight) if highlight is not None else prefs.highlight_color()
        self.renderer = Renderer(parent=self)
        self.view = PageView(self.renderer, Highlighter(color))
        self.view.empty_text = ("Drop a citations file (.cite, .json) or a PDF here,\n"
                                "or open one with File ▸ Open (Ctrl+O).")
        self.notice = NoticeBar(color)
        self.claims = ClaimList(self.session, color)
        self.detail = DetailPane(self.session, color)
        self.ask_password: AskPassword = self._ask_password
        self.ask_path: AskPath = self._ask_path
        self._ops: list[Operation] = []
        self._check: Operation | None = None
        self._open: Operation | None = None
        self._pending_claim: str | None = None
        self._pending_page: int | None = None
        self._page_requested = False
        self._shown_doc: str | None = None
        self._notice_about_documents = False
        self._notice_about_ocr = False
        self._split_done = False
        self._build()
        self.session.changed.connect(self._on_session)
        self.view.settled.connect(self._maybe_settled)
        self.view.zoom_changed.connect(self._on_zoom)
        self.view.current_page_changed.connect(self._on_page)
        self.setAcceptDrops(True)
        self.setWindowTitle("citeview")
        self.setMinimumSize(640, 480)
        mode = prefs.zoom_mode()
        self._initial_mode = ZoomMode(mode) if mode in ("width", "page") else ZoomMode.FIT_WIDTH

    # -- construction -------------------------------------------------------------------
    def _build(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.claims)
        left.addWidget(self.detail)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        left.setChildrenCollapsible(False)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.notice)
        column.addWidget(self.view, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([300, 700])
        self.left_panel = left
        self.setCentralWidget(self.splitter)
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_status()

    def _action(self, text: str, slot: Callable[[], object], *shortcuts: str | QKeySequence,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcuts:
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.act_open = self._action("&Open…", self.open_dialog, S.Open,
                                     tip="Open a citations file or a PDF")
        self.act_demo = self._action("Open &Demo", self.open_demo,
                                     tip="Open the bundled sample application")
        self.act_locate = self._action("&Locate Document…", self.locate_document, "Ctrl+L",
                                       tip="Point to a document the citations file names")
        self.act_recheck = self._action("&Check Again", self.recheck, "F5",
                                        tip="Run the check again")
        self.act_quit = self._action("&Quit", self.close, S.Quit)
        self.act_zoom_in = self._action("Zoom &In", self.view.zoom_in, S.ZoomIn, "Ctrl+=")
        self.act_zoom_out = self._action("Zoom &Out", self.view.zoom_out, S.ZoomOut)
        self.act_zoom_100 = self._action("&Actual Size", lambda: self.view.set_zoom(1.0),
                                         "Ctrl+0")
        self.act_fit_width = self._action(
            "Fit &Width", lambda: self._set_mode(ZoomMode.FIT_WIDTH), "Ctrl+1")
        self.act_fit_page = self._action(
            "Fit &Page", lambda: self._set_mode(ZoomMode.FIT_PAGE), "Ctrl+2")
        self.act_goto = self._action("&Go to Page…", self._focus_page_box, "Ctrl+G")
        self.act_color = self._action("&Highlight Colour…", self.choose_highlight_color)
        self.act_next = self._action("&Next Claim", lambda: self.step_claim(1), "J",
                                     tip="Select the next claim")
        self.act_prev = self._action("&Previous Claim", lambda: self.step_claim(-1), "K",
                                     tip="Select the previous claim")
        self.act_next_flag = self._action(
            "Next &Flagged", lambda: self.step_claim(1, flagged=True), "F",
            tip="Next claim that needs review or was not located")
        self.act_prev_flag = self._action(
            "Previous F&lagged", lambda: self.step_claim(-1, flagged=True), "Shift+F")
        self.act_shortcuts = self._action("&Keyboard Shortcuts", self._show_shortcuts, "F1")
        self.act_about = self._action("&About citeview", self._show_about)
        self.act_locate.setEnabled(False)
        self.act_recheck.setEnabled(False)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(self.act_open)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addAction(self.act_demo)
        file_menu.addSeparator()
        file_menu.addAction(self.act_locate)
        file_menu.addAction(self.act_recheck)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        view_menu = bar.addMenu("&View")
        for a in (self.act_zoom_in, self.act_zoom_out, self.act_zoom_100, None,
                  self.act_fit_width, self.act_fit_page, None, self.act_goto, None,
                  self.act_color):
            view_menu.addSeparator() if a is None else view_menu.addAction(a)
        claims_menu = bar.addMenu("&Claims")
        for a in (self.act_next, self.act_prev, None, self.act_next_flag, self.act_prev_flag):
            claims_menu.addSeparator() if a is None else claims_menu.addAction(a)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.act_shortcuts)
        help_menu.addAction(self.act_about)

    def _build_toolbar(self) -> None:
        tb = QToolBar("Main")
        tb.setObjectName("main-toolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(tb)
        tb.addAction(self.act_open)
        tb.addSeparator()
        self.act_prev.setIconText("◀ Claim")
        self.act_next.setIconText("Claim ▶")
        self.act_next_flag.setIconText("Next flagged")
        tb.addAction(self.act_prev)
        tb.addAction(self.act_next)
        tb.addAction(self.act_next_flag)
        tb.addSeparator()
        self.act_zoom_out.setIconText("−")
        self.act_zoom_in.setIconText("+")
        tb.addAction(self.act_zoom_out)
        self.zoom_label = QLabel("100%")
        self.zoom_label.setMinimumWidth(44)
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        tb.addWidget(self.zoom_label)
        tb.addAction(self.act_zoom_in)
        self.act_fit_width.setIconText("Width")
        self.act_fit_page.setIconText("Page")
        tb.addAction(self.act_fit_width)
        tb.addAction(self.act_fit_page)
        tb.addSeparator()
        tb.addWidget(QLabel(" Page "))
        self.page_box = QSpinBox()
        self.page_box.setRange(0, 0)
        self.page_box.setKeyboardTracking(False)
        self.page_box.setAccessibleName("Page number")
        self.page_box.valueChanged.connect(self._page_box_changed)
        tb.addWidget(self.page_box)
        self.page_count_label = QLabel(" of 0 ")
        tb.addWidget(self.page_count_label)
        self.toolbar = tb

    def _build_status(self) -> None:
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_check)
        self.cancel_button.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)

    # -- opening ------------------------------------------------------------------------
    def open_path(self, path: Path) -> None:
        """Open a citations file (.cite/.json) or a bare PDF. A citations file is read and
        validated in the check process; if it cannot be used, the notice bar says why and
        what was open stays open."""
        path = Path(path).expanduser()
        self._pending_claim = None
        self.failed_to_open = False
        self._cancel_all()
        if path.suffix.lower() == ".pdf" or looks_like_pdf(path):  # by name, else by content
            self.session.open_pdf(path.resolve())
            self._after_open(path)
            self._inspect_all()
            return
        self.statusBar().showMessage(f"Opening {path.name}…")
        where = engine.request_path(path)
        self._open = self._run(
            self._request("open", where),
            lambda reply: self._opened(path, reply), on_failure=self._fail_open,
            name="citeview-open")

    def _opened(self, path: Path, reply: tuple[dict[str, object], dict[str, Path]]) -> None:
        data, document_paths = reply
        self._open = None
        self.statusBar().clearMessage()
        self.session.open_citations(path.resolve(), Citations.from_json(data, document_paths))
        self._after_open(path)
        claim = self._pending_claim
        if claim is not None and self.session.citations is not None \
                and self.session.citations.claim(claim) is None:
            self._pending_claim = None
            self._no_such_claim(claim)
        self._inspect_all()

    def open_demo(self) -> None:
        from .app import demo_path

        self.open_path(demo_path())

    def select_claim_when_ready(self, claim_id: str) -> None:
        """Select ``claim_id`` now if the report is in, else as soon as it arrives (a file
        still being opened is asked once it is read)."""
        if self._opening():
            self._pending_claim = claim_id  # looked up in the file once it is read
            return
        citations = self.session.citations
        if citations is None or citations.claim(claim_id) is None:
            self._no_such_claim(claim_id)
        elif self.session.report is not None:
            self.session.select(claim_id)
        else:
            self._pending_claim = claim_id

    def _no_such_claim(self, claim_id: str) -> None:
        self.failed_to_open = True
        self.notice.show_notice(f"There is no claim {claim_id!r} in this file.", kind="error")

    def _opening(self) -> bool:
        return self._open is not None and not self._open.cancelled

    def go_to_page_when_ready(self, index: int) -> None:
        """Show page ``index`` (0-based) now, or once the document is open."""
        self._page_requested = True
        if self.view.page_count():
            self.view.go_to_page(index)
        else:
            self._pending_page = index

    def _after_open(self, path: Path) -> None:
        self.setWindowTitle(f"{path.name} — citeview")
        if self.interactive:
            self.prefs.add_recent(path)
        self.notice.clear()
        self.left_panel.setVisible(not self.session.is_plain_pdf)
        self.act_recheck.setEnabled(not self.session.is_plain_pdf)
        self._show_document(None)

    def _fail_open(self, exc: BaseException) -> None:
        self._open = None
        self.failed_to_open = True
        self._pending_claim = None
        self.notice.show_notice(str(exc), kind="error")
        self.statusBar().showMessage("The file could not be opened.", 10000)
        self._maybe_settled()

    def open_dialog(self) -> None:
        path = self.ask_path("Open citations file or PDF", OPEN_FILTER)
        if path is not None:
            self.open_path(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.prefs.recent_files()
        for p in recent:
            action = self.recent_menu.addAction(str(p))
            action.triggered.connect(lambda _c=False, p=p: self.open_path(p))
        if not recent:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear Menu").triggered.connect(self.prefs.clear_recent)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._dropped_path(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        path = self._dropped_path(event)
        if path is not None:
            event.acceptProposedAction()
            self.open_path(path)

    @staticmethod
    def _dropped_path(event: QDragEnterEvent | QDropEvent) -> Path | None:
        mime = event.mimeData()
        for url in mime.urls() if mime.hasUrls() else []:
            if url.isLocalFile():
                path = Path(url.toLocalFile())
                if path.suffix.lower() in (*engine.CITATION_SUFFIXES, ".pdf"):
                    return path
        return None

    # -- documents ----------------------------------------------------------------------
    def _inspect_all(self) -> None:
        for doc in self.session.documents.values():
            if doc.state == "unknown":
                self._inspect(doc.id)
        self._update_notice()

    def _inspect(self, doc_id: str) -> None:
        doc = self.session.documents[doc_id]
        path, password = doc.path, doc.password
        self._run(self._request("inspect", str(path), password),
                  lambda reply: self._inspected(Inspection.from_reply(doc_id, path, reply)),
                  name=f"citeview-inspect-{doc_id}")

    def _inspected(self, ins: Inspection) -> None:
        doc = self.session.documents.get(ins.doc_id)
        if doc is None or doc.path != ins.path:
            return  # a file opened since
        if ins.state in ("encrypted", "bad_password") and self.interactive:
            message = ("The password is not correct. Try again:" if ins.state == "bad_password"
                       else f"{ins.path.name} is password-protected. Password:")
            password = self.ask_password(ins.path.name, message)
            if password is not None:
                doc.password = password
                self._inspect(ins.doc_id)
                return
        self.session.set_document_state(ins.doc_id, ins.state, ins.message, pages=ins.pages)
        if all(d.state != "unknown" for d in self.session.documents.values()):
            self._documents_ready()

    def _documents_ready(self) -> None:
        self._update_notice()
        self._show_document(self.session.shown_document)
        if not self.session.is_plain_pdf:
            self._start_check()
            # While the check runs, show (and so render) the page the claim about to be
            # selected says it is on: usually the page its highlight will be drawn on.
            rows = self.session.rows()
            claim = self._pending_claim or (rows[0].id if rows else None)
            hint = self.session.hinted_page(claim)
            if hint is not None and not self._page_requested:
                self.view.go_to_page(hint - 1)

    def _show_document(self, doc_id: str | None) -> None:
        doc = self.session.documents.get(doc_id) if doc_id is not None else None
        if doc is None or not doc.usable:
            if self._shown_doc is not None or self.view.doc is not None:
                self.view.set_document(None, [])
            self._shown_doc = None
            self._update_page_box()
            return
        ref = DocRef(str(doc.path), doc.password)
        if self.view.doc != ref:
            self.view.set_document(ref, doc.pages)
        self._shown_doc = doc.id
        if self._pending_page is not None:
            self.view.go_to_page(self._pending_page)
            self._pending_page = None
        self._update_page_box()

    def _update_notice(self) -> None:
        problems = self.session.problem_documents()
        self.act_locate.setEnabled(any(d.state == "missing" for d in problems))
        if not problems:
            if self._notice_about_documents:
                self.notice.clear()
                self._notice_about_documents = False
            return
        self._notice_about_documents = True
        doc = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        if doc.state == "missing":
            self.notice.show_notice(f"document missing: {doc.path}{more}", kind="error",
                                    actions=[("Locate…", lambda: self.locate_document(doc.id))])
        elif doc.state in ("encrypted", "bad_password"):
            self.notice.show_notice(
                f"{doc.name} is password-protected; its claims cannot be checked until it "
                f"is unlocked.{more}", kind="error",
                actions=[("Enter Password…", lambda: self.unlock_document(doc.id))])
        else:
            self.notice.show_notice(f"{doc.name} cannot be opened: {doc.message}{more}",
                                    kind="error",
                                    actions=[("Locate…", lambda: self.locate_document(doc.id))])

    def locate_document(self, doc_id: str | None = None) -> None:
        """Ask where a missing (or unreadable) document is, then check again."""
        problems = self.session.problem_documents()
        if doc_id is None:
            doc_id = problems[0].id if problems else None
        if doc_id is None:
            return
        name = self.session.documents[doc_id].name
        path = self.ask_path(f"Locate {name}", "PDF (*.pdf);;All files (*)")
        if path is None:
            return
        self.session.relocate(doc_id, path.resolve())
        self.session.clear_report()
        self._inspect_all()

    def unlock_document(self, doc_id: str) -> None:
        doc = self.session.documents[doc_id]
        password = self.ask_password(doc.name, f"{doc.name} is password-protected. Password:")
        if password is None:
            return
        doc.password = password
        self.session.relocate(doc_id, doc.path)  # back to "unknown": inspect again
        self._inspect_all()

    def _ask_password(self, name: str, message: str) -> str | None:
        text, ok = QInputDialog.getText(self, f"Password for {name}", message,
                                        QLineEdit.EchoMode.Password)
        return text if ok else None

    def _ask_path(self, title: str, filters: str) -> Path | None:
        chosen, _ = QFileDialog.getOpenFileName(self, title, "", filters)
        return Path(chosen) if chosen else None

    # -- checking -----------------------------------------------------------------------
    def _start_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
        session = self.session
        assert session.citations_path is not None
        path, moved, passwords = (engine.request_path(session.citations_path),
                                  session.moved_documents(), session.passwords())
        self.progress.setRange(0, 0)
        self.progress.setFormat("Checking…")
        self.progress.show()
        self.cancel_button.show()
        self.statusBar().showMessage("Checking the citations…")
        self._check = self._run(self._request("check", path, moved, passwords),
                                lambda reply: self._checked(Report.from_json(reply)),
                                on_progress=self._check_progress, name="citeview-check")

    def _check_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"Checking %v/{total}")
        self.session.set_progress(done, total)

    def _checked(self, report: Report) -> None:
        self._check = None
        self.progress.hide()
        self.cancel_button.hide()
        s = report.summary
        needs = "needs" if s.review == 1 else "need"
        self.statusBar().showMessage(
            f"{s.located} located · {s.review} {needs} review · {s.not_located} not located · "
            f"{s.rejected} rejected · {s.uncited} uncited")
        self.session.set_report(report)
        claim, self._pending_claim = self._pending_claim, None
        rows = self.session.rows()
        if claim is None and self.session.selected is None and rows \
                and not self._page_requested:
            claim = rows[0].id  # show something useful at once: the first claim
        if claim is not None:
            self.session.select(claim)
        elif self.session.selected is not None:
            self.session.select(self.session.selected)

    def cancel_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
            self._check = None
        self.progress.hide()
        self.cancel_button.hide()
        self.statusBar().showMessage("Check cancelled; press F5 to check again.", 10000)
        self.busy_changed.emit()
        self._maybe_settled()

    def recheck(self) -> None:
        if self.session.citations is not None:
            self._start_check()

    # -- background operations ----------------------------------------------------------
    def _request(self, kind: str, *args: object) -> Callable[[Progress, Cancel], object]:
        """Work for an operation: one request to the check process, which is started
        again first if it has died (the request it died on was reported as failed)."""
        if not self.engine.is_alive():
            log.warning("the check process had stopped; starting a new one")
            self.engine.stop()
            self.engine = engine.take()
        checker = self.engine
        return lambda progress, cancel: checker.call(kind, *args, progress=progress,
                                                     cancel=cancel)


    def _run(self, work: Callable[..., object], on_success: Callable[..., None], *,
             on_progress: Callable[[int, int], None] | None = None,
             on_failure: Callable[[BaseException], None] | None = None,
             name: str = "citeview-operation") -> Operation:
        op = Operation(work, on_success=on_success, on_failure=on_failure or self._op_failed,
                       on_progress=on_progress, name=name, parent=self)
        self._ops.append(op)
        op.finished.connect(lambda op=op: self._op_finished(op))
        op.start()
        self.busy_changed.emit()
        return op

    def _op_finished(self, op: Operation) -> None:
        if op in self._ops:
            self._ops.remove(op)
        self.busy_changed.emit()
        # After the callbacks of this turn have run (they may start more work).
        QTimer.singleShot(0, self._maybe_settled)

    def _op_failed(self, exc: BaseException) -> None:
        log.error("background work failed", exc_info=exc)
        self.progress.hide()
        self.cancel_button.hide()
        self.notice.show_notice(f"Something went wrong: {exc}", kind="error")

    def _cancel_all(self) -> None:
        for op in self._ops:
            op.cancel()
        self._open = None
        self._check = None

    def is_busy(self) -> bool:
        return any(op.is_running() and not op.cancelled for op in self._ops)

    def is_settled(self) -> bool:
        return not self.is_busy() and self.view.is_settled()

    def _maybe_settled(self) -> None:
        if self.is_settled():
            self.settled.emit()
        elif not self.is_busy():
            self.view.viewport().update()  # the next paint requests what is missing

    # -- reacting to the session --------------------------------------------------------
    def _on_session(self, change: Change) -> None:
        if change == "selection":
            self._show_selection()
        elif change == "documents":
            self._update_notice()

    def _show_selection(self) -> None:
        s = self.session
        self._offer_ocr()
        doc_id = s.shown_document
        if doc_id != self._shown_doc:
            self._show_document(doc_id)
        self.view.set_highlights(s.highlights(s.selected, doc_id))
        focus = s.focus(s.selected, doc_id)
        if focus is not None:
            self.view.reveal(*focus)
        else:
            # Nothing to highlight: show the page the citation pointed at, if it named one,
            # so the reader can look for themselves.
            hint = s.hinted_page(s.selected)
            if hint is not None:
                self.view.go_to_page(hint - 1)

    # -- scanned pages ------------------------------------------------------------------
    def _offer_ocr(self) -> None:
        """If the selected claim was not located on a page that is a scan without text,
        offer (in the notice bar) to recognise that page now."""
        if self._notice_about_ocr:
            self.notice.clear()
            self._notice_about_ocr = False
        claim = self.session.selected
        wanted = self.session.unlocated_pages(claim)
        if not wanted or self.session.problem_documents():
            return
        doc_id, pages = next(iter(wanted.items()))
        doc = self.session.documents[doc_id]
        if not doc.usable or not pages:
            return
        path, password = doc.path, doc.password
        self._run(self._request("scans", str(path), pages, password),
                  lambda found: self._show_ocr_offer(claim, doc_id, found),
                  on_failure=lambda exc: log.info("scan check failed: %s", exc),
                  name="citeview-scan-check")

    def _show_ocr_offer(self, claim: str | None, doc_id: str, pages: list[int]) -> None:
        if not pages or claim != self.session.selected or self.session.problem_documents():
            return
        doc = self.session.documents[doc_id]
        n = pages[0] + 1
        self._notice_about_ocr = True
        self.notice.show_notice(
            f"Page {n} of {doc.name} is a scanned image with no text yet, so the quote "
            f"cannot be found on it.", kind="info",
            actions=[(f"Recognise Text on Page {n}", lambda: self.recognise_page(doc_id, n - 1))])

    def recognise_page(self, doc_id: str, page: int) -> None:
        """OCR one page in the background, store its words, then check again."""
        from matcher.ocr import ocr_page

        doc = self.session.documents[doc_id]
        path, password = doc.path, doc.password
        self.notice.show_notice(f"Recognising text on page {page + 1} of {doc.name}…")
        self._notice_about_ocr = True
        self.progress.setRange(0, 0)
        self.progress.setFormat("Recognising text…")
        self.progress.show()

        def done(_words: object) -> None:
            self.progress.hide()
            self.notice.clear()
            self._notice_about_ocr = False
            self.statusBar().showMessage(f"Text recognised on page {page + 1}; checking "
                                         "again…", 5000)
            self.recheck()

        def failed(exc: BaseException) -> None:
            self.progress.hide()
            self.notice.show_notice(f"Text recognition failed: {exc}", kind="error")

        self._run(lambda _p, _c: ocr_page(path, page, password=password), done,
                  on_failure=failed, name="citeview-ocr")

    def step_claim(self, delta: int, *, flagged: bool = False) -> None:
        target = self.session.step(delta, flagged_only=flagged)
        if target is not None:
            self.session.select(target)
        elif flagged:
            self.statusBar().showMessage("No claim needs review or is unlocated.", 5000)

    # -- view controls ------------------------------------------------------------------
    def _set_mode(self, mode: ZoomMode) -> None:
        self.view.set_zoom_mode(mode)
        if self.interactive:
            self.prefs.set_zoom_mode(mode.value)

    def apply_initial_zoom(self, zoom: str | None) -> None:
        """``zoom``: "width", "page", a percentage, or None for the remembered mode."""
        if zoom is None:
            self._set_mode(self._initial_mode)
        elif zoom in ("width", "page"):
            self.view.set_zoom_mode(ZoomMode(zoom))
        else:
            self.view.set_zoom(float(zoom) / 100)

    def _on_zoom(self, zoom: float) -> None:
        self.zoom_label.setText(f"{zoom * 100:.0f}%")

    def _on_page(self, index: int) -> None:
        self.page_box.blockSignals(True)
        self.page_box.setValue(index + 1 if index >= 0 else 0)
        self.page_box.blockSignals(False)

    def _update_page_box(self) -> None:
        n = self.view.page_count()
        self.page_box.blockSignals(True)
        self.page_box.setRange(1 if n else 0, n)
        self.page_box.setValue(self.view.current_page + 1 if n else 0)
        self.page_box.blockSignals(False)
        self.page_count_label.setText(f" of {n} ")

    def _page_box_changed(self, value: int) -> None:
        if value >= 1:
            self.view.go_to_page(value - 1)

    def _focus_page_box(self) -> None:
        self.page_box.setFocus()
        self.page_box.selectAll()

    def set_highlight_color(self, color: QColor, *, remember: bool = False) -> None:
        self.view.set_highlight_color(color)
        self.claims.set_highlight(color)
        self.detail.set_highlight(color)
        self.notice.set_highlight(color)
        if remember:
            self.prefs.set_highlight_color(color)

    def choose_highlight_color(self) -> None:
        color = QColorDialog.getColor(self.view.highlighter.color, self, "Highlight colour")
        if color.isValid():
            color.setAlpha(255)
            self.set_highlight_color(color, remember=True)

    def _show_shortcuts(self) -> None:
        lines = []
        for menu in self.menuBar().findChildren(type(self.recent_menu)):
            for a in menu.actions():
                if not a.shortcut().isEmpty():
                    lines.append(f"{a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)}"
                                 f"\t{a.text().replace('&', '')}")
        lines.append("Ctrl+wheel\tZoom around the pointer")
        QMessageBox.information(self, "Keyboard shortcuts", "\n".join(lines))

    def _show_about(self) -> None:
        QMessageBox.about(self, "About citeview",
                          "citeview — check that an answer's citations say what it claims.\n"
                          "Each quote is found in the PDF and highlighted on its page.")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._split_done:
            # The claims side gets about a third of the window, within readable limits,
            # unless a remembered layout already set it.
            self._split_done = True
            if self.prefs.splitter_state() is None or not self.interactive:
                total = max(self.splitter.width(), self.width())
                left = min(LEFT_MAX, max(LEFT_MIN, int(total * LEFT_SHARE)))
                self.splitter.setSizes([left, max(1, total - left)])

    # -- closing ------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.interactive:
            self.prefs.set_geometry(self.saveGeometry())
            self.prefs.set_splitter_state(self.splitter.saveState())
            self.prefs.sync()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop background work and the render process (idempotent)."""
        for op in list(self._ops):
            op.cancel()
        self.engine.stop()  # a check still running stops between evidence items
        for op in list(self._ops):
            op.wait()
        self.renderer.close()

    def restore_layout(self) -> None:
        geometry = self.prefs.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.prefs.splitter_state()
        if state is not None:
            self.splitter.restoreState(state)
