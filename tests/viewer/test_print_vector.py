"""Printing as vector PDF: a page range, the page in view, the selected claim's pages or
all of them, written by the check process from the annotated export. Read back with
poppler (pdftotext reads the pages' text: they are the document's own content, not
pictures) and PyMuPDF (the highlights are annotations over the cited words). Cancel
leaves nothing at the output, not even a temporary file."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot

from viewer.window.print_vector import (
    PrintChoice,
    choice_from_dialog,
    claim_pages,
    shown_pages,
    spool_command,
)
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, two_item_window, write_citations

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="poppler's pdftotext is not installed")
MakeWindow = Callable[..., MainWindow]


@pytest.fixture
def checked(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> MainWindow:
    return two_item_window(qtbot, make_window, tmp_path, pages=6)


def pdftotext(pdf: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf),
                           "-"], check=True, capture_output=True, text=True).stdout


def print_and_wait(qtbot: QtBot, window: MainWindow, choice: PrintChoice) -> bool:
    vector = window.reader.vector
    with qtbot.waitSignal(vector.finished, timeout=60000) as finished:
        vector.run(choice)
    return bool(finished.args[0])


def test_a_page_range_prints_as_vector_pdf_with_the_highlights(
        qtbot: QtBot, checked: MainWindow, tmp_path: Path) -> None:
    window = checked
    out = tmp_path / "printed" / "range.pdf"
    out.parent.mkdir()
    pages = shown_pages(window.session, window.view, "range", 2, 4)
    assert [n for _, n in pages] == [1, 2, 3]
    assert print_and_wait(qtbot, window, PrintChoice(pages, to_file=out))
    assert "Printed 3 pages to" in window.statusBar().currentMessage()
    claim = window.session.claim_result("two")
    assert claim is not None
    with pymupdf.open(out) as doc:
        assert doc.page_count == 3
        for sheet, source in enumerate((1, 2, 3)):
            page = doc[sheet]
            assert not page.get_images()  # no page pictures: the page's own content
            text = pdftotext(out, sheet + 1)
            assert f"Page {source + 1} heading" in text
            assert paragraph_lines(source, 40)[5].split()[0] in text
            highlights = [a for a in page.annots() if a.type[1] == "Highlight"]
            cited = [ev for ev in claim.evidence if ev.page == source + 1]
            assert len(highlights) == len(cited)  # pages 2 and 4: one each; page 3 none
            for annot, ev in zip(highlights, cited, strict=True):
                box = pymupdf.Rect(ev.rects[0])
                assert annot.rect.intersects(box)
    assert list(out.parent.iterdir()) == [out]  # no temporary file beside it


def test_the_claims_pages_and_the_dialogs_choices(qtbot: QtBot, checked: MainWindow,
                                                  tmp_path: Path) -> None:
    window = checked
    assert claim_pages(window.session) == (("policy", 1), ("policy", 3))
    out = tmp_path / "claim.pdf"
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    choice = choice_from_dialog(window.session, window.view, printer, claim=True)
    assert choice.pages == claim_pages(window.session) and choice.to_file == out
    assert print_and_wait(qtbot, window, choice)
    with pymupdf.open(out) as doc:
        assert doc.page_count == 2
        assert all(any(a.type[1] == "Highlight" for a in page.annots()) for page in doc)
    assert "Page 4 heading" in pdftotext(out, 2)
    # The dialog's range and its current page.
    printer.setPrintRange(QPrinter.PrintRange.PageRange)
    printer.setFromTo(5, 9)  # past the end: clamped to the document
    def chosen() -> tuple[tuple[str, int], ...]:
        return choice_from_dialog(window.session, window.view, printer, claim=False).pages

    assert [n for _, n in chosen()] == [4, 5]
    printer.setPrintRange(QPrinter.PrintRange.AllPages)
    assert len(chosen()) == 6
    printer.setPrintRange(QPrinter.PrintRange.CurrentPage)
    assert chosen() == (("policy", window.view.current_page),)


def test_cancel_leaves_nothing(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    text_pdf(tmp_path / "long.pdf", pages=150)
    cite = write_citations(tmp_path / "c.cite", "long.pdf", [
        {"id": f"c{n}", "text": "t", "evidence": [
            {"page": n, "quote": paragraph_lines(n - 1, 40)[7]}]} for n in range(1, 151, 3)])
    window = make_window((1000, 750))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=60000)
    out = tmp_path / "out" / "all.pdf"
    out.parent.mkdir()
    vector = window.reader.vector
    seen: list[int] = []
    with qtbot.waitSignal(vector.finished, timeout=60000) as finished:
        op = vector.run(PrintChoice(shown_pages(window.session, window.view, "all"), to_file=out))
        assert op is not None
        assert [b.text() for b in window.notice.buttons()] == ["Cancel"]
        window.notice.buttons()[0].click()  # at once, before anything is written
        seen.append(1)
    assert finished.args == [False] and seen
    qtbot.waitUntil(lambda: not op.is_running(), timeout=60000)
    assert "cancelled" in window.statusBar().currentMessage()
    assert list(out.parent.iterdir()) == []  # nothing, not even a temporary file
    # Printing again afterwards works.
    pages = shown_pages(window.session, window.view, "range", 1, 2)
    assert print_and_wait(qtbot, window, PrintChoice(pages, to_file=out))
    with pymupdf.open(out) as doc:
        assert doc.page_count == 2


def test_the_spoolers_command_lines() -> None:
    f = Path("/tmp/x.pdf")
    assert spool_command("/usr/bin/lp", f, "office", 2) == \
        ["/usr/bin/lp", "-d", "office", "-n", "2", "/tmp/x.pdf"]
    assert spool_command("/usr/bin/lp", f, "", 1) == ["/usr/bin/lp", "-n", "1", "/tmp/x.pdf"]
    assert spool_command("/usr/bin/lpr", f, "office", 3) == \
        ["/usr/bin/lpr", "-P", "office", "-#3", "/tmp/x.pdf"]
