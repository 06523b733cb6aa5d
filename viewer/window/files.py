"""Files as the window handles them: where a file dialog starts, the recent files, and
what the empty page area says.

A file dialog starts in the open citations file's folder (or the bare PDF's), else where
a file was last chosen, else the home folder — never wherever citeview happened to be
launched from. A file goes into File ▸ Open Recent only once it has opened (a citations
file read and valid, a PDF that opens), and one that then fails to open is taken out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from ..state.session import Change, DocumentStatus, Session
from .controller import Controller
from .settings import Preferences

if TYPE_CHECKING:
    from PySide6.QtWidgets import QFileDialog

NOTHING_OPEN = ("Drop a citations file (.cite, .json) or a PDF here,\n"
                "or open one with File ▸ Open (Ctrl+O).")


def dialog_folder(session: Session, prefs: Preferences) -> Path:
    """Where a file dialog starts: beside what is open, else where the last file was
    chosen, else the home folder."""
    candidates: list[Path | None] = []
    if session.citations_path is not None:
        candidates.append(session.citations_path.parent)
    candidates += [d.path.parent for d in session.documents.values()]
    candidates.append(prefs.last_folder())
    for folder in candidates:
        if folder is not None and folder.is_dir():
            return folder
    return Path.home()


def file_dialog(parent: QWidget, title: str, filters: str, folder: Path) -> QFileDialog:
    """An open-a-file dialog starting in ``folder``."""
    from PySide6.QtWidgets import QFileDialog  # dialogs: made on first use

    dialog = QFileDialog(parent, title, str(folder), filters)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    return dialog


def empty_text(session: Session, doc: DocumentStatus | None) -> str:
    """What the page area says when it shows no page: an invitation to open a file only
    when nothing is open; otherwise why this document shows nothing."""
    if session.citations is None and not session.documents:
        return NOTHING_OPEN
    if doc is None:
        if session.citations is not None and not session.citations.documents:
            return "This citations file names no document."
        return "Opening the document…" if any(
            d.state == "unknown" for d in session.documents.values()) else \
            "Select a claim to see its document."
    if doc.state == "unknown":
        return f"Opening {doc.name}…"
    if doc.state == "missing":
        return (f"{doc.name} is missing: it is not at {doc.path}.\n"
                "Point to it with File ▸ Locate Document (Ctrl+L).")
    if doc.state in ("encrypted", "bad_password"):
        return f"{doc.name} is password-protected: enter its password to see it."
    return f"{doc.name} cannot be shown: {doc.message}"


class RecentFiles(QObject):
    """Keeps File ▸ Open Recent to files that opened."""

    def __init__(self, session: Session, controller: Controller, prefs: Preferences, *,
                 interactive: bool, parent: QObject | None = None) -> None:
        """``interactive=False`` (screenshots, scripts) changes no setting."""
        super().__init__(parent)
        self.session, self.controller, self.prefs = session, controller, prefs
        self.interactive = interactive
        controller.opened.connect(self._opened)
        controller.open_failed.connect(self._failed)
        session.changed.connect(self._on_session)

    def _opened(self, path: Path) -> None:
        if self.interactive and not self.session.is_plain_pdf:
            self.prefs.add_recent(path)  # a citations file, read and valid

    def _failed(self, path: Path) -> None:
        if self.interactive:
            self.prefs.remove_recent(path)

    def _on_session(self, change: Change) -> None:
        session = self.session
        if change != "documents" or not session.is_plain_pdf or not self.interactive:
            return
        doc = session.documents["pdf"]
        if doc.state == "ok":
            self.prefs.add_recent(doc.path)
        elif doc.state not in ("unknown", "encrypted", "bad_password"):
            self.prefs.remove_recent(doc.path)
