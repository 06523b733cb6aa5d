"""File ▸ Export in the window: ask what to write, then have the check process write it.

The export runs in the check process (it uses PyMuPDF, which the window never imports),
through :meth:`~viewer.checker.client.CheckClient.export`, as a background operation: a
progress dialog appears when it takes more than a second, and its Cancel stops the work
between items (what was being written is not left half-written). The result is said in
the status bar; a failure in the notice bar's words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QStatusBar, QWidget

from ..checker.protocol import Exported
from ..state.exports import ExportTargets
from ..state.session import Session
from .controller import Controller
from .operations import Operation

if TYPE_CHECKING:
    from PySide6.QtWidgets import QProgressDialog

log = logging.getLogger(__name__)

# Work that ends sooner than this shows no progress dialog (milliseconds).
PROGRESS_AFTER_MS = 1000
Ask = Callable[[ExportTargets, bool], ExportTargets | None]  # (proposed, several docs) → choice


class ExportCommand(QObject):
    """The window's Export command: its enabled state, the dialog, the running export."""

    finished = Signal(object)  # Exported, or None when it failed or was cancelled

    def __init__(self, session: Session, controller: Controller, status: QStatusBar, *,
                 interactive: bool, parent: QWidget, ask: Ask | None = None) -> None:
        """The dialogs are ``parent``'s; ``interactive=False`` exports what is proposed."""
        super().__init__(parent)
        self.session, self.controller, self.status = session, controller, status
        self.interactive = interactive
        self._parent = parent
        self.action: QAction | None = None  # File ▸ Export, enabled here (given by the shell)
        self.ask: Ask = ask or self._dialog
        self.operation: Operation | None = None
        self.progress: QProgressDialog | None = None
        session.changed.connect(self._update)

    def _update(self, _change: object = None) -> None:
        if self.action is not None:
            s = self.session
            self.action.setEnabled(s.citations is not None and not s.is_plain_pdf)

    def start(self) -> None:
        """Ask what to export (by default everything, beside the citations file), then
        export it in the background."""
        s = self.session
        if s.citations_path is None or s.citations is None or self.running():
            return
        # The dialog's module is loaded by the first export, not at start-up.
        from ..widgets.export_dialog import default_choice

        several = len(s.citations.documents) > 1
        choice = self.ask(default_choice(s.citations_path, documents=len(
            s.citations.documents)), several)
        if choice is not None and choice.any():
            self.run(choice)

    def running(self) -> bool:
        return self.operation is not None and self.operation.is_running()

    def run(self, choice: ExportTargets) -> Operation:
        """Export ``choice`` now, in the check process."""
        from PySide6.QtWidgets import QProgressDialog  # Qt makes the class on first use

        s, client = self.session, self.controller.client
        assert s.citations_path is not None
        path, moved, passwords = s.citations_path, s.moved_documents(), s.passwords()
        self.progress = dialog = QProgressDialog("Checking and exporting…", "Cancel", 0, 0,
                                                 self._parent)
        dialog.setWindowTitle("Export")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(PROGRESS_AFTER_MS)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        self.status.showMessage("Exporting…", 0)
        # One of the controller's operations, so closing the window stops it and waits.
        self.operation = op = self.controller.ops.run(
            lambda progress, cancel: client.export(
                path, pdf=choice.pdf, html=choice.html, csv=choice.csv,
                annotations=choice.annotations, moved=moved, passwords=passwords,
                progress=progress, cancel=cancel),
            self._done, on_failure=self._failed, on_progress=self._progressed,
            name="citeview-export")
        return op

    def cancel(self) -> None:
        if self.operation is not None:
            self.operation.cancel()
        self._close_progress()
        self.status.showMessage("Export cancelled.", 10000)
        self.finished.emit(None)

    def _progressed(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.setMaximum(max(total, 1))
            self.progress.setValue(done)

    def _done(self, result: Exported) -> None:
        self._close_progress()
        names = ", ".join(Path(w).name for w in result.written) or "nothing"
        text = f"Exported {names}."
        if result.problems:
            text += " Not all could be used: " + "; ".join(result.problems)
        self.status.showMessage(text, 0)
        self.finished.emit(result)

    def _failed(self, exc: BaseException) -> None:
        self._close_progress()
        log.info("export failed: %s", exc)
        self.status.showMessage(f"Export failed: {exc}", 0)
        self.finished.emit(None)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.hide()
            self.progress.deleteLater()
            self.progress = None

    def _dialog(self, proposed: ExportTargets, several: bool) -> ExportTargets | None:
        if not self.interactive:
            return proposed
        from PySide6.QtWidgets import QDialog

        from ..widgets.export_dialog import ExportDialog

        encrypted = [d.path.name for d in self.session.documents.values()
                     if d.password is not None]  # opened with a password: encrypted
        dialog = ExportDialog(proposed, several_documents=several, parent=self._parent,
                              encrypted=encrypted)
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None
