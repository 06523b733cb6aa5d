"""The window, driven the way a person drives it: open, select, step, zoom, recover.

Files are generated in the test (a text PDF and a citations file quoting its lines), and
the check is the real ``matcher.check``; the bundled demo is used where every status is
needed at once.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QDropEvent, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from matcher.vocabulary import ProgressCallback
from viewer.checker.client import CheckClient
from viewer.checker.protocol import CheckerError
from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.render.layout import ZoomMode
from viewer.state.files import demo_path
from viewer.state.records import Report
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .helpers import color_outside, count_color, paragraph_lines, text_pdf, write_citations

HIGHLIGHT = QColor(DEFAULT_HIGHLIGHT)
MakeWindow = Callable[..., MainWindow]


@pytest.fixture
def cite(tmp_path: Path) -> Path:
    """policy.pdf (3 pages) and claims: located ×2 (one with two items), not located,
    rejected, uncited."""
    text_pdf(tmp_path / "policy.pdf", pages=3)
    lines = paragraph_lines(1, 40)  # page 2's lines
    claims = [
        # (No figure in the texts but a page: a claim's figures are read against its
        # evidence, and these texts only label what each claim exercises.)
        {"id": "ok", "text": "Lines from page 2", "evidence": [
            {"document": "policy", "page": 2, "quote": f"{lines[20]} {lines[21]}"}]},
        {"id": "union", "text": "A pair of items", "evidence": [
            {"document": "policy", "quote": lines[5]},
            {"document": "policy", "quote": paragraph_lines(2, 40)[30]}]},
        {"id": "invented", "text": "Not in the document", "evidence": [
            {"document": "policy", "quote": "The insured owns a purple submarine moored "
                                            "in Lake Geneva since 1987."}]},
        {"id": "bad", "text": "Unknown document", "evidence": [
            {"document": "nowhere", "quote": "anything"}]},
        {"id": "none", "text": "No evidence at all", "evidence": []},
    ]
    return write_citations(tmp_path / "claims.cite", "policy.pdf", claims)


def open_and_check(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    window.open_path(path)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    qtbot.waitUntil(window.is_settled, timeout=30000)


def badges(window: MainWindow, claim_id: str) -> tuple[str, ...]:
    """The claim's badges in the claims list, one per evidence item."""
    return next(r.badges for r in window.session.rows() if r.id == claim_id)


def window_origin(window: MainWindow) -> QPointF:
    return QPointF(window.view.viewport().mapTo(window, QPoint(0, 0)))


def expected_window_rects(window: MainWindow, pdf: Path) -> list[QRectF]:
    """Highlights of the selected claim per PyMuPDF, in window pixels (dpr 1)."""
    claim = window.session.claim_result(window.session.selected)
    assert claim is not None
    origin = window_origin(window)
    out = []
    with pymupdf.open(pdf) as doc:
        for ev in claim.evidence:
            if ev.page is None:
                continue
            page = ev.page - 1
            painted = window.view.painted_pages.get(page)
            if painted is None:
                continue
            m = doc[page].rotation_matrix * pymupdf.Matrix(window.view.zoom, window.view.zoom)
            for r in ev.rects:
                q = pymupdf.Rect(r) * m
                out.append(QRectF(origin.x() + painted.x() + q.x0,
                                  origin.y() + painted.y() + q.y0, q.width, q.height))
    return out


@pytest.mark.parametrize("size", [(800, 600), (1600, 1000), (2400, 800), (900, 1600)])
def test_selecting_a_claim_highlights_its_words_and_nothing_else(
        qtbot: QtBot, make_window: MakeWindow, cite: Path, size: tuple[int, int]) -> None:
    window = make_window(size)
    open_and_check(qtbot, window, cite)
    window.session.select("ok")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    grab = window.grab().toImage()
    expected = expected_window_rects(window, cite.parent / "policy.pdf")
    assert len(expected) == 2  # one rectangle per matched line
    assert color_outside(grab, HIGHLIGHT, expected) == 0
    for rect in expected:
        assert count_color(grab, HIGHLIGHT, rect.adjusted(1, 1, -1, -1).toAlignedRect()) > 0
    # The band is centred vertically in the page view.
    band = expected[0].united(expected[1])
    viewport = QRectF(window.view.viewport().rect()).translated(window_origin(window))
    assert abs(band.center().y() - viewport.center().y()) <= 2
    assert window.view.current_page == 1
    assert window.page_box.value() == 2


def test_several_evidence_items_are_drawn_together(qtbot: QtBot, make_window: MakeWindow,
                                                   cite: Path) -> None:
    window = make_window((1200, 900))
    open_and_check(qtbot, window, cite)
    window.session.select("union")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    claim = window.session.claim_result("union")
    assert claim is not None and [e.status for e in claim.evidence] == ["located", "located"]
    assert window.view.highlighter.pages() == [1, 2]  # both items, on their two pages
    window.view.reveal(2, window.view.highlighter.rects_on(2))
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.view.viewport().repaint()
    assert any(page == 2 for page, _ in window.view.painted_highlights)


def test_not_located_rejected_and_uncited_say_so(qtbot: QtBot, make_window: MakeWindow,
                                                 cite: Path) -> None:
    window = make_window((1000, 700))
    open_and_check(qtbot, window, cite)
    window.session.select("invented")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert "Not found in policy.pdf — no highlight shown" in window.detail.toPlainText()
    assert "Reason" in window.detail.toPlainText()
    assert window.view.highlighter.pages() == []
    assert count_color(window.grab().toImage(), HIGHLIGHT) == 0
    window.session.select("bad")
    assert "Rejected — no highlight shown" in window.detail.toPlainText()
    assert "unknown document id" in window.detail.toPlainText()
    window.session.select("none")
    assert "uncited" in window.detail.toPlainText()
    assert count_color(window.grab().toImage(), HIGHLIGHT) == 0


def test_claim_list_badges(qtbot: QtBot, make_window: MakeWindow, cite: Path) -> None:
    window = make_window()
    model = window.claims.model_
    listed: list[tuple[str, ...]] = []
    window.session.changed.connect(
        lambda change: change == "citations" and listed.extend(
            model.row(i).badges for i in range(model.rowCount())))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    # Listed as soon as the file was read, before the check ended.
    assert listed == [("pending",), ("pending", "pending"), ("pending",), ("pending",),
                      ("uncited",)]
    assert [model.row(i).badges for i in range(5)] == [
        ("located",), ("located", "located"), ("not_located",), ("rejected",), ("uncited",)]
    assert window.session.selected == "ok"  # the first claim is shown at once


def test_demo_has_every_status(qtbot: QtBot, make_window: MakeWindow) -> None:
    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    window = make_window((1280, 860))
    open_and_check(qtbot, window, demo_path())
    statuses = {b for r in window.session.rows() for b in r.badges}
    assert statuses == {"located", "review", "not_located", "rejected", "uncited", "differs"}


def test_keyboard_steps_through_claims(qtbot: QtBot, make_window: MakeWindow,
                                       cite: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_J)
    assert window.session.selected == "union"
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    assert window.session.selected == "ok"
    qtbot.keyClick(window.view, Qt.Key.Key_F)  # next flagged: review or not located
    assert window.session.selected == "invented"
    qtbot.keyClick(window.view, Qt.Key.Key_F)  # the only flagged one: stays
    assert window.session.selected == "invented"
    assert window.claims.currentIndex().row() == 2
    window.claims.setFocus()  # in the list, the arrows and the commands both work
    qtbot.keyClick(window.claims, Qt.Key.Key_Down)
    assert window.session.selected == "bad"
    qtbot.keyClick(window.claims, Qt.Key.Key_K)
    assert window.session.selected == "invented"
    window.page_box.setFocus()  # typing in the page box is typing, not a command
    qtbot.keyClick(window.page_box, Qt.Key.Key_J)
    assert window.session.selected == "invented"


def test_claims_on_two_documents_switch_the_view(qtbot: QtBot, make_window: MakeWindow,
                                                 tmp_path: Path) -> None:
    text_pdf(tmp_path / "a.pdf", pages=2)
    text_pdf(tmp_path / "b.pdf", pages=4, rotation=90)
    cite = tmp_path / "two.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [
        {"id": "a", "path": "a.pdf"}, {"id": "b", "path": "b.pdf"}], "claims": [
        {"id": "in-a", "evidence": [{"document": "a", "quote": paragraph_lines(0, 40)[4]}]},
        {"id": "in-b", "evidence": [{"document": "b", "quote": paragraph_lines(3, 40)[9]}]},
    ]}))
    window = make_window((1000, 800))
    open_and_check(qtbot, window, cite)
    assert window.view.doc is not None and window.view.doc.path.endswith("a.pdf")
    window.session.select("in-b")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.doc.path.endswith("b.pdf") and window.view.page_count() == 4
    assert window.view.highlighter.pages() == [3]
    assert window.page_count_label.text().strip() == "of 4"
    window.session.select("in-a")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.doc.path.endswith("a.pdf") and window.view.highlighter.pages() == [0]


def test_shortcuts_are_shown_in_menus(make_window: MakeWindow) -> None:
    window = make_window()
    wanted = {"Open…", "Next Claim", "Previous Claim", "Next Flagged", "Zoom In", "Zoom Out",
              "Fit Width", "Fit Page", "Go to Page…", "Actual Size"}
    found = {}
    for menu in window.menuBar().actions():
        for action in menu.menu().actions():
            found[action.text().replace("&", "")] = action.shortcut().toString()
    for name in wanted:
        assert found.get(name), f"{name} has no shortcut in its menu"
    assert found["Open…"] == "Ctrl+O"


def test_missing_pdf_lists_claims_and_can_be_located(qtbot: QtBot, make_window: MakeWindow,
                                                     cite: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    moved.mkdir()
    (cite.parent / "policy.pdf").rename(moved / "policy.pdf")
    window = make_window()
    open_and_check(qtbot, window, cite)
    assert window.claims.model_.rowCount() == 5
    missing = str(cite.parent / "policy.pdf")
    assert window.notice.isVisible() and window.notice.text() == f"document missing: {missing}"
    assert [b.text() for b in window.notice.buttons()] == ["Locate…"]
    claim = window.session.claim_result("ok")
    assert claim is not None and "document missing" in claim.evidence[0].reason
    assert window.commands.locate.isEnabled()
    window.controller.ask_path = lambda _title, _filter: moved / "policy.pdf"
    window.notice.buttons()[0].click()
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    assert badges(window, "ok") == ("located",)
    assert not window.notice.isVisible()
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert window.view.page_count() == 3


def test_encrypted_pdf_asks_for_the_password(qtbot: QtBot, make_window: MakeWindow,
                                             cite: Path) -> None:
    pdf = cite.parent / "policy.pdf"
    with pymupdf.open(pdf) as doc:
        doc.save(cite.parent / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                 user_pw="secret", owner_pw="owner-secret")
    locked = write_citations(cite.parent / "locked.cite", "locked.pdf", [
        {"id": "ok", "text": "t", "evidence": [{"quote": paragraph_lines(0, 40)[3]}]}])
    window = make_window(interactive=True)
    asked: list[str] = []

    def ask(name: str, message: str) -> str | None:
        asked.append(message)
        return "wrong" if len(asked) == 1 else "secret"

    window.controller.ask_password = ask
    open_and_check(qtbot, window, locked)
    assert len(asked) == 2 and "not correct" in asked[1]
    assert badges(window, "ok") == ("located",)
    assert window.view.page_count() == 3


def test_encrypted_pdf_without_a_password_says_so(qtbot: QtBot, make_window: MakeWindow,
                                                  cite: Path) -> None:
    with pymupdf.open(cite.parent / "policy.pdf") as doc:
        doc.save(cite.parent / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                 user_pw="secret", owner_pw="owner-secret")
    locked = write_citations(cite.parent / "locked.cite", "locked.pdf", [
        {"id": "ok", "text": "t", "evidence": [{"quote": "anything"}]}])
    window = make_window()  # non-interactive: no dialog
    open_and_check(qtbot, window, locked)
    assert "password-protected" in window.notice.text()
    assert [b.text() for b in window.notice.buttons()] == ["Enter Password…"]


def test_a_claim_asked_for_while_a_file_opens_is_looked_up_in_that_file(
        qtbot: QtBot, make_window: MakeWindow, cite: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite)
    second = write_citations(cite.parent / "second.cite", "policy.pdf", [
        {"id": "only-here", "text": "t", "evidence": [{"quote": paragraph_lines(0, 40)[3]}]}])
    window.open_path(second)
    window.select_claim_when_ready("only-here")  # not in the file still shown
    qtbot.waitUntil(lambda: window.session.selected == "only-here", timeout=30000)
    assert not window.failed_to_open
    window.open_path(cite)
    window.select_claim_when_ready("only-here")  # in the file shown, not in the one opening
    qtbot.waitUntil(lambda: window.session.citations_path == cite.resolve()
                    and window.is_settled(), timeout=30000)
    assert window.failed_to_open
    assert window.notice.text() == "There is no claim 'only-here' in this file."


def test_a_check_process_that_died_is_replaced(qtbot: QtBot, make_window: MakeWindow,
                                              cite: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite)
    first = window.session.report
    pid = window.client.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: not window.client.is_alive(), timeout=30000)
    window.recheck()
    qtbot.waitUntil(lambda: window.session.report is not first and not window.is_busy(),
                    timeout=30000)
    assert window.client.pid != pid
    assert window.session.report == first


def test_corrupt_files_get_a_clear_message(qtbot: QtBot, make_window: MakeWindow,
                                           cite: Path) -> None:
    window = make_window()
    (cite.parent / "policy.pdf").write_bytes(b"%PDF-1.7\nthis is not really a PDF\n")
    open_and_check(qtbot, window, cite)
    assert window.notice.text().startswith("policy.pdf cannot be opened:")
    bad = cite.parent / "broken.cite"
    bad.write_text('{"version": 1, "claims": [{"id": 5}]}')
    window.open_path(bad)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert window.notice.text().startswith("broken.cite cannot be used (")
    assert window.session.citations_path == cite.resolve()  # what was open stays open
    assert window.session.report is not None
    assert "claims[0].id" in window.notice.text()
    assert "Traceback" not in window.notice.text()


def test_every_problem_of_a_bad_citations_file_is_listed(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    """Two problems: both, in plain words; fourteen: the first ten and how many more."""
    window = make_window()
    two = tmp_path / "two.cite"
    two.write_text('{"version": 1, "claims": [{"id": "a", "text": 5}, '
                   '{"id": "b", "text": "t", "evidence": 7}]}')
    window.open_path(two)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    text = window.notice.text()
    assert text.startswith("two.cite cannot be used (2 problems):")
    assert "claims[0].text: should be text" in text and "claims[1]" in text
    assert "Input should be" not in text and "[type=" not in text
    many = tmp_path / "many.cite"
    import json

    many.write_text(json.dumps({"version": 1, "claims": [{"id": f"c{i}", "text": i}
                                                         for i in range(14)]}))
    window.open_path(many)
    qtbot.waitUntil(lambda: window.failed_to_open and "many.cite" in window.notice.text(),
                    timeout=30000)
    text = window.notice.text()
    assert "(14 problems)" in text and "and 4 more" in text
    assert text.count("\nat $.claims[") == 10


def test_a_bare_pdf_is_a_plain_viewer(qtbot: QtBot, make_window: MakeWindow,
                                      tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "plain.pdf", pages=5)
    window = make_window()
    window.open_path(pdf)
    qtbot.waitUntil(lambda: window.view.page_count() == 5, timeout=20000)
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert not window.left_panel.isVisible()
    assert window.page_count_label.text().strip() == "of 5"
    window.page_box.setValue(4)
    assert window.view.current_page in (3, 2)  # page 4 at the top of the view
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert count_color(window.grab().toImage(), HIGHLIGHT) == 0


def test_drop_opens_the_file(qtbot: QtBot, make_window: MakeWindow, cite: Path) -> None:
    window = make_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(cite))])
    event = QDropEvent(QPointF(100, 100), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    qtbot.waitUntil(lambda: window.session.citations_path == cite.resolve(), timeout=30000)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)


def test_recent_files_and_geometry_are_remembered(qtbot: QtBot, prefs: Preferences,
                                                  cite: Path) -> None:
    window = MainWindow(prefs, interactive=True)
    qtbot.addWidget(window)
    window.resize(760, 590)  # restoreGeometry keeps to the 800×800 offscreen screen
    window.show()
    qtbot.waitExposed(window)
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    window.close()
    assert prefs.recent_files() == [cite.resolve()]
    again = MainWindow(prefs, interactive=True)
    qtbot.addWidget(again)
    again.restore_layout()
    assert (again.width(), again.height()) == (760, 590)
    again._fill_recent()
    assert str(cite.resolve()) in [a.text() for a in again.recent_menu.actions()]


def test_zoom_commands(qtbot: QtBot, make_window: MakeWindow, cite: Path) -> None:
    window = make_window((1000, 800))
    open_and_check(qtbot, window, cite)
    view = window.view
    assert view.zoom_mode is ZoomMode.FIT_WIDTH
    fit = view.zoom
    window.commands.zoom_in.trigger()
    assert view.zoom > fit and view.zoom_mode is ZoomMode.FIXED
    assert window.zoom_label.text() == f"{view.zoom * 100:.0f}%"
    window.commands.fit_page.trigger()
    assert view.zoom_mode is ZoomMode.FIT_PAGE and view.zoom < fit
    before = view.zoom
    wheel = QWheelEvent(QPointF(200, 150), QPointF(200, 150), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(wheel)
    assert view.zoom > before
    window.commands.fit_width.trigger()
    assert view.zoom == pytest.approx(fit)


class SlowCheck(CheckClient):
    """A real check client whose check reports a first step, then waits to be let go."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.ended = threading.Event()

    def check(self, path: Path | str, *, progress: ProgressCallback | None = None,
              **kw: Any) -> Report:
        try:
            if progress is not None:
                progress(1, 4)
            self.release.wait(30)
            return super().check(path, progress=progress, **kw)
        finally:
            self.ended.set()


class FailingCheck(CheckClient):
    """A real check client whose check fails the way a request to the process fails."""

    def check(self, path: Path | str, **kw: Any) -> Report:
        raise CheckerError("the disk is on fire")


def test_check_runs_in_the_background_with_progress(qtbot: QtBot, make_window: MakeWindow,
                                                    cite: Path) -> None:
    slow = SlowCheck()
    window = make_window(checker=lambda: slow)
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.progress.isVisible() and window.progress.value() == 1,
                    timeout=20000)
    assert window.progress.format() == "Checking %v/4"
    assert window.cancel_button.isVisible()
    assert window.is_busy()
    window.commands.zoom_in.trigger()  # the window answers while the check runs
    slow.release.set()
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    assert not window.progress.isVisible()
    # Claims, each counted once by its worst item; the evidence items in the tooltip.
    summary = window.reader.summary
    # … and how much of the review is decided (the status summary counts decisions).
    claims, _, review = summary.text().rpartition(" · ")
    assert claims == "5 claims: 2 located · 1 not located · 1 rejected · 1 uncited"
    assert review == "0 of 2 to review decided"
    assert "3 located · 0 need review · 1 not located · 1 rejected · 1 uncited" \
        in summary.toolTip()
    window.statusBar().showMessage("a menu's status tip", 5000)  # it stays in view
    assert summary.isVisible() and summary.text().startswith("5 claims")


def test_a_check_cancelled_while_it_runs_leaves_no_report(qtbot: QtBot, make_window: MakeWindow,
                                                          cite: Path) -> None:
    slow = SlowCheck()
    window = make_window(checker=lambda: slow)
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.progress.value() == 1, timeout=20000)
    window.cancel_button.click()
    # The check is no longer waited for; the documents' inspection, asked for when the
    # file opened, may still be queued behind it in the check client (a held-back check
    # holds the client), so "busy" may last until the check lets go.
    assert not window.progress.isVisible() and not window.cancel_button.isVisible()
    assert "Check cancelled" in window.statusBar().currentMessage()
    slow.release.set()  # the check ends; what it found is of no use now
    qtbot.waitUntil(slow.ended.is_set, timeout=30000)
    window.controller.ops.wait_all(30000)  # every thread ended: its results are queued
    QApplication.processEvents()  # ... and delivered, or skipped as cancelled
    assert not window.is_busy() and window.session.report is None


def test_a_failing_check_says_so_and_stops_waiting(qtbot: QtBot, make_window: MakeWindow,
                                                   cite: Path) -> None:
    window = make_window(checker=FailingCheck)
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.notice.isVisible() and not window.is_busy(), timeout=30000)
    assert window.notice.text() == "Something went wrong: the disk is on fire"
    assert window.notice.kind == "error" and not window.progress.isVisible()
    assert window.session.report is None
    assert badges(window, "ok") == ("pending",)


def test_highlight_colour_option_and_setting(qtbot: QtBot, make_window: MakeWindow,
                                             cite: Path, prefs: Preferences) -> None:
    teal = QColor("#7FD6CF")
    window = make_window((1000, 700), highlight=teal)
    open_and_check(qtbot, window, cite)
    grab = window.grab().toImage()
    assert count_color(grab, teal) > 0 and count_color(grab, HIGHLIGHT) == 0
    assert prefs.highlight_color() == HIGHLIGHT  # the option does not change the setting
    window.set_highlight_color(QColor("#F4A6FF"), remember=True)
    assert prefs.highlight_color() == QColor("#F4A6FF")


def test_small_window_still_works(qtbot: QtBot, make_window: MakeWindow, cite: Path) -> None:
    window = make_window((800, 600))
    hint = window.minimumSizeHint()
    assert hint.width() <= 800 and hint.height() <= 600
    open_and_check(qtbot, window, cite)
    assert window.view.viewport().width() >= 400 and window.view.viewport().height() >= 350
    assert window.claims.width() >= 200 and window.detail.height() >= 100
    assert all(isinstance(w.grab().toImage(), QImage) for w in (window.claims, window.detail))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_scanned_page_offers_ocr_and_then_highlights(qtbot: QtBot, make_window: MakeWindow,
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEVIEW_OCR_STORE", str(tmp_path / "ocr-store"))
    text = text_pdf(tmp_path / "text.pdf", pages=2)
    scan = pymupdf.open()
    with pymupdf.open(text) as src:
        for page in src:  # each page as a bare 200-dpi image: no text layer at all
            pix = page.get_pixmap(dpi=200)
            out = scan.new_page(width=page.rect.width, height=page.rect.height)
            out.insert_image(out.rect, pixmap=pix)
    scan.save(tmp_path / "scan.pdf")
    scan.close()
    quote = paragraph_lines(1, 40)[6]
    cite = write_citations(tmp_path / "scan.cite", "scan.pdf", [
        {"id": "s", "text": "on the scan", "evidence": [{"page": 2, "quote": quote}]}])
    window = make_window((1000, 750))
    open_and_check(qtbot, window, cite)
    assert badges(window, "s") == ("not_located",)
    qtbot.waitUntil(lambda: bool(window.notice.buttons()), timeout=20000)
    assert "Page 2 of scan.pdf is a scanned image" in window.notice.text()
    [button] = window.notice.buttons()
    assert button.text() == "Recognise Text on Page 2"
    before = window.session.report
    button.click()
    qtbot.waitUntil(lambda: window.session.report is not before, timeout=60000)
    assert badges(window, "s") in (("located",), ("review",))
    claim = window.session.claim_result("s")
    assert claim is not None and claim.evidence[0].page == 2 and claim.evidence[0].rects
    qtbot.waitUntil(window.is_settled, timeout=20000)
    assert count_color(window.grab().toImage(), HIGHLIGHT) > 0


def test_claim_steps_are_enabled_only_with_claims(qtbot: QtBot, make_window: MakeWindow,
                                                  tmp_path: Path, cite: Path) -> None:
    window = make_window()
    steps = (window.commands.next, window.commands.prev, window.commands.next_flag)
    assert not any(a.isEnabled() for a in steps)  # nothing open
    bad = tmp_path / "bad.cite"
    bad.write_text("{")
    window.open_path(bad)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert not any(a.isEnabled() for a in steps)  # the file failed: still no claims
    open_and_check(qtbot, window, cite)
    assert all(a.isEnabled() for a in steps)
