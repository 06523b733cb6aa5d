"""Selecting and copying words on a scanned page: the boxes are the OCR words stored by
``citeview prepare`` (real tesseract), the same the matcher highlights with, never a text
layer (the page has none)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from matcher.document import PdfSource
from matcher.ocr.store import OcrStore
from matcher.words import Word
from viewer.render.overlay import Style
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, write_citations
from .review_helpers import (
    device_boxes,
    drag,
    line_unions,
    open_and_check,
    press,
    show_page,
    word_centre,
)
from .test_recognise import scanned

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None,
                                reason="tesseract is not installed")
MakeWindow = Callable[..., MainWindow]
REPO = Path(__file__).resolve().parents[2]


def copied_text(words: Sequence[Word]) -> str:
    """The words as a reader copies them: spaces within a line, a newline between lines."""
    lines: dict[int, list[str]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w.text)
    return "\n".join(" ".join(line) for line in lines.values())


def test_a_drag_on_a_scanned_page_copies_its_stored_ocr_words(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "store"
    monkeypatch.setenv("CITEVIEW_OCR_STORE", str(store))
    scan = scanned(tmp_path)
    subprocess.run([sys.executable, "-m", "viewer.cli", "prepare", "--jobs", "1", str(scan)],
                   cwd=REPO, env=dict(os.environ, CITEVIEW_OCR_STORE=str(store)),
                   check=True, capture_output=True)
    with PdfSource(scan, ocr=OcrStore.default()) as source:
        found = source.page_words(1)
    assert found.source == "ocr"
    words = list(found.words)
    # From the second word of the page's fourth line to the third of its sixth.
    starts = {w.line: i for i, w in reversed(list(enumerate(words)))}
    first, last = starts[3] + 1, starts[5] + 2
    cite = write_citations(tmp_path / "scan.cite", "scan.pdf", [
        {"id": "s", "text": "in the scan", "evidence": [
            {"quote": paragraph_lines(1, 40)[0], "page": 2}]}])
    window = make_window((1000, 760))
    open_and_check(qtbot, window, cite)
    window.view.set_zoom(1.25)
    show_page(qtbot, window, 1)
    cache = window.selecting.cache
    cache.words_of(1)
    qtbot.waitUntil(lambda: cache.ready(1), timeout=20000)
    drag(qtbot, window, word_centre(window, scan, 1, words[first].rect),
         word_centre(window, scan, 1, words[last].rect))
    qtbot.waitUntil(lambda: window.selecting.selection is not None)
    press(qtbot, window, "Ctrl+C")
    assert QApplication.clipboard().text() == copied_text(words[first:last + 1])
    # Drawn over the OCR boxes, one a line, in the selection style.
    window.view.viewport().repaint()
    drawn = [box for _, style, box in window.selecting.overlay.painted
             if style is Style.SELECTION]
    spans = [(*w.rect, w.text, 0, w.line) for w in words[first:last + 1]]
    expected = device_boxes(window, scan, 1, line_unions(spans))
    assert len(drawn) == len(expected) == 3
    for got, want in zip(drawn, expected, strict=True):
        assert max(abs(got.left() - want.left()), abs(got.top() - want.top()),
                   abs(got.right() - want.right()), abs(got.bottom() - want.bottom())) < 1.0
