"""Defects found by using the window, each pinned by a test: focus after Go to Page, Locate
remembered, Open Recent, where file dialogs start, a missing document's badge, the words
people read (about box, tooltips, badge help, messages), and claim commands on a bare PDF."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu
from pytestqt.qtbot import QtBot

from viewer.state.presentation import STATUS_WORDS
from viewer.widgets.detail import _tip
from viewer.window.actions import about_text, shortcut_lines
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .helpers import open_and_check, paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]


def cite_file(folder: Path, pdf: str = "policy.pdf") -> Path:
    if not (folder / pdf).exists():
        text_pdf(folder / pdf, pages=3)
    return write_citations(folder / "claims.cite", pdf, [
        {"id": "ok", "text": "on page 2", "evidence": [
            {"page": 2, "quote": paragraph_lines(1, 40)[3]}]},
        {"id": "more", "text": "on page 3", "evidence": [
            {"page": 3, "quote": paragraph_lines(2, 40)[8]}]}])


def interactive(qtbot: QtBot, prefs: Preferences) -> MainWindow:
    window = MainWindow(prefs, interactive=True)
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_enter_in_the_page_box_gives_the_keys_back(qtbot: QtBot, make_window: MakeWindow,
                                                   tmp_path: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite_file(tmp_path))
    qtbot.keyClick(window, "G", modifier=Qt.KeyboardModifier.ControlModifier)
    assert window.page_box.hasFocus()
    qtbot.keyClicks(window.page_box, "3")
    qtbot.keyClick(window.page_box, "\r")
    assert window.view.current_page == 2 and window.view.hasFocus()
    selected = window.session.selected
    qtbot.keyClick(window.view, "J")  # the claim commands work again at once
    assert window.session.selected != selected


def test_a_located_document_is_remembered_for_the_file(qtbot: QtBot, prefs: Preferences,
                                                       tmp_path: Path) -> None:
    cite = cite_file(tmp_path)
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (tmp_path / "policy.pdf").rename(moved / "policy.pdf")
    window = interactive(qtbot, prefs)
    open_and_check(qtbot, window, cite)
    assert window.notice.text().startswith("document missing")
    window.controller.ask_path = lambda _t, _f: moved / "policy.pdf"
    window.controller.locate_document("policy")
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=30000)
    window.close()
    again = interactive(qtbot, prefs)  # the next time the file is opened
    open_and_check(qtbot, again, cite)
    assert again.session.documents["policy"].path == (moved / "policy.pdf").resolve()
    assert [r.badges for r in again.session.rows()] == [("located",), ("located",)]
    notice = again.notice.text()
    assert "where you located it before" in notice and str(moved) in notice
    assert prefs.qsettings.fileName() in notice  # where it is remembered
    [forget] = again.notice.buttons()
    assert forget.text() == "Forget"
    forget.click()
    qtbot.waitUntil(lambda: again.session.report is not None, timeout=30000)
    assert again.session.documents["policy"].state == "missing"


def test_open_recent_lists_only_files_that_opened(qtbot: QtBot, prefs: Preferences,
                                                  tmp_path: Path) -> None:
    good = cite_file(tmp_path)
    bad = tmp_path / "bad.cite"
    bad.write_text('{"version": 1, "claims": [{"id": 5}]}')
    window = interactive(qtbot, prefs)
    open_and_check(qtbot, window, good)
    window.open_path(bad)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert prefs.recent_files() == [good.resolve()]
    good.write_text("not json")  # it was fine once; now it fails, and leaves the list
    window.open_path(good)
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert prefs.recent_files() == []
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot really\n")
    window.open_path(broken)
    qtbot.waitUntil(lambda: window.session.documents["pdf"].state == "corrupt", timeout=30000)
    assert prefs.recent_files() == []
    prefs.add_recent(tmp_path / "gone.cite")  # deleted since: not offered
    window._fill_recent()
    assert [a.text() for a in window.recent_menu.actions()] == ["(none)"]


def test_file_dialogs_start_beside_the_open_file(qtbot: QtBot, make_window: MakeWindow,
                                                 tmp_path: Path) -> None:
    folder = tmp_path / "case-1042"
    folder.mkdir()
    cite = cite_file(folder)
    window = make_window()
    open_and_check(qtbot, window, cite)
    seen: list[str] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(10, look)
            return
        seen.append(dialog.directory().absolutePath())
        dialog.reject()

    QTimer.singleShot(0, look)
    assert window._ask_path("Open", "Citations (*.cite)") is None
    assert seen == [str(folder)]


def test_a_missing_document_has_its_own_badge_and_count(qtbot: QtBot, make_window: MakeWindow,
                                                        tmp_path: Path) -> None:
    cite = cite_file(tmp_path)
    (tmp_path / "policy.pdf").unlink()
    window = make_window()
    open_and_check(qtbot, window, cite)
    assert [r.badges for r in window.session.rows()] == [("missing",), ("missing",)]
    assert window.reader.summary.text().startswith(
        "2 claims: 0 located · 2 document missing · ")
    assert "Drop a citations file" not in window.view.empty_text
    assert "policy.pdf is missing" in window.view.empty_text
    assert "Locate Document" in window.view.empty_text
    assert "policy.pdf is missing — no highlight shown" in window.detail.toPlainText()
    window.view.setFocus()
    assert window.session.step(1, flagged_only=True) is not None  # "next flagged" stops


def test_a_broken_pdf_that_exists_is_not_offered_locate(qtbot: QtBot, make_window: MakeWindow,
                                                        tmp_path: Path) -> None:
    cite = cite_file(tmp_path)
    (tmp_path / "policy.pdf").write_bytes(b"%PDF-1.7\nnot really a PDF\n")
    window = make_window()
    open_and_check(qtbot, window, cite)
    assert [b.text() for b in window.notice.buttons()] == ["Use Another Copy…"]
    assert not window.commands.locate.isEnabled()


def test_missing_and_empty_citations_files_are_said_plainly(qtbot: QtBot,
                                                            make_window: MakeWindow,
                                                            tmp_path: Path) -> None:
    window = make_window()
    window.open_path(tmp_path / "nowhere.cite")
    qtbot.waitUntil(lambda: window.failed_to_open, timeout=30000)
    assert window.notice.text() == f"There is no file {tmp_path / 'nowhere.cite'}."
    empty = tmp_path / "empty.cite"
    empty.write_text("  \n")
    window.open_path(empty)
    qtbot.waitUntil(lambda: window.failed_to_open and "empty" in window.notice.text(),
                    timeout=30000)
    assert window.notice.text().startswith("empty.cite is empty: a citations file is")
    assert "Expecting value" not in window.notice.text()


def test_a_bare_pdf_disables_the_claim_commands(qtbot: QtBot, make_window: MakeWindow,
                                                tmp_path: Path) -> None:
    window = make_window()
    window.open_path(text_pdf(tmp_path / "plain.pdf", pages=2))
    qtbot.waitUntil(lambda: window.view.page_count() == 2, timeout=20000)
    c = window.commands
    assert not any(a.isEnabled() for a in (c.next, c.prev, c.next_flag, c.prev_flag,
                                           c.recheck))
    open_and_check(qtbot, window, cite_file(tmp_path))
    assert all(a.isEnabled() for a in (c.next, c.prev, c.next_flag, c.prev_flag))


def test_a_page_out_of_range_is_said(qtbot: QtBot, make_window: MakeWindow,
                                     tmp_path: Path) -> None:
    window = make_window()
    window.open_path(text_pdf(tmp_path / "plain.pdf", pages=5))
    window.go_to_page_when_ready(98)  # --page 99
    qtbot.waitUntil(lambda: window.notice.isVisible(), timeout=20000)
    assert window.notice.text() == "There is no page 99: plain.pdf has 5 pages."
    assert window.failed_to_open  # so --screenshot exits 2


def test_the_about_box_says_the_version(make_window: MakeWindow) -> None:
    make_window()
    assert f"citeview {version('citeview')}" in about_text()


def test_statuses_and_the_score_are_explained(qtbot: QtBot, make_window: MakeWindow,
                                              tmp_path: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite_file(tmp_path))
    tip = window.claims.model_.index(0).data(3)  # ToolTipRole
    assert "located: Every quoted word stands on the page" in tip
    assert _tip("tip:score").startswith("The score (0–100)")
    assert _tip("tip:review").startswith("needs review:")
    html = window.reader.badges_html()
    for word in STATUS_WORDS.values():
        assert word in html
    help_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Help")
    assert "What the Badges Mean" in [a.text().replace("&", "") for a in help_menu.actions()]
    assert any(line.endswith("\tFind…") for line in shortcut_lines(window))


def test_the_claims_list_copies_quote_found_text_and_citation(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite_file(tmp_path))
    menu = QMenu()
    for part in window.claims.menu_parts:
        part(menu, "ok")
    actions = {a.text(): a for a in menu.actions()}
    assert list(actions) == ["Copy Quote", "Copy Found Text", "Copy Citation"]
    clipboard = QApplication.clipboard()
    actions["Copy Quote"].trigger()
    assert clipboard.text() == paragraph_lines(1, 40)[3]
    actions["Copy Citation"].trigger()
    assert clipboard.text() == (f"ok — on page 2\n“{paragraph_lines(1, 40)[3]}” "
                                "(policy.pdf, page 2, located)")
    actions["Copy Found Text"].trigger()
    assert clipboard.text() == window.session.claim_result("ok").evidence[0].found_text  # type: ignore[union-attr]


def test_the_page_menu_copies_the_found_text_under_the_pointer(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window()
    open_and_check(qtbot, window, cite_file(tmp_path))
    [(_, rect)] = window.view.painted_highlights
    menu = QMenu()
    for part in window.view.menu_parts:
        part(menu, rect.center())
    texts = [a.text().replace("&", "") for a in menu.actions() if a.text()]
    assert texts[0] == "Copy Found Text" and "Find…" in texts and "Rotate Right" in texts
    elsewhere = QMenu()
    for part in window.view.menu_parts:
        part(elsewhere, QPointF(rect.left() - 30, rect.top() - 30))  # not over a highlight
    assert "Copy Found Text" not in [a.text() for a in elsewhere.actions()]
