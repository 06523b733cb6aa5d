"""The main window: claims and detail on the left, the pages on the right; menus, toolbar,
status bar.

The window only shows. What is open and selected lives in the
:class:`~viewer.state.session.Session`; opening, inspecting, checking and the background
work are the :class:`~viewer.window.controller.Controller`'s, whose signals the window
turns into the notice bar, the progress bar and status messages; the commands are
:mod:`.actions`'. The check client and the renderer are given to the window (or made by
default), so tests can hand it their own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QColor, QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from .. import qtcompat
from ..checker import client as checker_client
from ..checker.client import CheckClient
from ..render.highlight import Highlighter
from ..render.layout import ZoomMode
from ..render.renderer import Renderer
from ..render.tiles import DocRef
from ..render.view import PageView
from ..state.files import CITATION_SUFFIXES, demo_path
from ..state.presentation import either_of
from ..state.rows import FLAGGED_BADGES
from ..state.session import Change, Session
from ..widgets.claims import ClaimList
from ..widgets.detail import DetailPane
from ..widgets.notice import NoticeBar
from .accessibility import name_widgets, visual_focus_order
from .actions import Slots, WindowActions, fill_recent, show_about, show_shortcuts
from .controller import Busy, Controller, Notice
from .export import ExportCommand
from .files import NOTHING_OPEN, dialog_folder, empty_text, file_dialog
from .first_paint import FirstPaint
from .importing import ImportCommand
from .page_box import PageBox
from .page_selection import PageSelection
from .reader import Reader
from .review_ui import ReviewUi
from .settings import Preferences

# Width of the claims side: a share of the window, within limits (logical pixels).
LEFT_SHARE, LEFT_MIN, LEFT_MAX = 0.3, 260, 460
# Height of the claims list (with its filter bar) as a share of the left side; the rest is
# the detail pane, which scrolls.
CLAIMS_SHARE = 0.55
# The progress bar follows a count at most this often (milliseconds; see BusyBar).
PROGRESS_EVERY_MS = 50
OPEN_FILTER = "Citations or PDF (*.cite *.json *.pdf);;Citations (*.cite *.json);;PDF (*.pdf)"


class MainWindow(QMainWindow):
    """citeview's window. ``interactive=False`` (screenshots, scripts) never opens a dialog.

    ``checker`` makes the check client (default: the process ``citeview`` started before
    Qt, else a new one), and is asked again if that process dies; ``renderer`` renders
    the pages (default: a new one, in its own process).
    """

    busy_changed = Signal()  # background work started or ended
    settled = Signal()  # nothing running and every visible page rendered

    def __init__(self, prefs: Preferences, *, interactive: bool = True,
                 highlight: QColor | None = None,
                 checker: Callable[[], CheckClient] = checker_client.take,
                 renderer: Renderer | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        qtcompat.install_guard()
        self.prefs = prefs
        self.interactive = interactive
        self.session = Session()
        self.controller = Controller(self.session, checker, interactive=interactive,
                                     parent=self)
        self.controller.ask_password = self._ask_password
        self.controller.ask_path = self._ask_path
        color = QColor(highlight) if highlight is not None else prefs.highlight_color()
        self.renderer = renderer if renderer is not None else Renderer(parent=self)
        self.view = PageView(self.renderer, Highlighter(color))
        self.view.empty_text = NOTHING_OPEN
        self.notice = NoticeBar(color)
        self.claims = ClaimList(self.session, color)
        self.detail = DetailPane(self.session, color)
        self._shown_doc: str | None = None
        self._split_done = False
        self.first_paint = FirstPaint(self.session, self.view, self.renderer, self)
        self._build()
        self._connect()
        # Words selected on the page, to copy them (and to relocate a quote, in the review).
        self.selecting = PageSelection(self.session, self.view, self.controller, self)
        self.selecting.message.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.review = ReviewUi(self)
        self.setAcceptDrops(True)
        self.setWindowTitle("citeview")
        self.setMinimumSize(640, 480)
        mode = prefs.zoom_mode()
        self._initial_mode = ZoomMode(mode) if mode in ("width", "page") else ZoomMode.FIT_WIDTH
        # Find, side panel, rotation, printing, context menus, the summary: viewer.window.reader.
        self.reader = Reader(self)
        enable_claim_steps(self)  # nothing open yet: no claims to step through
        name_widgets(self)  # every interactive widget named for a screen reader
        visual_focus_order(self, (self.left_panel, self.splitter.widget(1)))

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
        c, v = self.controller, self.view
        self.exporter = ExportCommand(self.session, c, self.statusBar(),
                                      interactive=self.interactive, parent=self)
        self.importer = ImportCommand(self.session, c, self.prefs, self.notice, self.statusBar(),
                                      open_path=lambda path: self.open_path(path),
                                      parent=self)
        self.commands = WindowActions(self, Slots(
            open=self.open_dialog, open_demo=lambda: self.open_path(demo_path()),
            locate=c.locate_document, recheck=c.recheck, quit=quit_all,
            zoom_in=v.zoom_in, zoom_out=v.zoom_out, actual_size=lambda: v.set_zoom(1.0),
            fit_width=lambda: self._set_mode(ZoomMode.FIT_WIDTH),
            fit_page=lambda: self._set_mode(ZoomMode.FIT_PAGE),
            go_to_page=lambda: self.pages.focus(), highlight_color=self.choose_highlight_color,
            next_claim=lambda: self.step_claim(1), previous_claim=lambda: self.step_claim(-1),
            next_flagged=lambda: self.step_claim(1, flagged=True),
            previous_flagged=lambda: self.step_claim(-1, flagged=True),
            shortcuts=lambda: show_shortcuts(self), about=lambda: show_about(self),
            export=self.exporter.start, import_answer=self.importer.start))
        self.exporter.action = self.commands.export  # enabled while a citations file is open
        self.menus = self.commands.build_menus(self)
        self.recent_menu = self.menus.recent
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        bar = self.commands.build_toolbar(self)
        self.toolbar, self.zoom_label = bar.bar, bar.zoom_label
        self.page_box, self.page_count_label = bar.page_box, bar.page_count_label
        self.pages = PageBox(self.view, self.page_box, self.page_count_label,
                             self._page_complaint)
        self.progress, self.cancel_button = busy_widgets(self.statusBar(), c.cancel_check)
        self.busy_bar = BusyBar(self.progress, self.cancel_button, self)

    def _connect(self) -> None:
        c = self.controller
        c.busy_changed.connect(self._on_busy)
        c.opened.connect(self._on_opened)
        c.open_failed.connect(lambda _path: enable_claim_steps(self))
        c.open_failed.connect(lambda _path: self.first_paint.undo())
        c.message.connect(self._show_message)
        c.progress.connect(self.busy_bar.show)
        c.notice.connect(self._show_notice)
        c.document_wanted.connect(self._show_document)
        c.page_wanted.connect(self.view.go_to_page)
        self.session.changed.connect(self._on_session)
        self.view.settled.connect(self._maybe_settled)
        self.view.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f}%"))

    # -- what the controller does, for the window's callers ----------------------------
    @property
    def client(self) -> CheckClient:
        """The check client in use (replaced when its process has died)."""
        return self.controller.client

    @property
    def failed_to_open(self) -> bool:
        """What was asked to be opened (a file, a claim) turned out not to exist."""
        return self.controller.failed_to_open

    def open_path(self, path: Path) -> None:
        """Open a citations file (.cite/.json) or a bare PDF (see the controller)."""
        self.first_paint.start(Path(path))  # its first page, before it is read
        self.controller.open_path(path)

    def select_claim_when_ready(self, claim_id: str) -> None:
        self.first_paint.aim(claim=claim_id)
        self.controller.select_claim_when_ready(claim_id)

    def recheck(self) -> None:
        self.controller.recheck()

    def go_to_page_when_ready(self, index: int) -> None:
        """Show page ``index`` (0-based) now, or once the document is open."""
        self.controller.page_requested = True
        self.first_paint.aim(page=index)
        self.pages.go_to_when_ready(index)

    def _page_complaint(self, text: str) -> None:
        self.controller.failed_to_open = True  # what was asked for does not exist
        self.notice.show_notice(text, kind="error")

    def step_claim(self, delta: int, *, flagged: bool = False) -> None:
        target = self.session.step(delta, flagged_only=flagged, among=self.claims.visible_ids())
        if target is not None:
            self.session.select(target)
        elif flagged:
            self.statusBar().showMessage(f"No claim is marked {either_of(FLAGGED_BADGES)}.",
                                         5000)

    def is_busy(self) -> bool:
        return self.controller.is_busy()

    def is_settled(self) -> bool:
        return not self.is_busy() and self.view.is_settled()

    def _maybe_settled(self) -> None:
        if self.is_settled():
            self.settled.emit()
        elif not self.is_busy():
            self.view.viewport().update()  # the next paint requests what is missing

    # -- showing what the controller says -----------------------------------------------
    def _on_busy(self) -> None:
        self.busy_changed.emit()
        # After the callbacks of this turn have run (they may start more work).
        QTimer.singleShot(0, self._maybe_settled)

    def _on_opened(self, path: Path) -> None:
        self.setWindowTitle(f"{path.name} — citeview")
        self.notice.clear()
        plain = self.session.is_plain_pdf
        self.left_panel.setVisible(not plain)
        enable_claim_steps(self)
        if self.first_paint.shown is None:  # else its document stays until the real one
            self._show_document(None)

    def _show_message(self, text: str, ms: int) -> None:
        if text:
            self.statusBar().showMessage(text, ms)
        else:
            self.statusBar().clearMessage()

    def _show_notice(self, notice: Notice | None) -> None:
        if notice is None:
            self.notice.clear()
        else:
            self.notice.show_notice(notice.text, kind=notice.kind, actions=notice.actions)

    def _on_session(self, change: Change) -> None:
        if change in ("citations", "documents"):
            self.commands.locate.setEnabled(
                any(d.state == "missing" for d in self.session.problem_documents()))
        if change == "selection":
            self.show_selection()

    @property
    def shown_doc(self) -> str | None:
        """The id of the document the pages show (None: none)."""
        return self._shown_doc

    def show_selection(self) -> None:
        """Show the selected claim: its document, its highlights, its band centred."""
        s = self.session
        doc_id = s.shown_document
        if doc_id != self._shown_doc:
            self._show_document(doc_id)
        self.view.set_highlights(self.review.highlights(s.selected, doc_id))
        focus = self.review.focus(s.selected, doc_id)
        if focus is not None:
            self.view.reveal(*focus)
        else:
            # Nothing to highlight: show the page the citation pointed at, if it named one,
            # so the reader can look for themselves.
            hint = s.hinted_page(s.selected)
            if hint is not None:
                self.view.go_to_page(hint - 1)

    def _show_document(self, doc_id: str | None) -> None:
        self.first_paint.drop()  # what the file says is shown from now on
        doc = self.session.documents.get(doc_id) if doc_id is not None else None
        if doc is None or not doc.usable:
            self.view.empty_text = empty_text(self.session, doc)
            if self._shown_doc is not None or self.view.doc is not None:
                self.view.set_document(None, [])
            self._shown_doc = None
            self.view.viewport().update()
            self.pages.document_shown("")
            return
        ref = DocRef(str(doc.path), doc.password)
        self._shown_doc = doc.id
        if self.view.doc != ref:
            self.view.set_document(ref, doc.pages)
        self.pages.document_shown(doc.name)

    def show_document(self, doc_id: str) -> None:
        """Show document ``doc_id`` of the citations file (the session's shown one)."""
        self.session.shown_document = doc_id
        self._show_document(doc_id)

    # -- files --------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path = self._ask_path("Open citations file or PDF", OPEN_FILTER)
        if path is not None:
            self.open_path(path)

    def _fill_recent(self) -> None:
        fill_recent(self.recent_menu, self.prefs, self.open_path)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_path(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        path = dropped_path(event)
        if path is not None:
            event.acceptProposedAction()
            self.open_path(path)

    def _ask_password(self, name: str, message: str) -> str | None:
        from PySide6.QtWidgets import QInputDialog, QLineEdit  # dialogs: made on first use

        text, ok = QInputDialog.getText(self, f"Password for {name}", message,
                                        QLineEdit.EchoMode.Password)
        return text if ok else None

    def _ask_path(self, title: str, filters: str) -> Path | None:
        dialog = file_dialog(self, title, filters, dialog_folder(self.session, self.prefs))
        if not dialog.exec() or not dialog.selectedFiles():
            return None
        chosen = Path(dialog.selectedFiles()[0])
        self.prefs.set_last_folder(chosen.parent)
        return chosen

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

    def set_highlight_color(self, color: QColor, *, remember: bool = False) -> None:
        self.view.set_highlight_color(color)
        self.claims.set_highlight(color)
        self.detail.set_highlight(color)
        self.notice.set_highlight(color)
        self.reader.highlight_changed(color)
        if remember:
            self.prefs.set_highlight_color(color)

    def choose_highlight_color(self) -> None:
        from PySide6.QtWidgets import QColorDialog  # dialogs: made on first use

        color = QColorDialog.getColor(self.view.highlighter.color, self, "Highlight colour")
        if color.isValid():
            color.setAlpha(255)
            self.set_highlight_color(color, remember=True)

    # -- showing and closing ------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._split_done:
            self._split_done = True
            split_sides(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.interactive:
            self.prefs.set_geometry(self.saveGeometry())
            self.prefs.set_splitter_state(self.splitter.saveState())
            self.prefs.sync()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop background work and the check and render processes, both told at once to
        leave (idempotent); without ``wait`` only told: they exit as a screenshot is saved."""
        self.renderer.ask_to_leave()
        if not wait:
            self.client.ask_to_leave()
            return
        self.controller.shutdown()
        self.renderer.close()

    def restore_layout(self) -> None:
        geometry = self.prefs.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.prefs.splitter_state()
        if state is not None:
            self.splitter.restoreState(state)


def split_sides(window: MainWindow) -> None:
    """The window's first division: the claims side gets about a third of the window,
    within readable limits, unless a remembered layout already set it; the claims list,
    which one walks, the larger part of that side."""
    if window.prefs.splitter_state() is None or not window.interactive:
        total = max(window.splitter.width(), window.width())
        left = min(LEFT_MAX, max(LEFT_MIN, int(total * LEFT_SHARE)))
        window.splitter.setSizes([left, max(1, total - left)])
    tall = window.left_panel.height()
    window.left_panel.setSizes([int(tall * CLAIMS_SHARE), tall - int(tall * CLAIMS_SHARE)])


def enable_claim_steps(window: MainWindow) -> None:
    """Claim ◀ ▶, Next flagged and Check Again only where there are claims: not for a
    bare PDF, nor in a window whose file failed to open with nothing open before."""
    has_claims = window.session.citations is not None and not window.session.is_plain_pdf
    c = window.commands
    for action in (c.recheck, c.next, c.prev, c.next_flag, c.prev_flag):
        action.setEnabled(has_claims)


def busy_widgets(bar: QStatusBar, cancel: Callable[[], object]
                 ) -> tuple[QProgressBar, QPushButton]:
    """The status bar's progress bar and Cancel button for background work (hidden)."""
    progress = QProgressBar()
    progress.setMaximumWidth(220)
    progress.setTextVisible(True)
    progress.hide()
    button = QPushButton("Cancel")
    button.clicked.connect(cancel)
    button.hide()
    bar.addPermanentWidget(progress)
    bar.addPermanentWidget(button)
    return progress, button


class BusyBar(QObject):
    """The status bar's progress bar and Cancel button showing the work in progress.

    Work starting or ending, or changing its label, is shown at once; its count moving on
    is shown at most every :data:`PROGRESS_EVERY_MS` (the latest count). Qt repaints a
    progress bar synchronously at every new value, and a check says how far it got after
    each evidence item: ~1 ms of the window's time each, hundreds of times in a large
    file, taken from the check process on a machine of few cores."""

    def __init__(self, progress: QProgressBar, cancel: QPushButton,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.progress, self.cancel = progress, cancel
        self._shown: Busy | None = None
        self._latest: Busy | None = None
        self._timer = QTimer(self, singleShot=True, interval=PROGRESS_EVERY_MS)
        self._timer.timeout.connect(self._catch_up)

    def show(self, busy: Busy | None) -> None:
        self._latest = busy
        shown = self._shown
        if busy is not None and shown is not None and self.progress.isVisible() and (
                busy.label, busy.total, busy.cancellable) == (
                shown.label, shown.total, shown.cancellable):
            if not self._timer.isActive():
                self._timer.start()
            return
        self._timer.stop()
        self._apply(busy)

    def _catch_up(self) -> None:
        if self._latest is not None and self._latest != self._shown:
            self._apply(self._latest)

    def _apply(self, busy: Busy | None) -> None:
        self._shown = busy
        progress, cancel = self.progress, self.cancel
        if busy is None:  # the work ended: the bar and Cancel hidden
            progress.hide()
            cancel.hide()
            return
        progress.setRange(0, max(busy.total, 1) if busy.total else 0)
        progress.setValue(busy.done)
        progress.setFormat(busy.label)
        progress.show()
        cancel.setVisible(busy.cancellable)


def dropped_path(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The citations file or PDF dragged onto the window, if it is one."""
    mime = event.mimeData()
    for url in mime.urls() if mime.hasUrls() else []:
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.suffix.lower() in (*CITATION_SUFFIXES, ".pdf"):
                return path
    return None


def quit_all() -> None:
    """Quit citeview (Ctrl+Q): every window is asked to close, as by its close button (a
    window with unsaved decisions asks first and may keep the application running)."""
    QApplication.closeAllWindows()
