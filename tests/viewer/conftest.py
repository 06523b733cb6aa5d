"""Viewer tests: offscreen Qt, settings in a temporary folder, no thread or process left over.

The platform is forced before any QApplication exists (pytest-qt creates it lazily).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"

import pytest
from PySide6.QtCore import QSettings, QThread
from PySide6.QtWidgets import QApplication

from viewer.qtcompat import top_up
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def qapp_cls() -> type[QApplication]:
    """The tests run in citeview's own QApplication (it takes macOS's file-open events)."""
    from viewer.window.windows import Application

    return Application


@pytest.fixture(autouse=True)
def settings_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point every QSettings of the test at a fresh folder, never the user's."""
    folder = tmp_path_factory.mktemp("settings")
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    yield folder


@pytest.fixture(autouse=True)
def no_leftover_threads(monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> Iterator[None]:
    """Fail a test that leaves a QThread running or a render process alive (after its
    windows are closed, which is when citeview stops its workers)."""
    started: list[QThread] = []
    original = QThread.start

    def start(self: QThread, *args: object) -> None:
        started.append(self)
        original(self, *args)

    monkeypatch.setattr(QThread, "start", start)
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
    QApplication.processEvents()
    running = []
    for thread in started:
        try:
            if thread.isRunning() and not thread.wait(3000):
                running.append(thread.objectName() or repr(thread))
        except RuntimeError:  # the C++ object is gone: the thread ended and was deleted
            pass
    children = [p.name for p in multiprocessing.active_children()]
    assert not running, f"test left QThreads running: {running}"
    assert not children, f"test left processes running: {children}"


@pytest.fixture(autouse=True)
def singleton_references() -> Iterator[None]:
    """Refill the reserve of references on None/True/False around every test: the
    installed PySide6 drops one on each void call and emit (see viewer/qtcompat.py), and
    the tests make many such calls outside any window."""
    top_up()
    yield
    top_up()


@pytest.fixture
def prefs(settings_in_tmp: Path) -> Preferences:
    return Preferences(QSettings(str(settings_in_tmp / "citeview.ini"),
                                 QSettings.Format.IniFormat))


@pytest.fixture
def make_window(qtbot: object, prefs: Preferences) -> Callable[..., MainWindow]:
    """A shown MainWindow (non-interactive unless asked) of the given size."""

    def make(size: tuple[int, int] = (1200, 800), *, interactive: bool = False,
             **kw: object) -> MainWindow:
        window = MainWindow(prefs, interactive=interactive, **kw)  # type: ignore[arg-type]
        qtbot.addWidget(window)  # type: ignore[attr-defined]
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)  # type: ignore[attr-defined]
        return window

    return make


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared PDF corpus is not beside this checkout ({CORPUS})")
    return CORPUS


@pytest.fixture
def readonly_folder(tmp_path: Path) -> Iterator[Path]:
    """A read-only folder holding ``answer.cite`` and its ``answer.review.json``, and
    ``plain.cite`` without one."""
    from viewer.state.review import Decisions, EvidenceDecision
    from viewer.state.sidecar import dumps

    from .fsutil import read_only

    folder = tmp_path / "share"
    folder.mkdir()
    for name in ("answer.cite", "plain.cite"):
        (folder / name).write_text('{"claims": []}', encoding="utf-8")
    d = Decisions("answer.cite")
    d.evidence[("c1", 0)] = EvidenceDecision("c1", 0, "confirmed", "a" * 64)
    (folder / "answer.review.json").write_bytes(dumps(d))
    with read_only(folder):
        yield folder
