"""The first page of a citations file painted before the check process has read the file.

Opening a citations file, the window waits for the check process: its imports (PyMuPDF,
pydantic, the matcher), then its reading of the file and the inspection of the first
document, before it knows which page to show. Meanwhile, the window takes a
:mod:`~viewer.state.glimpse` of the file itself (plain JSON), asks the render process for
that document's pages and, once they are in, shows the page the claim about to be selected
hints at, so it is painted while the check runs; the highlights follow with the report.

It is only a head start on what the window will show anyway: it is taken only while the
window shows nothing, dropped when the file turns out not to open (the window then looks
as it would have without it), and replaced by the document the window shows once the file
is read (the same one, usually, so nothing is drawn again).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from ..render.renderer import PagesRead, Renderer
from ..render.tiles import DocRef
from ..render.view import PageView
from ..state.files import is_citations_file
from ..state.glimpse import glimpse
from ..state.session import Session


class FirstPaint(QObject):
    """Shows a citations file's first page ahead of its check (see the module)."""

    def __init__(self, session: Session, view: PageView, renderer: Renderer,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.view = view
        self.renderer = renderer
        self._path: Path | None = None  # the file to glimpse once this turn is over
        self._claim: str | None = None
        self._page: int | None = None  # a page asked for (0-based): shown instead of the hint
        self._asked: tuple[DocRef, int] | None = None  # pages asked for, the page to show
        self.shown: DocRef | None = None  # what is shown ahead of the file's reading
        renderer.pages_read.connect(self._pages_read)

    def start(self, path: Path) -> None:
        """A file is being opened: glimpse it if it is a citations file and the window
        shows nothing yet. It is read once the current turn of the event loop is over, so
        a claim or page asked for in the same turn (:meth:`aim`) is known by then."""
        self.drop()
        if not is_citations_file(path) or self.view.doc is not None \
                or self.session.citations is not None:
            return  # what is open stays shown until the new file is known to open
        self._path = path.expanduser()
        QTimer.singleShot(0, self._glimpse)

    def aim(self, *, claim: str | None = None, page: int | None = None) -> None:
        """The claim about to be selected, or the 0-based page asked for."""
        if claim is not None:
            self._claim = claim
        if page is not None:
            self._page = page

    def drop(self) -> None:
        """Forget the head start: the file was read (its document shown by the window)."""
        self._path = self._asked = self.shown = None
        self._claim = self._page = None

    def undo(self) -> None:
        """The file did not open: show nothing, as if no head start had been taken."""
        shown = self.shown
        self.drop()
        if shown is not None and self.view.doc == shown:
            self.view.set_document(None, [])

    def _glimpse(self) -> None:
        path, self._path = self._path, None
        if path is None or self.view.doc is not None:
            return
        seen = glimpse(path, self._claim)
        if seen is None:
            return  # the window waits for the check process, as without a head start
        doc = DocRef(str(seen.document), None)
        self._asked = (doc, seen.page if self._page is None else self._page)
        self.renderer.read_pages(doc)

    def _pages_read(self, read: PagesRead) -> None:
        asked, self._asked = self._asked, None
        if asked is None or asked[0] != read.doc or not read.pages \
                or self.view.doc is not None:
            return
        doc, page = asked
        self.view.set_document(doc, read.pages)
        self.view.go_to_page(page)
        self.shown = doc
