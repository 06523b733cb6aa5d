"""Printing as vector PDF: the pages chosen, with their highlights as annotations.

What is printed is the annotated export's PDF (the document's own pages and text,
citeview's highlights as annotations), cut to the pages chosen: all of the shown
document's, a range of them, the page in view, or the selected claim's pages (in every
document its evidence is in). The check process writes it (:class:`~viewer.checker.
protocol.PrintCopy`), whole or not at all, as a background operation with progress and
Cancel; Cancel leaves nothing at the output.

Printing to a file writes that PDF there. A printer gets it through the system's print
spooler (``lp``, else ``lpr``) when there is one; where there is none, the pages are
rendered at the printer's resolution and painted on it (:mod:`.printing`).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject, QProcess, Signal
from PySide6.QtWidgets import QStatusBar

from ..render.view import PageView
from ..state.session import Session
from .controller import Controller, Notice
from .operations import Operation

if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrinter

log = logging.getLogger(__name__)

PrintedPage = tuple[str, int]  # a document's id and a 0-based page of it
Scope = Literal["all", "range", "current", "claim"]
# Without a spooler, pages are rendered at the printer's resolution, but never finer
# than this (a 1200-dpi printer would need 140 MB a page; text is sharp at 600).
MAX_RASTER_DPI = 600
SPOOLERS = ("lp", "lpr")


@dataclass(frozen=True, slots=True)
class PrintChoice:
    """What to print and where: pages (document id, 0-based), and a file or a printer."""

    pages: tuple[PrintedPage, ...]
    to_file: Path | None = None
    printer: str = ""  # the system printer's name ("" the default one)
    copies: int = 1


def shown_pages(session: Session, view: PageView, scope: Scope, first: int = 1,
                last: int = 0) -> tuple[PrintedPage, ...]:
    """The shown document's pages for ``scope``: all, the 1-based range ``first``…``last``
    (clamped to the document), or the page in view."""
    doc_id = session.shown_document
    if doc_id is None or view.pages_layout is None:
        return ()
    count = len(view.pages_layout)
    if scope == "current":
        return ((doc_id, view.current_page),) if view.current_page >= 0 else ()
    if scope == "range":
        lo, hi = max(1, first), min(count, last if last > 0 else count)
        return tuple((doc_id, n - 1) for n in range(lo, hi + 1))
    return tuple((doc_id, n) for n in range(count))


def claim_pages(s: Session) -> tuple[PrintedPage, ...]:
    """The pages the selected claim's evidence is placed on, in every document, once each."""
    claim = s.claim_result(s.selected)
    out: list[PrintedPage] = []
    for ev in claim.evidence if claim is not None else ():
        doc = s.documents.get(ev.document or "")
        if ev.page is None or not ev.rects or doc is None or not doc.usable:
            continue
        key = (doc.id, ev.page - 1)
        if key not in out and 0 < ev.page <= len(doc.pages):
            out.append(key)
    return tuple(out)


def spooler() -> str | None:
    """The system's print spooler command, if it has one."""
    return next((found for name in SPOOLERS if (found := shutil.which(name))), None)


def spool_command(command: str, file: Path, printer: str, copies: int) -> list[str]:
    """The spooler's command line that prints ``file`` on ``printer`` (or the default)."""
    if Path(command).name == "lp":
        return [command, *(["-d", printer] if printer else []), "-n", str(copies), str(file)]
    return [command, *(["-P", printer] if printer else []), f"-#{copies}", str(file)]


class VectorPrint(QObject):
    """One print at a time: the PDF written in the check process, then filed or spooled.

    ``finished(ok)``: True once the file is written or handed to the spooler; False when
    cancelled or failed (the status bar says which)."""

    finished = Signal(bool)

    def __init__(self, session: Session, controller: Controller, status: QStatusBar, *,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.controller, self.status = session, controller, status
        self.operation: Operation | None = None
        self.out: Path | None = None
        self._existed = False
        self._cancelled = False

    def running(self) -> bool:
        return self.operation is not None and self.operation.is_running()

    def run(self, choice: PrintChoice) -> Operation | None:
        """Write ``choice``'s pages as PDF (to its file, else to a temporary one that is
        spooled), in the background."""
        s = self.session
        if not choice.pages:
            self.status.showMessage("Nothing to print.", 5000)
            return None
        if self.running():
            self.cancel()
        if choice.to_file is not None:
            out = choice.to_file
        else:
            fd, name = tempfile.mkstemp(prefix="citeview-print-", suffix=".pdf")
            os.close(fd)
            out = Path(name)
        self.out, self._existed, self._cancelled = out, out.exists(), False
        documents = {d.id: d.path for d in s.documents.values() if d.usable}
        citations = None if s.is_plain_pdf else s.citations_path
        moved, passwords, client = s.moved_documents(), s.passwords(), self.controller.client
        n = len(choice.pages)
        notice = self.controller.notice
        notice.emit(Notice(f"Preparing {n} page{'s' * (n != 1)} to print…", "info",
                           [("Cancel", self.cancel)]))
        self.operation = op = self.controller.ops.run(
            lambda progress, cancel: client.print_copy(
                out, choice.pages, documents, path=citations, moved=moved,
                passwords=passwords, progress=progress, cancel=cancel),
            lambda count: self._written(choice, out, count),
            on_failure=lambda exc: self._failed(out, exc), name="citeview-print")
        op.finished.connect(lambda: self._ended(choice, out))
        return op

    def cancel(self) -> None:
        """Stop the print: nothing is left at the output (a file finished meanwhile is
        removed, unless it was there before)."""
        if self._cancelled or not self.running():
            return
        self._cancelled = True
        assert self.operation is not None
        self.operation.cancel()  # its callbacks are skipped; _ended tidies up
        self.controller.notice.emit(None)
        self.status.showMessage("Printing cancelled: nothing was printed.", 8000)
        self.finished.emit(False)

    def _ended(self, choice: PrintChoice, out: Path) -> None:
        """The operation's thread ended: a print cancelled but written meanwhile is
        removed (a file that was there before is left as it now is)."""
        if self._cancelled and (choice.to_file is None or not self._existed):
            out.unlink(missing_ok=True)

    def _written(self, choice: PrintChoice, out: Path, count: int) -> None:
        self.controller.notice.emit(None)
        if choice.to_file is not None:
            self.status.showMessage(
                f"Printed {count} page{'s' * (count != 1)} to {out}.", 0)
            self.finished.emit(True)
            return
        command = spooler()
        if command is None:  # the caller prints the raster way instead
            out.unlink(missing_ok=True)
            self.finished.emit(False)
            return
        args = spool_command(command, out, choice.printer, choice.copies)
        process = QProcess(self)

        def spooled(code: int, _status: object) -> None:
            out.unlink(missing_ok=True)
            said = bytes(process.readAllStandardError().data()).decode(errors="replace")
            if code == 0:
                self.status.showMessage(
                    f"Sent {count} page{'s' * (count != 1)} to "
                    f"{choice.printer or 'the default printer'}.", 0)
            else:
                self.status.showMessage(
                    f"The printer did not take the pages: {said.strip() or code}", 0)
            self.finished.emit(code == 0)
            process.deleteLater()

        process.finished.connect(spooled)
        process.start(args[0], args[1:])

    def _failed(self, out: Path, exc: BaseException) -> None:
        self.controller.notice.emit(None)
        if choice_is_temporary(out):
            out.unlink(missing_ok=True)
        log.info("printing failed: %s", exc)
        self.status.showMessage(f"Printing failed: {exc}", 0)
        self.finished.emit(False)


def choice_is_temporary(out: Path) -> bool:
    """Whether ``out`` is a file this module made to spool (removed when done)."""
    return out.parent == Path(tempfile.gettempdir()) and out.name.startswith("citeview-print-")


def choice_from_dialog(session: Session, view: PageView, printer: QPrinter, *, claim: bool
                       ) -> PrintChoice:
    """What the print dialog's settings ask for: its range (all, from–to, the current
    page) of the shown document, or the claim's pages; to its file or its printer."""
    from PySide6.QtPrintSupport import QPrinter

    if claim:
        pages = claim_pages(session)
    else:
        r = printer.printRange()
        if r == QPrinter.PrintRange.PageRange:
            pages = shown_pages(session, view, "range", printer.fromPage(), printer.toPage())
        elif r == QPrinter.PrintRange.CurrentPage:
            pages = shown_pages(session, view, "current")
        else:
            pages = shown_pages(session, view, "all")
    to_file = None
    if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat and printer.outputFileName():
        to_file = Path(printer.outputFileName())
    return PrintChoice(pages, to_file, printer.printerName(), max(1, printer.copyCount()))


def raster_dpi(printer: QPrinter) -> int:
    """The resolution pages are rendered at for a printer without a spooler."""
    return max(72, min(MAX_RASTER_DPI, printer.resolution()))


def print_dialog_options() -> Sequence[object]:
    """The print dialog's options: a page range and the current page may be chosen."""
    from PySide6.QtPrintSupport import QAbstractPrintDialog

    o = QAbstractPrintDialog.PrintDialogOption
    return (o.PrintPageRange, o.PrintCurrentPage, o.PrintToFile, o.PrintShowPageSize)
