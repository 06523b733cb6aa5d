"""Small things a new user trips over: the review file's path keeps its file name when
it is cut to fit; an encrypted bare PDF asks for its password without speaking of claims."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from viewer.window.shell import MainWindow

from .helpers import text_pdf
from .review_helpers import demo_window

MakeWindow = Callable[..., MainWindow]


def test_the_review_files_path_keeps_its_name_when_cut(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3) / "and-another-one-below-it"
    deep.mkdir(parents=True)
    _cite, window = demo_window(qtbot, make_window, deep, (800, 600))
    label = window.review.panel.location
    full = label.text()
    shown = QLabel.text(label)  # what is painted
    assert full.endswith("demo.review.json") and len(shown) < len(full)
    assert "…" in shown and shown.endswith("demo.review.json")


def test_an_encrypted_bare_pdf_asks_for_its_password(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    plain = text_pdf(tmp_path / "plain.pdf", pages=1)
    locked = tmp_path / "locked.pdf"
    with pymupdf.open(plain) as doc:
        doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret",
                 owner_pw="owner")
    window = make_window()
    window.open_path(locked)
    qtbot.waitUntil(lambda: "password" in window.notice.text(), timeout=30000)
    text = window.notice.text()
    assert text.startswith("locked.pdf is password-protected: enter its password")
    assert "claims" not in text
