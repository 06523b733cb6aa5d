"""Helpers for the review's window tests: the demo with a claim whose words stand five
times, pressing keys, dragging across words placed by PyMuPDF alone, the sidecar on disk."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from pytestqt.qtbot import QtBot

from matcher.vocabulary import Rect
from viewer.state.files import demo_path
from viewer.window.shell import MainWindow

from .helpers import text_pdf, write_citations

# On page 3 of the demo, five states' fraud warnings share these words.
FRAUD = ("commits a fraudulent insurance act, which is a crime and subjects such person to "
         "criminal and civil penalties")


def demo_copy(folder: Path) -> Path:
    """The demo in ``folder``, plus ``c14``: flagged upstream, its words five times on a
    page (a review placement with four alternatives). The demo's own ``c13`` (a changed
    figure, in the queue for its difference) and ``c15`` (a claim misstating its located
    evidence, in the queue for that) are left out: these tests walk a queue of their own,
    and the review model's tests cover differences joining it."""
    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    for name in ("demo.cite", "policy.pdf"):
        shutil.copy(demo_path().parent / name, folder / name)
    cite = folder / "demo.cite"
    data = json.loads(cite.read_text(encoding="utf-8"))
    data["claims"] = [c for c in data["claims"] if c["id"] not in ("c13", "c15")]
    data["claims"].append({"id": "c14", "text": "Fraud on the application is a crime.",
                           "flag": "the answer hedged", "evidence": [
                               {"document": "policy", "page": 3, "quote": FRAUD}]})
    cite.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return cite


def demo_window(qtbot: QtBot, make_window: Callable[..., MainWindow], folder: Path,
                size: tuple[int, int] = (1000, 700)) -> tuple[Path, MainWindow]:
    """A window of ``size`` showing :func:`demo_copy` in ``folder``, checked."""
    cite = demo_copy(folder)
    window = make_window(size)
    open_and_check(qtbot, window, cite)
    return cite, window


def open_and_check(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    window.open_path(path)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    qtbot.waitUntil(window.is_settled, timeout=30000)


def press(qtbot: QtBot, window: MainWindow, *keys: str) -> None:
    """Press keys with the page view focused: ``"C"``, ``"Shift+N"``, ``"Ctrl+Z"``…"""
    window.view.setFocus()
    for key in keys:
        *mods, name = key.split("+")
        modifiers = Qt.KeyboardModifier.NoModifier
        for m in mods:
            modifiers |= {"Shift": Qt.KeyboardModifier.ShiftModifier,
                          "Ctrl": Qt.KeyboardModifier.ControlModifier}[m]
        code = getattr(Qt.Key, f"Key_{name}")
        qtbot.keyClick(window.view, code, modifiers)


def sidecar(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def pdf_words(pdf: Path, page: int) -> list[tuple[float, float, float, float, str, int, int]]:
    with pymupdf.open(pdf) as doc:
        return [tuple(w[:7]) for w in doc[page].get_text("words")]  # type: ignore[misc]


def line_unions(words: Sequence[Sequence[Any]]) -> list[Rect]:
    """One rectangle per (block, line) of PyMuPDF's words, in their order."""
    lines: dict[tuple[int, int], list[Sequence[Any]]] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w)
    return [(min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws),
             max(w[3] for w in ws)) for ws in lines.values()]


def word_index(pdf: Path, page: int, line: int, word: int) -> int:
    """The index (PyMuPDF's order) of word ``word`` of line ``line`` of a page."""
    words = pdf_words(pdf, page)
    keys = list(dict.fromkeys((w[5], w[6]) for w in words))
    return [i for i, w in enumerate(words) if (w[5], w[6]) == keys[line]][word]


def word_centre(window: MainWindow, pdf: Path, page: int, rect: Sequence[float]) -> QPoint:
    """Where PyMuPDF says a word's centre is in the view's viewport: its rotation matrix
    times the zoom, from where the view painted the page (never the viewer's transform)."""
    painted = window.view.painted_pages[page]
    zoom = window.view.zoom
    with pymupdf.open(pdf) as doc:
        m = doc[page].rotation_matrix * pymupdf.Matrix(zoom, zoom)
    q = pymupdf.Rect(rect[:4]) * m
    return QPoint(round(painted.x() + (q.x0 + q.x1) / 2),
                  round(painted.y() + (q.y0 + q.y1) / 2))


def drag(qtbot: QtBot, window: MainWindow, start: QPoint, end: QPoint) -> None:
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    middle = QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2)
    qtbot.mouseMove(viewport, middle)
    qtbot.mouseMove(viewport, end)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def show_page(qtbot: QtBot, window: MainWindow, page: int) -> None:
    window.view.go_to_page(page)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    assert page in window.view.painted_pages


def relocate_by_drag(qtbot: QtBot, window: MainWindow, pdf: Path, page: int, first: int,
                     last: int) -> list[Rect]:
    """Press R, drag from word ``first`` to word ``last`` of ``page`` (PyMuPDF's order),
    press Enter; returns the line rectangles PyMuPDF's words say were selected."""
    words = pdf_words(pdf, page)
    press(qtbot, window, "R")
    relocation = window.review.relocation
    assert relocation.active
    show_page(qtbot, window, page)
    qtbot.waitUntil(lambda: relocation.words_ready(page), timeout=20000)
    drag(qtbot, window, word_centre(window, pdf, page, words[first]),
         word_centre(window, pdf, page, words[last]))
    qtbot.waitUntil(lambda: relocation.drag.selection is not None, timeout=20000)
    window.view.viewport().repaint()
    press(qtbot, window, "Return")
    assert not relocation.active
    return line_unions(words[first:last + 1])


def device_boxes(window: MainWindow, pdf: Path, page: int, rects: Sequence[Sequence[float]]
                 ) -> list[QRectF]:
    """Where PyMuPDF says these words are in the viewport (dpr 1)."""
    painted = window.view.painted_pages[page]
    with pymupdf.open(pdf) as doc:
        m = doc[page].rotation_matrix * pymupdf.Matrix(window.view.zoom, window.view.zoom)
    out = []
    for r in rects:
        q = pymupdf.Rect(r) * m
        out.append(QRectF(painted.x() + q.x0, painted.y() + q.y0, q.width, q.height))
    return out


def relocation_cite(tmp_path: Path, **pdf: object) -> Path:
    text_pdf(tmp_path / "policy.pdf", pages=3, **pdf)  # type: ignore[arg-type]
    return write_citations(tmp_path / "claims.cite", "policy.pdf", [
        {"id": "lost", "text": "t", "evidence": [
            {"document": "policy", "page": 2, "quote": "a purple submarine moored in Lake "
                                                       "Geneva since 1987"}]}])
