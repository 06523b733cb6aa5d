"""Documents the reader located by hand, remembered for the next time the file is opened.

When a citations file names a PDF that is not where it says (or is not usable there), the
reader points to it with File ▸ Locate Document. That choice is remembered in citeview's
settings — not in the citations file, which stays as the answer tool wrote it — keyed by
the citations file and the document's id, and used the next time that file is opened, if
the located file is still there. The notice bar then says which file is used instead and
where the choice is kept, with a button to forget it.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QObject

from ..state.session import Change, Session
from .controller import Controller, Notice
from .settings import Preferences, file_key


def remembered(prefs: Preferences, citations: Path) -> dict[str, Path]:
    """The documents of ``citations`` located by hand: id → where they are."""
    value = prefs.qsettings.value(f"located/{file_key(citations)}", "")
    try:
        data = json.loads(str(value)) if value else {}
    except ValueError:
        return {}
    return {str(k): Path(v) for k, v in data.items()} if isinstance(data, dict) else {}


def remember(prefs: Preferences, citations: Path, located: dict[str, Path]) -> None:
    key = f"located/{file_key(citations)}"
    if located:
        prefs.qsettings.setValue(key, json.dumps({k: str(v) for k, v in located.items()}))
    else:
        prefs.qsettings.remove(key)


class LocatedDocuments(QObject):
    """Remembers where the reader located documents, and uses it when a file opens."""

    def __init__(self, session: Session, controller: Controller, prefs: Preferences, *,
                 interactive: bool, parent: QObject | None = None) -> None:
        """``interactive=False`` (screenshots, scripts) changes no setting."""
        super().__init__(parent)
        self.session, self.controller, self.prefs = session, controller, prefs
        self.interactive = interactive
        self._used: dict[str, Path] = {}  # located documents used for the file opening
        session.changed.connect(self._on_session)
        # Said once the window shows the file (opening clears the notice bar first).
        controller.opened.connect(lambda _path: self._say())

    def _on_session(self, change: Change) -> None:
        session = self.session
        path = session.citations_path
        if path is None:
            return
        if change == "citations":
            self._apply(path)
        elif change == "documents" and self.interactive:
            moved = {k: Path(v) for k, v in session.moved_documents().items()}
            if moved != remembered(self.prefs, path):
                remember(self.prefs, path, moved)

    def _apply(self, path: Path) -> None:
        """Point the file's documents where the reader located them before (the files
        must still be there); the controller inspects them at those places."""
        session = self.session
        used = {doc_id: where for doc_id, where in remembered(self.prefs, path).items()
                if doc_id in session.documents and where.is_file()
                and session.documents[doc_id].path != where}
        for doc_id, where in used.items():
            session.relocate(doc_id, where)
        self._used = used

    def _say(self) -> None:
        """Say which located files are used and where that is remembered."""
        session, used, self._used = self.session, self._used, {}
        path = session.citations_path
        if not used or path is None:
            return
        names = ", ".join(f"{session.documents[d].name} at {w.parent}" for d, w in used.items())
        settings = self.prefs.qsettings.fileName()
        self.controller.notice.emit(Notice(
            f"Using {names}, where you located {'it' if len(used) == 1 else 'them'} before "
            f"(remembered for {path.name} in {settings}).", "info",
            [("Forget", lambda: self.forget(path))]))

    def forget(self, path: Path) -> None:
        """Forget what was located for ``path`` and go back to where the file says."""
        remember(self.prefs, path, {})
        session = self.session
        if session.citations_path != path or session.citations is None:
            return
        self.controller.notice.emit(None)
        for ref in session.citations.documents:
            if session.documents[ref.id].path != ref.path:
                session.relocate(ref.id, ref.path)
        self.controller.relocated()
