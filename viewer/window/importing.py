"""File ▸ Import… in the window, and ``citeview ANSWER --document …`` at start: another
system's answer imported, then opened like any citations file.

The import runs in the check process (:meth:`~viewer.checker.client.CheckClient.
import_answer`, the very function ``citeview import`` runs), as a background operation,
so the result is the one the command gives: RESPONSE.cite and its documents beside the
answer. A failure is said in the notice bar with every problem's JSON path.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QStatusBar, QWidget

from ..checker.protocol import Imported
from ..state.session import Session
from ..widgets.notice import NoticeBar
from .controller import Controller
from .files import dialog_folder, file_dialog
from .operations import Operation
from .settings import Preferences

log = logging.getLogger(__name__)


class ImportCommand(QObject):
    """The window's Import command: the two file dialogs and the running import."""

    finished = Signal(object)  # Imported, or None when it failed

    def __init__(self, session: Session, controller: Controller, prefs: Preferences,
                 notice: NoticeBar, status: QStatusBar, *, open_path: Callable[[Path], object],
                 parent: QWidget) -> None:
        """``open_path`` opens what the import wrote (the window's); the dialogs are
        ``parent``'s."""
        super().__init__(parent)
        self.session, self.controller, self.prefs = session, controller, prefs
        self.notice, self.status, self._open_path = notice, status, open_path
        self._parent = parent
        self.operation: Operation | None = None
        self.then: Callable[[], None] | None = None

    def start(self) -> None:
        """Ask for the answer, then for its documents (or its request); import them."""
        from PySide6.QtWidgets import QFileDialog

        folder = dialog_folder(self.session, self.prefs)
        dialog = file_dialog(self._parent, "Import an Answer (a Messages API response)",
                             "Answers (*.json);;All files (*)", folder)
        if not dialog.exec() or not dialog.selectedFiles():
            return
        response = Path(dialog.selectedFiles()[0])
        docs = file_dialog(self._parent, "Its documents (or the request that carried them)",
                           "Documents or request (*.pdf *.txt *.json);;All files (*)",
                           response.parent)
        docs.setFileMode(QFileDialog.FileMode.ExistingFiles)
        if not docs.exec() or not docs.selectedFiles():
            return
        chosen = sorted(Path(f) for f in docs.selectedFiles())
        requests = [c for c in chosen if c.suffix.lower() == ".json"]
        if requests and len(chosen) == 1:
            self.run(response, request=requests[0])
        elif requests:
            self.notice.show_notice("Choose the documents or one request, not both.",
                                    kind="error")
        else:
            self.run(response, documents=chosen, by_title=True)

    def run(self, response: Path, *, documents: Sequence[Path] = (),
            request: Path | None = None, by_title: bool = False,
            then: Callable[[], None] | None = None) -> Operation:
        """Import ``response`` now, in the check process, then open what it wrote (and
        call ``then``: the start-up's ``--claim`` and ``--page`` apply to that file).
        ``by_title``: the documents were picked together, in no order; each goes where
        the answer's titles name it, the others in the order of their names."""
        client = self.controller.client
        self.then = then
        self.status.showMessage(f"Importing {response.name}…", 0)
        self.operation = op = self.controller.ops.run(
            lambda _progress, _cancel: client.import_answer(
                response, documents=documents, request=request, by_title=by_title),
            self._done, on_failure=self._failed, name="citeview-import")
        return op

    def _done(self, result: Imported) -> None:
        self.status.showMessage(f"Imported as {Path(result.path).name}.", 10000)
        self._open_path(Path(result.path))
        then, self.then = self.then, None
        if then is not None:
            then()
        self.finished.emit(result)

    def _failed(self, exc: BaseException) -> None:
        log.info("import failed: %s", exc)
        self.controller.failed_to_open = True  # a screenshot run exits 2
        self.status.clearMessage()
        self.notice.show_notice(f"Could not import: {exc}", kind="error")
        self.finished.emit(None)
