"""Printing: to a PDF file through QPrinter, read back with poppler's pdftoppm, the
highlight colour over the cited words and nowhere else; the whole document or only the
selected claim's pages, a page per page."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot

from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.window.shell import MainWindow

from .helpers import two_item_window

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="poppler's pdftoppm is not installed")
MakeWindow = Callable[..., MainWindow]
HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)
DPI = 72  # pdftoppm's resolution: one pixel per point of the printed page


def pdf_printer(path: Path) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    printer.setPageSize(QPageSize(QPageSize.PageSizeId.Letter))
    printer.setFullPage(True)  # the page image fills the sheet: points map to points
    return printer


def read_back(pdf: Path, page: int) -> QImage:
    """Page ``page`` (1-based) of a printed PDF as poppler draws it, at 72 dpi."""
    out = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(page), "-l", str(page), "-png",
                    "-singlefile", str(pdf), str(out)], check=True, capture_output=True)
    return QImage(str(out) + ".png").convertToFormat(QImage.Format.Format_RGB32)


def near(a: QColor, b: QColor, tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in ((a.red(), b.red()), (a.green(), b.green()),
                                                    (a.blue(), b.blue())))


def highlighted(image: QImage, rect: QRectF | None = None, *, outside: list[QRectF] = ()
                ) -> int:
    """Pixels of (about) the highlight colour in ``rect``, or outside every ``outside``."""
    area = rect.toAlignedRect() if rect is not None else image.rect()
    grown = [r.adjusted(-2, -2, 2, 2) for r in outside]
    count = 0
    for y in range(max(0, area.top()), min(image.height(), area.bottom() + 1)):
        for x in range(max(0, area.left()), min(image.width(), area.right() + 1)):
            if grown and any(r.contains(x, y) for r in grown):
                continue
            if near(image.pixelColor(x, y), HIGHLIGHT):
                count += 1
    return count


@pytest.fixture
def checked(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> MainWindow:
    return two_item_window(qtbot, make_window, tmp_path, pages=4)


def print_and_wait(qtbot: QtBot, window: MainWindow, printer: QPrinter, pages: list) -> bool:
    """Print ``pages`` and wait for the job to end; True when it printed them all."""
    job = window.reader.print_pages(printer, pages)
    with qtbot.waitSignal(job.finished, timeout=30000) as finished:
        pass
    return bool(finished.args[0]) and not job.failed_pages


def test_the_claims_pages_print_with_their_highlights(qtbot: QtBot, checked: MainWindow,
                                                      tmp_path: Path) -> None:
    window = checked
    out = tmp_path / "printed.pdf"
    pages = window.reader.claim_pages()
    assert [p.info.index for p in pages] == [1, 3]  # only the claim's pages
    assert print_and_wait(qtbot, window, pdf_printer(out), pages)
    with pymupdf.open(out) as doc:
        assert doc.page_count == 2
    claim = window.session.claim_result("two")
    assert claim is not None
    for sheet, ev in enumerate(claim.evidence, 1):
        image = read_back(out, sheet)
        # A Letter page printed full-page on Letter paper: points are pixels at 72 dpi.
        assert (image.width(), image.height()) == (612, 792)
        boxes = [QRectF(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in ev.rects]
        for box in boxes:  # the highlight colour over the cited words…
            assert highlighted(image, box.adjusted(1, 1, -1, -1)) > box.width() * 2
        assert highlighted(image, outside=boxes) == 0  # …and nowhere else
        # The words are printed under it: dark pixels inside the box.
        dark = sum(1 for box in boxes for x in range(int(box.left()), int(box.right()))
                   if image.pixelColor(x, int(box.center().y())).lightness() < 100)
        assert dark > 0


def test_the_whole_document_prints_a_page_per_page(qtbot: QtBot, checked: MainWindow,
                                                   tmp_path: Path) -> None:
    window = checked
    out = tmp_path / "all.pdf"
    printer = pdf_printer(out)
    printer.setPageOrientation(QPageLayout.Orientation.Portrait)
    pages = window.reader.document_pages()
    assert len(pages) == 4
    assert print_and_wait(qtbot, window, printer, pages)
    with pymupdf.open(out) as doc:
        assert doc.page_count == 4
    assert highlighted(read_back(out, 1)) == 0  # page 1 holds no evidence
    assert highlighted(read_back(out, 2)) > 0


def test_printing_can_be_cancelled(qtbot: QtBot, checked: MainWindow, tmp_path: Path) -> None:
    window = checked
    job = window.reader.print_pages(pdf_printer(tmp_path / "x.pdf"),
                                    window.reader.document_pages())
    assert window.notice.isVisible() and [b.text() for b in window.notice.buttons()] == \
        ["Cancel"]
    with qtbot.waitSignal(job.finished, timeout=10000) as finished:
        window.notice.buttons()[0].click()
    assert finished.args == [False] and window.reader.job is None
    assert "stopped" in window.statusBar().currentMessage()
