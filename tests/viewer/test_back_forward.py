"""Back and Forward (Alt+Left / Alt+Right) return to where the reader was before a jump:
Go to page, a thumbnail, a link to another document's page; the same point at the centre,
in the same document."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from viewer.state.links import Link
from viewer.window.shell import MainWindow

from .review_helpers import open_and_check
from .test_interim_picture import two_documents

MakeWindow = Callable[..., MainWindow]


def test_back_and_forward_across_jumps_and_documents(qtbot: QtBot, make_window: MakeWindow,
                                                     tmp_path: Path) -> None:
    window = make_window((1000, 760))
    open_and_check(qtbot, window, two_documents(tmp_path))
    view, nav = window.view, window.reader.history
    window.session.select("c2")  # its evidence is in b: the detail pane links to it
    qtbot.waitUntil(lambda: window.session.selected == "c2", timeout=10000)
    window.show_document("a")
    assert not nav.back.isEnabled() and not nav.forward.isEnabled()  # no jump made yet
    page = view.pages_layout.pages[1]
    view.verticalScrollBar().setValue(page.y + 150)  # reading page 2 of a, a little down
    start = view.centre_anchor()
    assert start is not None and start[0] == 1
    window.page_box.setFocus()
    window.page_box.lineEdit().selectAll()
    qtbot.keyClicks(window.page_box.lineEdit(), "3")
    qtbot.keyClick(window.page_box.lineEdit(), Qt.Key.Key_Return)  # Go to page 3
    qtbot.waitUntil(lambda: view.current_page == 2, timeout=10000)
    window.reader.navigator.follow(Link("show", 0))  # the link to c2's page 1, in b
    assert window.session.shown_document == "b" and view.current_page == 0
    nav.back.trigger()
    assert window.session.shown_document == "a" and view.current_page == 2
    nav.back.trigger()
    here = view.centre_anchor()
    assert here is not None and here[0] == 1  # where the reader was, the same point
    assert abs(here[1].y() - start[1].y()) < 2 and abs(here[1].x() - start[1].x()) < 2
    assert not nav.back.isEnabled() and nav.forward.isEnabled()
    nav.forward.trigger()
    assert view.current_page == 2
    nav.forward.trigger()
    assert window.session.shown_document == "b" and view.current_page == 0
    assert not nav.forward.isEnabled()
    # The keys are bound to them.
    assert nav.back.shortcut().toString() == "Alt+Left"
    assert nav.forward.shortcut().toString() == "Alt+Right"
