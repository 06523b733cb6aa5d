"""Viewer benchmark: start-up to a saved screenshot, and scrolling a 500-page PDF.

    python benchmarks/bench_viewer.py            # both parts
    python benchmarks/bench_viewer.py --runs 7   # more start-up runs

1. Start-up. Wall time from process start to exit of ``citeview --demo --claim c3
   --screenshot`` (load the citations, check them, render the page, paint the highlight,
   save the window), twice: opened for the first time (no report kept; every run checks),
   and reopened unchanged (the report its warm-up run kept is given again,
   viewer.checker.stored), against a minimal script that imports PySide6 and PyMuPDF, renders the
   same page at the same zoom into a window of the same size and saves a grab of it.
   Targets: ratio ≤ 1.35 on a quiet machine, ≤ 1.5 under load. Beside them, to show
   where the difference lies, each round also times a bare interpreter and each
   program's imports alone (citeview's as ``run()`` makes them, with the garbage
   collector paused); the rest of a median is building the window, checking, rendering,
   saving and exiting. Both programs run from byte-code, as an installed program does
   (pip compiles it on install): it is written to a cache of the run's own by the
   warm-up runs, even where ``PYTHONDONTWRITEBYTECODE`` is set.
   ``--from-source`` keeps the environment's setting instead; with it set, each start
   compiles every module it imports from source. ``--baseline TREE`` also starts the
   citeview of another source tree (the code before a change, from ``git archive``) in
   the same rounds. As measures the machine's load moves less: each program's CPU time
   (its own and its check process's; the render process, which nothing waits for, is
   not counted), and the CPU time of the check process's path to the report run alone
   in one process (its imports, reading, inspecting and checking the demo).
2. Scrolling. A 500-page PDF (corpus documents concatenated when ../shared/corpus exists,
   else generated text pages) is scrolled top to bottom at 60 frames a second, 200 px a
   frame, in one process with the real window. Reported: paint time per frame (scroll +
   synchronous repaint) median and worst, the gap between frames (event loop stalls),
   how many frames showed every visible page fully rendered, and peak memory of the GUI
   process and of the GUI plus its render process. Targets: median < 16 ms, worst < 100 ms,
   peak RSS < 400 MB.
3. Painting while checking. The same window scrolls while 300 quotes without page hints are
   checked against the 500-page PDF, and then as long again once the check is done: frame
   paint times during and after, as a ratio (the check runs in its own process).

Nothing here asserts: it prints numbers (timings vary with the machine and its load).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SIZE = (1280, 800)
ZOOM_PERCENT = 140
CLAIM, CLAIM_PAGE = "c3", 3  # the demo claim and the page its highlight is on
SCROLL_STEP_PX = 200
FRAME_MS = 16
PAGES = 500

MINIMAL = r"""
import sys
import pymupdf
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea
app = QApplication(sys.argv[:1])
doc = pymupdf.open(sys.argv[1])
page = doc[int(sys.argv[2]) - 1]
dpr = app.primaryScreen().devicePixelRatio()
zoom = float(sys.argv[3]) * dpr
pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
image = QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888)
pixmap = QPixmap.fromImage(image)
pixmap.setDevicePixelRatio(dpr)
label = QLabel()
label.setPixmap(pixmap)
area = QScrollArea()
area.setWidget(label)
area.resize(int(sys.argv[4]), int(sys.argv[5]))
area.show()
app.processEvents()
area.grab().save(sys.argv[6], "PNG")
"""


def env(tree: Path = REPO) -> dict[str, str]:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(tree))


def timed(cmd: list[str], tmp: Path, *, bytecode: bool = True, cwd: Path = REPO,
          reports: Path | None = None) -> tuple[float, float]:
    """Wall time and CPU time (user + system, of the program and the children it
    waited for) of one run of ``cmd`` from ``cwd``; reports kept in ``reports`` (None:
    none kept, every open checks)."""
    e = env(cwd)
    e.update(XDG_CONFIG_HOME=str(tmp / "config"), XDG_STATE_HOME=str(tmp / "state"),
             CITEVIEW_REPORT_STORE=str(reports) if reports is not None else "off")
    if bytecode:
        e.pop("PYTHONDONTWRITEBYTECODE", None)
        e["PYTHONPYCACHEPREFIX"] = str(tmp / "bytecode")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=e, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:4]} failed ({proc.returncode}):\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


# Interpreter start, and each program's imports alone: what the two start-ups share and
# where they part. citeview's are those viewer.app's run() makes before building the window
# (the check's imports are made by the check process, beside these).
PHASES = {
    "interpreter start": "pass",
    "imports, minimal": "import pymupdf, PySide6.QtWidgets",
    "imports, citeview": ("import gc; gc.disable(); import PySide6.QtCore, viewer.qtimport; "
                          "viewer.qtimport.install(); "
                          "import viewer.window.screenshot, viewer.window.settings"),
}
# The check process's path to the report, alone in one process: what the window does
# before it starts that process (imports, the render handoff; shared with it), then what
# the process does for the demo: its imports, reading the file, inspecting its document,
# checking, the record.
CHECK_PATH = """
import viewer.checker.client, viewer.render.process
viewer.render.process.prestart()
import matcher.document
from viewer.checker import protocol as p, server
from viewer.state.files import demo_path
s = server.Server(None)
s.send = lambda msg: None
s.arrived = lambda rid: False
path = str(demo_path())
for doc in s.open(0, p.Open(path)).documents:
    s.inspect(0, p.Inspect(str(doc.path)))
s.check(0, p.Check(path))
"""


def bench_startup(runs: int, *, bytecode: bool = True, baseline: Path | None = None) -> None:
    from viewer.state.files import demo_path

    demo = demo_path()
    pdf = demo.parent / "policy.pdf"
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        viewer = [sys.executable, "-m", "viewer.app", "--demo", "--claim", CLAIM,
                  "--size", f"{SIZE[0]}x{SIZE[1]}", "--zoom", str(ZOOM_PERCENT),
                  "--screenshot", str(tmp / "viewer.png")]
        minimal = [sys.executable, "-c", MINIMAL, str(pdf), str(CLAIM_PAGE),
                   str(ZOOM_PERCENT / 100), str(SIZE[0]), str(SIZE[1]), str(tmp / "min.png")]
        check_path = [sys.executable, "-c", CHECK_PATH]
        kept = tmp / "reports"  # the reopened runs' store, filled by their warm-up run
        programs: dict[str, tuple[list[str], Path, Path | None]] = {
            "citeview": (viewer, REPO, None), "reopened": (viewer, REPO, kept),
            "minimal": (minimal, REPO, None), "check path": (check_path, REPO, None)}
        if baseline is not None:
            programs["baseline"] = (viewer, baseline, None)
            programs["check path, baseline"] = (check_path, baseline, None)
        for cmd, cwd, store in programs.values():  # warm the file cache, write byte-code
            timed(cmd, tmp / cwd.name, bytecode=bytecode, cwd=cwd, reports=store)
        got: dict[str, list[tuple[float, float]]] = {name: [] for name in programs}
        phases: dict[str, list[float]] = {name: [] for name in PHASES}
        for r in range(runs):  # interleaved, so machine load hits all alike
            for name in list(programs) if r % 2 == 0 else list(programs)[::-1]:
                cmd, cwd, store = programs[name]
                got[name].append(timed(cmd, tmp / cwd.name, bytecode=bytecode, cwd=cwd,
                                       reports=store))
            for name, code in PHASES.items():
                phases[name].append(timed([sys.executable, "-c", code], tmp / REPO.name,
                                          bytecode=bytecode)[0])
    end_load = os.getloadavg()

    def wall(name: str) -> float:
        return statistics.median(t for t, _ in got[name])

    def cpu(name: str) -> float:
        return statistics.median(c for _, c in got[name])

    mo, mb = wall("citeview"), wall("minimal")
    source = "from byte-code" if bytecode or not os.environ.get("PYTHONDONTWRITEBYTECODE") \
        else "compiled from source at each start"
    print(f"start-up to saved screenshot (median of {runs}, demo page {CLAIM_PAGE} at "
          f"{ZOOM_PERCENT}%, {SIZE[0]}x{SIZE[1]}, {source}; {os.cpu_count()} cores, load "
          f"average {load[0]:.2f} at start, {end_load[0]:.2f} at end):")
    print("                               wall (s)             CPU (s)")
    rows = ["citeview", "reopened", "minimal"] + (["baseline"] if baseline is not None
                                                   else [])
    for name in rows:
        walls = [t for t, _ in got[name]]
        label = {"citeview": "citeview --screenshot", "reopened": "  reopened, report kept",
                 "minimal": "minimal PySide6+PyMuPDF",
                 "baseline": "citeview of the baseline"}[name]
        print(f"  {label:27} {wall(name):6.2f}  (min {min(walls):.2f}, max {max(walls):.2f})"
              f"  {cpu(name):6.2f}")
    print(f"  ratio, first open           {mo / mb:6.2f}     (target <= 1.35 quiet, <= 1.5 "
          f"loaded)   CPU {cpu('citeview') / cpu('minimal'):.2f}")
    print(f"  ratio, reopened             {wall('reopened') / mb:6.2f}"
          f"                                   CPU {cpu('reopened') / cpu('minimal'):.2f}")
    if baseline is not None:
        print(f"  ratio of the baseline       {wall('baseline') / mb:6.2f}"
              f"                                   CPU {cpu('baseline') / cpu('minimal'):.2f}")
        print(f"  citeview / baseline         {mo / wall('baseline'):6.2f}"
              f"                                   CPU {cpu('citeview') / cpu('baseline'):.2f}")
    line = f"  check path alone, CPU (s)   {cpu('check path'):6.2f}"
    if baseline is not None:
        line += f"   baseline {cpu('check path, baseline'):.2f}"
    print(line + "   (imports, open, inspect, check of the demo, one process)")
    start, imports = (statistics.median(phases[name]) for name in
                      ("interpreter start", "imports, citeview"))
    base_imports = statistics.median(phases["imports, minimal"])
    print("  where it goes (medians, s)   citeview  minimal")
    print(f"    interpreter start            {start:6.2f}   {start:6.2f}")
    print(f"    imports (with the start)     {imports:6.2f}   {base_imports:6.2f}")
    print(f"    the rest                     {mo - imports:6.2f}   {mb - base_imports:6.2f}"
          "   (window or label, check, render, save, exit)")


def big_pdf(path: Path) -> Path:
    """A 500-page PDF: corpus documents with a text layer, repeated; else generated pages."""
    import pymupdf

    out = pymupdf.open()
    sources = sorted(p for p in CORPUS.glob("*.pdf") if not p.name.startswith("scanned_")) \
        if CORPUS.is_dir() else []
    while sources and out.page_count < PAGES:
        for src in sources:
            with pymupdf.open(src) as doc:
                take = min(doc.page_count, PAGES - out.page_count)
                out.insert_pdf(doc, to_page=take - 1)
            if out.page_count >= PAGES:
                break
    while out.page_count < PAGES:
        page = out.new_page()
        for i in range(48):
            page.insert_text((56, 60 + i * 15), f"Page {out.page_count} line {i} " * 4,
                             fontsize=9)
    out.save(path, garbage=1)
    out.close()
    return path


def bench_scroll() -> None:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import psutil
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        t0 = time.perf_counter()
        pdf = big_pdf(tmp / "big.pdf")
        made = time.perf_counter() - t0
        prefs = Preferences(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(prefs, interactive=False)
        window.resize(*SIZE)
        window.show()
        t0 = time.perf_counter()
        window.open_path(pdf)
        while window.view.page_count() == 0:
            app.processEvents()
        opened = time.perf_counter() - t0
        view = window.view
        vbar = view.verticalScrollBar()
        me = psutil.Process()
        frames: list[float] = []
        last = [time.perf_counter()]
        gaps: list[float] = []
        settled: list[bool] = []
        peak_gui = peak_all = peak_pss = 0

        def sample_memory(full: bool) -> None:
            nonlocal peak_gui, peak_all, peak_pss
            gui = me.memory_info().rss
            total = gui
            pid = window.renderer.worker_pid
            worker = psutil.Process(pid) if pid is not None else None
            try:
                if worker is not None:
                    total += worker.memory_info().rss
                if full:  # proportional set size: shared pages counted once (slow to read)
                    pss = me.memory_full_info().pss
                    pss += worker.memory_full_info().pss if worker is not None else 0
                    peak_pss = max(peak_pss, pss)
            except psutil.Error:
                pass
            peak_gui, peak_all = max(peak_gui, gui), max(peak_all, total)

        def frame() -> None:
            start = time.perf_counter()
            gaps.append(start - last[0])
            vbar.setValue(vbar.value() + SCROLL_STEP_PX)
            view.viewport().repaint()
            end = time.perf_counter()
            frames.append(end - start)
            settled.append(view.is_settled())
            if len(frames) % 10 == 0:
                sample_memory(full=len(frames) % 100 == 0)
            last[0] = time.perf_counter()  # memory sampling is not counted as a gap
            if vbar.value() >= vbar.maximum():
                timer.stop()
                app.quit()

        timer = QTimer()
        timer.setInterval(FRAME_MS)
        timer.timeout.connect(frame)
        t0 = time.perf_counter()
        last[0] = t0
        timer.start()
        app.exec()
        total = time.perf_counter() - t0
        sample_memory(full=True)
        window.close()
    ms = [f * 1000 for f in frames]
    gap_ms = [g * 1000 for g in gaps[1:]]
    print(f"scrolling {PAGES} pages top to bottom ({len(frames)} frames of {SCROLL_STEP_PX} px "
          f"at {1000 // FRAME_MS} Hz, {SIZE[0]}x{SIZE[1]}, zoom {view.zoom * 100:.0f}%; "
          f"PDF made in {made:.1f} s, opened in {opened * 1000:.0f} ms; {total:.1f} s):")
    print(f"  frame paint time   median {statistics.median(ms):6.2f} ms   "
          f"p99 {sorted(ms)[int(len(ms) * 0.99)]:6.2f} ms   worst {max(ms):6.2f} ms   "
          f"(targets < 16 / < 100)")
    print(f"  time between frames median {statistics.median(gap_ms):6.2f} ms   "
          f"worst {max(gap_ms):6.2f} ms   (timer asks for {FRAME_MS})")
    print(f"  frames with every visible page rendered: "
          f"{100 * sum(settled) / len(settled):.0f}%")
    print(f"  peak RSS: GUI process {peak_gui / 2**20:.0f} MB (target < 400); GUI + render "
          f"process {peak_all / 2**20:.0f} MB RSS, {peak_pss / 2**20:.0f} MB PSS (the RSS sum "
          f"counts the pages the forked worker shares with the GUI twice)")


def bench_paint_while_checking(quotes: int = 300) -> None:
    """Frames painted while a long check runs (in the check process), against frames
    painted once it is done: the same window, document and scrolling, one run."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import json
    import random

    import pymupdf
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        pdf = big_pdf(tmp / "big.pdf")
        rng = random.Random(5)
        with pymupdf.open(pdf) as doc:
            lines = [ln for n in rng.sample(range(doc.page_count), 120)
                     for ln in doc[n].get_text().splitlines() if len(ln.split()) >= 6]
        claims = [{"id": f"q{i}", "text": "a claim", "evidence": [{"document": "doc",
                   "quote": line}]} for i, line in enumerate(rng.sample(lines, quotes))]
        cite = tmp / "many.cite"
        cite.write_text(json.dumps({"version": 1, "documents": [{"id": "doc",
                                                                  "path": "big.pdf"}],
                                    "claims": claims}))
        prefs = Preferences(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(prefs, interactive=False)
        window.resize(*SIZE)
        window.show()
        window.open_path(cite)
        while window.view.page_count() == 0:
            app.processEvents()
        view = window.view
        vbar = view.verticalScrollBar()
        during: list[float] = []
        after: list[float] = []
        started = time.perf_counter()

        def frame() -> None:
            checking = window.session.report is None
            start = time.perf_counter()
            vbar.setValue((vbar.value() + SCROLL_STEP_PX) % max(vbar.maximum(), 1))
            view.viewport().repaint()
            (during if checking else after).append(time.perf_counter() - start)
            if not checking and len(after) >= max(len(during), 60):
                timer.stop()
                app.quit()

        timer = QTimer()
        timer.setInterval(FRAME_MS)
        timer.timeout.connect(frame)
        timer.start()
        app.exec()
        checked = time.perf_counter() - started
        window.close()
    d_ms, a_ms = ([f * 1000 for f in fs] for fs in (during, after))
    print(f"painting while {quotes} unhinted quotes are checked ({checked:.1f} s, "
          f"{len(d_ms)} frames during the check, {len(a_ms)} after):")
    print(f"  frame paint time during the check  median {statistics.median(d_ms):6.2f} ms   "
          f"worst {max(d_ms):6.2f} ms")
    print(f"  frame paint time after it          median {statistics.median(a_ms):6.2f} ms   "
          f"worst {max(a_ms):6.2f} ms   (ratio of medians "
          f"{statistics.median(d_ms) / statistics.median(a_ms):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-up runs of each program")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--skip-scroll", action="store_true")
    parser.add_argument("--skip-check-paint", action="store_true")
    parser.add_argument("--baseline", metavar="TREE", type=Path,
                        help="start-up: also run the citeview of this source tree (say, the "
                             "code before a change, from 'git archive'), in the same rounds")
    parser.add_argument("--from-source", action="store_true",
                        help="start-up: leave PYTHONDONTWRITEBYTECODE as it is (set, every "
                             "start compiles what it imports)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    if not args.skip_startup:
        bench_startup(args.runs, bytecode=not args.from_source,
                      baseline=args.baseline.resolve() if args.baseline else None)
    if not args.skip_scroll:
        bench_scroll()
    if not args.skip_check_paint:
        bench_paint_while_checking()


if __name__ == "__main__":
    main()
