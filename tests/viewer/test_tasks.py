"""Background operations report back on the GUI thread; failures go to a callback."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread
from pytestqt.qtbot import QtBot

from viewer.window.operations import Operation, Operations


def test_success_progress_and_thread(qtbot: QtBot) -> None:
    seen: dict[str, object] = {}
    progress: list[tuple[int, int]] = []
    gui = QThread.currentThread()

    def work(report: object, cancel: object) -> int:
        seen["worker"] = threading.current_thread().name
        for i in range(3):
            report(i + 1, 3)  # type: ignore[operator]
        return 42

    def ok(value: object) -> None:
        seen["value"] = value
        seen["on_gui"] = QThread.currentThread() is gui

    op = Operation(work, on_success=ok, on_failure=lambda e: seen.update(err=e),
                   on_progress=lambda d, t: progress.append((d, t)))
    with qtbot.waitSignal(op.finished, timeout=5000):
        op.start()
    assert seen["value"] == 42 and seen["on_gui"] is True
    assert seen["worker"] != threading.main_thread().name
    qtbot.waitUntil(lambda: progress == [(1, 3), (2, 3), (3, 3)])
    assert not op.is_running()


def test_failure_goes_to_the_callback(qtbot: QtBot) -> None:
    errors: list[BaseException] = []

    def work(_p: object, _c: object) -> None:
        raise ValueError("the file is damaged")

    op = Operation(work, on_success=lambda v: None, on_failure=errors.append)
    with qtbot.waitSignal(op.finished, timeout=5000):
        op.start()
    assert [str(e) for e in errors] == ["the file is damaged"]


def test_cancel_skips_callbacks(qtbot: QtBot) -> None:
    called: list[object] = []
    release = threading.Event()

    def work(_p: object, cancel: object) -> str:
        release.wait(5)
        return "stopped early" if cancel() else "done"  # type: ignore[operator]

    op = Operation(work, on_success=called.append, on_failure=called.append)
    op.start()
    op.cancel()
    release.set()
    with qtbot.waitSignal(op.finished, timeout=5000):
        pass
    assert called == []


def test_operations_know_what_still_runs(qtbot: QtBot) -> None:
    release = threading.Event()
    ops = Operations()
    done: list[str] = []
    first = ops.run(lambda _p, _c: release.wait(5), lambda _v: done.append("first"),
                    on_failure=lambda _e: None)
    second = ops.run(lambda _p, _c: "quick", done.append, on_failure=lambda _e: None)
    with qtbot.waitSignal(second.finished, timeout=5000):
        pass
    assert done == ["quick"] and ops.busy()  # the first still runs
    first.cancel()
    assert not ops.busy()  # cancelled work counts as done, its callbacks are skipped
    release.set()
    with qtbot.waitSignal(first.finished, timeout=5000):
        pass
    assert done == ["quick"]
