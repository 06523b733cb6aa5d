"""Review benchmark: saving decisions, reading a large file's review, a decision in the window.

    python benchmarks/bench_review.py [--runs 15]

1. Saving. A sidecar of N decisions (with as many earlier values in its history) saved the
   way citeview saves it — temporary file, fsync, rename, fsync of the folder — against
   writing the same bytes in place without any of that (the baseline), in the same folder
   and run. The ratio is the price of never leaving half a file.
2. Reading. What the window works out on every change (progress, the panel's words, the
   claims filter, every claim's tags) for a file of 20,000 claims, 2,000 of them flagged
   and 1,000 decided, against building the claims list's rows of that file (the baseline:
   work the window already did before there was a review).
3. A decision in the window: a key pressed in a real (offscreen) window on the demo until
   the decision is on disk and the window shows it, against that save alone.

Nothing here asserts: it prints medians and ratios (timings vary with machine and load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from viewer.state.claim_filter import visible  # noqa: E402
from viewer.state.records import Citations, ClaimEntry, EvidenceEntry, Report  # noqa: E402
from viewer.state.review import Decisions, EvidenceDecision, HistoryEntry, Review  # noqa: E402
from viewer.state.review_store import ReviewStore  # noqa: E402
from viewer.state.review_text import panel_text  # noqa: E402
from viewer.state.rows import claim_rows  # noqa: E402
from viewer.state.sidecar import dumps  # noqa: E402

CLAIMS = 20_000


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def decisions(n: int) -> Decisions:
    d = Decisions("answer.cite")
    for i in range(n):
        e = EvidenceDecision(f"c{i}", 0, "relocated", "a" * 64, "b" * 64, 3,
                             ((72.0, 100.5, 310.25, 112.0),), "a note", "jdoe",
                             "2026-12-01T13:00:00Z")
        d.evidence[e.key] = e
        d.history.append(HistoryEntry("changed", e, "jdoe", "2026-12-01T13:00:00Z"))
    return d


def bench_saving(runs: int) -> None:
    print("1. saving a sidecar (median ms; atomic = temp + fsync + rename + fsync folder)")
    print(f"   {'decisions':>9}  {'bytes':>9}  {'atomic':>8}  {'in place':>8}  ratio")
    with tempfile.TemporaryDirectory(dir=REPO.parent if os.access(REPO.parent, os.W_OK)
                                     else None) as folder:
        for n in (10, 1_000, 10_000):
            d = decisions(n)
            path = Path(folder) / f"n{n}.review.json"
            store = ReviewStore(path)
            atomic = median_ms(lambda: store.overwrite(d), runs)  # noqa: B023
            plain_path = Path(folder) / f"plain{n}.json"
            plain = median_ms(lambda: plain_path.write_bytes(dumps(d)), runs)  # noqa: B023
            size = path.stat().st_size
            print(f"   {n:>9,}  {size:>9,}  {atomic:8.2f}  {plain:8.2f}  {atomic / plain:5.2f}")


def large_file() -> tuple[Citations, Report, Review]:
    claims = tuple(ClaimEntry(f"c{i}", f"claim {i} about premium {i}",
                              (EvidenceEntry(f"quote {i} of the policy", None, None),),
                              "check" if i % 10 == 0 else None) for i in range(CLAIMS))
    citations = Citations((), claims, {})
    report = Report.from_json({"summary": {}, "claims": [
        {"id": c.id, "evidence": [{"index": 0, "status": "review" if i % 10 == 5
                                   else "located", "reason": "", "document": "policy",
                                   "page": 1, "rects": [[1, 2, 3, 4]]}]}
        for i, c in enumerate(claims)]})
    review = Review()
    for i in range(0, CLAIMS, CLAIMS // 1000):
        d = EvidenceDecision(f"c{i}", 0, "confirmed", "0" * 64, "1" * 64)
        review.decisions.evidence[d.key] = d
    review.attach(citations, report, {"policy": "1" * 64})
    return citations, report, review


def bench_reading(runs: int) -> None:
    citations, report, review = large_file()
    rows = claim_rows(citations, report)

    def refresh() -> None:
        review.progress()
        panel_text(review, "c5", 0, location="")
        visible(rows, citations, review, "undecided", "")
        for row in rows[:30]:  # the tags of the rows a list shows at once
            review.claim_state(row.id)

    ours = median_ms(refresh, runs)
    base = median_ms(lambda: claim_rows(citations, report), runs)
    print(f"2. one refresh over {CLAIMS:,} claims: {ours:.1f} ms; building the claim rows: "
          f"{base:.1f} ms; ratio {ours / base:.2f}")


def bench_window(runs: int) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = tempfile.mkdtemp()
    os.environ["XDG_DATA_HOME"] = home
    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtWidgets import QApplication

    from tests.viewer.review_helpers import demo_copy
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow
    from viewer.window.windows import Application

    app = Application(sys.argv[:1])
    folder = Path(tempfile.mkdtemp())
    cite = demo_copy(folder)
    window = MainWindow(Preferences(QSettings(str(folder / "c.ini"),
                                              QSettings.Format.IniFormat)), interactive=False)
    window.resize(1280, 800)
    window.show()
    window.open_path(cite)
    end = time.monotonic() + 60
    while (window.session.report is None or not window.is_settled()) \
            and time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    window.session.select("c8")
    controller = window.review.controller
    controller.auto_advance = False
    placements = ["confirmed", "wrong_place"]
    times = []
    for k in range(runs * 2):
        start = time.perf_counter()
        window.review.actions.placements[placements[k % 2]].trigger()  # type: ignore[index]
        QApplication.processEvents()
        times.append((time.perf_counter() - start) * 1000)
    store = controller.store
    assert store is not None
    save = median_ms(lambda: store.overwrite(controller.review.decisions), runs * 2)
    key = statistics.median(times)
    print(f"3. a decision in the window (key to saved and shown): {key:.2f} ms; the save "
          f"alone: {save:.2f} ms; ratio {key / save:.2f}")
    window.close()
    app.processEvents()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    bench_saving(runs)
    bench_reading(max(3, runs // 3))
    bench_window(runs)
    sys.stdout.flush()
    os._exit(0)  # the window's child processes are stopped by its close


if __name__ == "__main__":
    main()
