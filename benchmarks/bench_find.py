"""Find benchmark: time to the first hit and to all hits on a 500-page PDF, and the window's
frame times while a search runs.

    python benchmarks/bench_find.py            # 5 runs of each
    python benchmarks/bench_find.py --runs 9

The PDF is bench_viewer's: 500 pages of corpus documents with a text layer (generated text
pages when ../shared/corpus is absent). Measured in one run, interleaved:

1. Baseline: PyMuPDF's ``page.search_for(query)`` over every page, in this process — the
   plain way to find text in a PDF (exact, case-insensitive for ASCII, no folding of
   quotes, dashes or ligatures, no hit across a line break).
2. citeview, cold: a new window (its own check process) with the PDF open searches it
   from page 1: every page is read and folded once. Time from the request to the first
   hit on the GUI thread, and to the last (the GUI thread waits for events meanwhile, as
   the window's event loop does, rather than spinning). Beside the wall times, the CPU
   time of the check process during the search (``/proc``) and of the window's process,
   against the baseline's: on a shared machine the wall time mostly measures the others.
3. citeview, warm: the same window searches again for another word: the folded pages are
   kept, so no PDF is read.
4. Frames: a new window scrolls at 60 frames a second (200 px a frame, painting each
   frame at once) while a cold search runs; another new window scrolls as many frames
   with no search (the baseline: the same pages rendered, nothing else running). Paint
   time per frame and the gap between frames (a stall of the event loop shows there),
   medians and worst, and their ratio.

Nothing here asserts: it prints numbers (timings vary with the machine and its load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SIZE = (1280, 800)
FRAME_MS = 16
SCROLL_STEP_PX = 200
# A word most documents use now and then (hits on many pages, not every line) and a
# second one for the warm search.
QUERY, SECOND_QUERY = "insurance", "policy"


def process_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError, TypeError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def baseline(pdf: Path, query: str) -> tuple[float, float, int]:
    """PyMuPDF's search_for over every page: (first hit s, all s, hits)."""
    import pymupdf

    start = time.perf_counter()
    first = None
    hits = 0
    with pymupdf.open(pdf) as doc:
        for page in doc:
            found = page.search_for(query)
            if found and first is None:
                first = time.perf_counter() - start
            hits += len(found)
    return first or float("nan"), time.perf_counter() - start, hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default=QUERY,
                        help=f"the word searched cold (default {QUERY!r}; a common word such "
                             "as 'the' is on every page, so the first search folds them all)")
    args = parser.parse_args()
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_viewer import PAGES, big_pdf
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from viewer.widgets.side_panel import RESULTS
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        pdf = big_pdf(tmp / "big.pdf")
        prefs = Preferences(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))

        def window() -> MainWindow:
            w = MainWindow(prefs, interactive=False)
            w.resize(*SIZE)
            w.show()
            w.open_path(pdf)
            while not (w.view.page_count() and w.is_settled()):
                app.processEvents()
            return w

        def search(w: MainWindow, query: str) -> tuple[float, float, int]:
            find = w.reader.find
            find.open()
            find.bar.field.setText(query)
            cpu[:] = [process_cpu(w.client.pid), time.process_time()]
            start = time.perf_counter()
            first = None
            find.search(query)
            while find.results.state == "running":
                # Waiting for events, as the window's event loop does: a loop spinning
                # here would take a core from the check process that runs the search.
                app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents
                                  | QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
                if first is None and find.results.hits:
                    first = time.perf_counter() - start
            total = time.perf_counter() - start
            cpu[:] = [process_cpu(w.client.pid) - cpu[0], time.process_time() - cpu[1]]
            return first or float("nan"), total, len(find.results.hits)

        def frames(w: MainWindow, count: int | None) -> tuple[list[float], list[float]]:
            """Paint times and gaps (ms) while ``w`` scrolls: for as long as a cold search
            runs (``count`` None), or for ``count`` frames with nothing running."""
            view, vbar = w.view, w.view.verticalScrollBar()
            paint: list[float] = []
            gaps: list[float] = []
            last = [time.perf_counter()]

            def frame() -> None:
                begin = time.perf_counter()
                gaps.append((begin - last[0]) * 1000)
                vbar.setValue((vbar.value() + SCROLL_STEP_PX) % max(vbar.maximum(), 1))
                view.viewport().repaint()
                paint.append((time.perf_counter() - begin) * 1000)
                last[0] = time.perf_counter()
                done = w.reader.find.results.state != "running" if count is None \
                    else len(paint) >= count
                if done:
                    timer.stop()
                    app.quit()

            timer = QTimer()
            timer.setInterval(FRAME_MS)
            timer.timeout.connect(frame)
            w.reader.panel.show_tab(RESULTS)  # as a search shows it: the same page sizes
            while not w.is_settled():
                app.processEvents()
            if count is None:
                w.reader.find.open()
                w.reader.find.search(args.query)
            timer.start()
            app.exec()
            return paint, gaps[1:]

        base_first, base_all, ours_first, ours_all, warm_first, warm_all = ([] for _ in range(6))
        cpu: list[float] = []  # the last search's: check process, this (the window's) process
        base_cpu, check_cpu, window_cpu = [], [], []
        counts: dict[str, int] = {}
        during_paint: list[float] = []
        during_gaps: list[float] = []
        idle_paint: list[float] = []
        idle_gaps: list[float] = []
        for run in range(args.runs):
            began = time.process_time()
            f, a, n = baseline(pdf, args.query)
            base_cpu.append(time.process_time() - began)
            base_first.append(f)
            base_all.append(a)
            counts["PyMuPDF search_for"] = n
            w = window()
            f, a, n = search(w, args.query)
            ours_first.append(f)
            ours_all.append(a)
            check_cpu.append(cpu[0])
            window_cpu.append(cpu[1])
            counts["citeview"] = n
            f, a, _ = search(w, SECOND_QUERY)
            warm_first.append(f)
            warm_all.append(a)
            w.close()
            if run < 2:  # frame timing: two rounds are plenty of frames
                # Each in a new window, so the pages rendered while scrolling are the same
                # work in both: the difference is the search.
                w = window()
                p, g = frames(w, None)
                during_paint += p
                during_gaps += g
                w.close()
                w = window()
                p, g = frames(w, len(p))
                idle_paint += p
                idle_gaps += g
                w.close()
    med = statistics.median
    print(f"find on a {PAGES}-page PDF, query {args.query!r} (median of {args.runs} runs; "
          f"hits: PyMuPDF {counts['PyMuPDF search_for']}, citeview {counts['citeview']}):")
    print("                                   first hit      all hits")
    print(f"  PyMuPDF search_for (baseline)    {med(base_first) * 1000:8.0f} ms   "
          f"{med(base_all) * 1000:8.0f} ms")
    print(f"  citeview, first search (cold)    {med(ours_first) * 1000:8.0f} ms   "
          f"{med(ours_all) * 1000:8.0f} ms   ratio {med(ours_all) / med(base_all):.2f}")
    print(f"  citeview, next search (warm)     {med(warm_first) * 1000:8.0f} ms   "
          f"{med(warm_all) * 1000:8.0f} ms   ratio {med(warm_all) / med(base_all):.2f}")
    print(f"  CPU time (load-independent): search_for {med(base_cpu):.2f} s; the first "
          f"search: check process {med(check_cpu):.2f} s (ratio "
          f"{med(check_cpu) / med(base_cpu):.2f}), window process {med(window_cpu):.2f} s")
    print(f"frames while scrolling at {1000 // FRAME_MS} Hz ({len(during_paint)} during a cold "
          f"search, {len(idle_paint)} with none):")
    print(f"  paint time   during {med(during_paint):6.2f} ms (worst {max(during_paint):6.1f})"
          f"   none {med(idle_paint):6.2f} ms (worst {max(idle_paint):6.1f})   ratio of "
          f"medians {med(during_paint) / med(idle_paint):.2f}")
    print(f"  frame gap    during {med(during_gaps):6.2f} ms (worst {max(during_gaps):6.1f})"
          f"   none {med(idle_gaps):6.2f} ms (worst {max(idle_gaps):6.1f})   "
          f"(the timer asks for {FRAME_MS})")


if __name__ == "__main__":
    main()
