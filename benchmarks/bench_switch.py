"""Switching documents: how soon a picture of the page reaches the screen.

    python benchmarks/bench_switch.py [--rounds 5]

A citations file naming several corpus PDFs (generated text pages when ../shared/corpus
is absent) is opened in a real window (offscreen), 1280×800 at fit width. Each round
switches to every document in turn, as the toolbar's document list does, and measures
from the switch to:

* *picture*: the first paint with a picture of the page at the viewport's centre (the
  small interim render — made while the window was idle, or asked for first on the
  switch — or tiles kept from an earlier showing);
* *full*: every tile in view rendered (the page as sharp as it will be) — before the
  interim picture, this was when anything but white paper appeared: the baseline.

The first round shows each document for the first time (a small render first); later
rounds come back to documents shown before (their kept pictures, at once). Printed:
medians per kind of switch, and the ratio picture / full. Target: picture < 150 ms.
Nothing here asserts: timings vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPUS = REPO.parent / "shared" / "corpus"
DOCUMENTS = ("text_nist_sp800_223.pdf", "text_free_culture_book.pdf",
             "table_energy_appendix_rot90.pdf", "text_federal_register_3col.pdf",
             "form_irs_1040_2025.pdf", "text_fr_medical_textbook.pdf")
TARGET_MS = 150


def citations(folder: Path) -> Path:
    names = [n for n in DOCUMENTS if (CORPUS / n).is_file()]
    if not names:
        from tests.viewer.helpers import text_pdf

        names = [f"gen{i}.pdf" for i in range(4)]
        for n in names:
            text_pdf(folder / n, pages=20)
    else:
        for n in names:
            (folder / n).symlink_to(CORPUS / n)
    docs = [{"id": f"d{i}", "path": n} for i, n in enumerate(names)]
    claims = [{"id": f"c{i}", "text": "t", "evidence": [
        {"document": f"d{i}", "page": 1, "quote": "a purple submarine moored"}]}
        for i in range(len(names))]
    cite = folder / "switch.cite"
    cite.write_text(json.dumps({"version": 1, "documents": docs, "claims": claims}),
                    encoding="utf-8")
    return cite


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtWidgets import QApplication

    from viewer.render.view import interim_tiles
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow
    from viewer.window.windows import Application

    app = Application(sys.argv[:1])
    folder = Path(tempfile.mkdtemp())
    window = MainWindow(Preferences(QSettings(f"{folder}/c.ini", QSettings.Format.IniFormat)),
                        interactive=False)
    window.resize(1280, 800)
    window.show()
    window.open_path(citations(folder))

    def pump(until: object, limit_s: float = 60.0) -> None:
        end = time.monotonic() + limit_s
        while not until() and time.monotonic() < end:  # type: ignore[operator]
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)

    pump(lambda: window.session.report is not None and window.is_settled())
    view = window.view
    ids = [d.id for d in window.session.citations.documents]  # type: ignore[union-attr]

    def picture_shown() -> bool:
        """The page at the centre has a picture: its own tiles or an interim one."""
        page = view.pages_layout.page_at(view.visible_layout_rect().center().y()) \
            if view.pages_layout is not None else None
        if page is None or view.doc is None:
            return False
        keys = view.visible_keys()
        own = any(k in view.renderer.cache for k in keys if k.page == page.index)
        scale = keys[0].scale if keys else 1.0
        return own or bool(interim_tiles(view.renderer, view.doc, page.index, scale))

    results: dict[str, tuple[list[float], list[float]]] = {"first": ([], []), "back": ([], [])}
    for rnd in range(args.rounds + 1):
        kind = "first" if rnd == 0 else "back"
        for doc_id in ids[1:] + ids[:1] if rnd == 0 else ids:
            start = time.perf_counter()
            window.show_document(doc_id)
            pump(lambda: False, 0)  # the switch's own posted work
            pump(picture_shown)
            view.viewport().repaint()  # the paint that puts it on the screen
            picture = time.perf_counter() - start
            pump(window.is_settled)
            full = time.perf_counter() - start
            results[kind][0].append(picture * 1000)
            results[kind][1].append(full * 1000)
    print(f"documents: {len(ids)}, rounds: {args.rounds} (+ the first showing), "
          f"window 1280x800, fit width")
    print(f"{'switch':<8} {'n':>3} {'picture ms':>11} {'full ms (baseline)':>19} "
          f"{'ratio':>6} {'picture max':>12}")
    for kind, (pic, full) in results.items():
        if pic:
            mp, mf = statistics.median(pic), statistics.median(full)
            print(f"{kind:<8} {len(pic):>3} {mp:>11.1f} {mf:>19.1f} {mp / mf:>6.2f} "
                  f"{max(pic):>12.1f}")
    print(f"target: picture < {TARGET_MS} ms after a switch")
    window.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
