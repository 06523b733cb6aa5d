"""Screenshots of the reader's features, for the README and for looking at them.

    python scripts/screenshots.py OUT_DIR [--size 1280x800] [--scene find …]
    QT_SCALE_FACTOR=2 python scripts/screenshots.py OUT_DIR --size 800x600

Each scene builds the real window in this process (offscreen), opens a file, does what a
reader would (searches, opens the side panel, follows a link), waits until nothing is
running and every visible page is rendered, and saves the window as
``OUT_DIR/<scene>-<W>x<H>[@2x].png``:

    find         the demo searched for "fraudulent": the hits outlined, the current one
                 centred, the hit list in the side panel
    thumbnails   the demo with the side panel's page thumbnails, evidence pages marked
    two-docs     a claim whose evidence is in two PDFs, shown in the first, then (second
                 shot, ``two-docs-b``) after its link to the second was followed
    rotated      the demo's signature claim with the view turned a quarter
    review       the review panel on a claim whose quoted words stand five times on a
                 page (copies numbered), two other claims decided, the side panel open
    selection    the demo's agent's certification selected by dragging across it and
                 copied (Ctrl+C), as a reader copies text
    selection-turned  the same with the view turned a quarter
    conflict     the review file changed on disk by another program meanwhile: the
                 panel's problem bar with its ways out
    crowded      everything open at once, as the smallest window must bear it: the
                 conflict's problem bar, the side panel and the find bar with its hits
    shortcuts    Help ▸ Keyboard Shortcuts over the window
    searching    a find still running through a long PDF (the demo's pages many times
                 over): the hits so far, how far it has read, Stop
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCENES = ("find", "thumbnails", "two-docs", "rotated", "review", "selection", "selection-turned",
          "conflict", "crowded", "shortcuts", "searching")
# What the find scenes search for (five hits on the demo's page 3).
FIND = "fraudulent insurance act"
# The long PDF of the "searching" scene: the demo's pages this many times over, so that
# the search is still reading when the picture is taken.
LONG_COPIES = 600
# On page 3 of the demo, five states' fraud warnings share these words.
FRAUD = ("commits a fraudulent insurance act, which is a crime and subjects such person to "
         "criminal and civil penalties")


def demo_with_copies(folder: Path) -> Path:
    """The demo in ``folder``, with one claim more: flagged upstream, its quote on page 3
    five times (a placement to review, the copy meant to be chosen)."""
    import shutil

    from viewer.state.files import demo_path

    for name in ("demo.cite", "policy.pdf"):
        shutil.copy(demo_path().parent / name, folder / name)
    cite = folder / "demo.cite"
    data = json.loads(cite.read_text(encoding="utf-8"))
    data["claims"].append({"id": "c14", "text": "Fraud on the application is a crime.",
                           "flag": "the answer hedged",
                           "evidence": [{"document": "policy", "page": 3, "quote": FRAUD}]})
    cite.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return cite


def long_pdf(folder: Path) -> Path:
    """The demo's policy, its pages repeated :data:`LONG_COPIES` times."""
    import pymupdf

    from viewer.state.files import demo_path

    demo = pymupdf.open(demo_path().parent / "policy.pdf")
    doc = pymupdf.open()
    for _ in range(LONG_COPIES):
        doc.insert_pdf(demo)
    path = folder / "long.pdf"
    doc.save(path)
    return path


def two_documents(folder: Path) -> Path:
    """The demo's application and a one-page schedule, and a claim citing both."""
    import shutil

    import pymupdf

    from viewer.state.files import demo_path

    shutil.copy(demo_path().parent / "policy.pdf", folder / "application.pdf")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Declarations page — Schedule of coverages", fontsize=15)
    lines = ["Named insured: Elena K. Lindqvist", "Policy period: 07/01/2025 to 07/01/2026",
             "Dwelling (Coverage A) limit of insurance $277,000, deductible $500",
             "Personal Liability (Coverage E) limit $300,000",
             "Countersigned by the Company's authorized representative"]
    for i, line in enumerate(lines):
        page.insert_text((72, 130 + i * 22), line, fontsize=11)
    doc.save(folder / "schedule.pdf")
    doc.close()
    cite = folder / "two.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [
        {"id": "application", "path": "application.pdf"},
        {"id": "schedule", "path": "schedule.pdf"}], "claims": [
        {"id": "c1", "text": "Elena K. Lindqvist signed; the dwelling is insured for "
                             "$277,000 with a $500 deductible.", "evidence": [
            {"document": "application", "page": 3,
             "quote": "Elena K. Lindqvist Signature of Applicant"},
            {"document": "schedule",
             "quote": "Dwelling (Coverage A) limit of insurance $277,000, deductible $500"}]}]}))
    return cite


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--scene", action="append", choices=SCENES)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(REPO))
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from viewer.state.files import demo_path
    from viewer.window.settings import Preferences
    from viewer.window.shell import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    width, height = (int(v) for v in args.size.split("x"))
    scale = os.environ.get("QT_SCALE_FACTOR", "1")
    suffix = f"-{width}x{height}" + ("@2x" if scale == "2" else "")
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="citeview-shots-"))

    def window() -> MainWindow:
        prefs = Preferences(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
        w = MainWindow(prefs, interactive=False)
        w.resize(width, height)
        w.show()
        return w

    def settle(w: MainWindow, until: Callable[[], bool] = lambda: True) -> None:
        # The event loop runs until the window says it is settled (no sleeping).
        thumbnails = w.reader.panel.panel.thumbnails

        def done() -> bool:
            shown = thumbnails.isVisible()
            return w.is_settled() and (not shown or thumbnails.is_settled()) and until()

        while not done():
            app.processEvents()
            if not w.is_settled():
                w.view.viewport().update()
                app.sendPostedEvents()

    def save(w: MainWindow, name: str) -> None:
        for _ in range(3):
            app.processEvents()
        path = args.out / f"{name}{suffix}.png"
        w.grab().save(str(path), "PNG")
        print(path)

    def find_text(w: MainWindow, text: str, *, until_done: bool) -> None:
        """Type ``text`` in the find bar and search, as Ctrl+F and Enter do; wait for the
        search's end if ``until_done``."""
        w.reader.find.open()
        w.reader.find.bar.field.setText(text)
        w.reader.find.search(text)
        if until_done:
            settle(w, lambda: w.reader.find.results.state == "done")

    def drag_across(w: MainWindow, page: int, first: str, count: int, *, before: int = 0
                    ) -> None:
        """Drag from ``before`` words ahead of the first word ``first`` of ``page`` over
        ``count`` words, as a reader's mouse does (the viewer's own transform places the
        pointer)."""
        from PySide6.QtCore import QPoint, QPointF, Qt
        from PySide6.QtTest import QTest

        cache = w.selecting.cache
        cache.words_of(page)
        settle(w, lambda: cache.ready(page))
        words = cache.words_of(page)
        assert words is not None
        start = next(i for i, wb in enumerate(words.words) if wb.text == first) - before
        w.view.reveal(page, [words.words[start].rect], fit=False)
        settle(w)
        lay = w.view.pages_layout
        assert lay is not None

        def at(index: int) -> QPoint:
            x0, y0, x1, y1 = words.words[index].rect
            point = lay.pages[page].transform(w.view.scroll_offset()).map(
                QPointF((x0 + x1) / 2, (y0 + y1) / 2))
            return point.toPoint()

        viewport = w.view.viewport()
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         at(start))
        QTest.mouseMove(viewport, at(start + count // 2))
        QTest.mouseMove(viewport, at(start + count - 1))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier, at(start + count - 1))
        settle(w, lambda: w.selecting.selection is not None)

    for scene in args.scene or SCENES:
        w = window()
        if scene in ("review", "conflict", "crowded"):
            cite = demo_with_copies(Path(tempfile.mkdtemp(dir=tmp)))
            w.open_path(cite)
            w.select_claim_when_ready("c8")
            settle(w, lambda w=w: w.session.selected == "c8")
            w.review.decide("confirmed")
            if scene in ("conflict", "crowded"):
                review = cite.with_name("demo.review.json")
                data = json.loads(review.read_text(encoding="utf-8"))
                data["claims"].append({"claim": "c9", "support": "partly", "note": "",
                                       "reviewer": "amy", "at": "2026-12-01T09:00:00Z"})
                review.write_text(json.dumps(data), encoding="utf-8")
            w.review.support("supported")  # on to the next claim to review
            if scene == "review":
                w.review.decide("absent")
                w.review.support("not_supported")
                w.session.select("c14")
                w.reader.panel.show_tab(0)
            if scene == "crowded":
                find_text(w, FIND, until_done=True)
                w.reader.panel.show_tab(2)
            settle(w)
        if scene in ("find", "thumbnails", "rotated", "selection", "selection-turned",
                     "shortcuts"):
            w.open_path(demo_path())
            w.select_claim_when_ready("c3")
            settle(w, lambda w=w: w.session.selected == "c3")
        if scene == "find":
            find_text(w, FIND, until_done=True)
            w.reader.find.step(1)
            settle(w)
        elif scene == "searching":
            w.open_path(long_pdf(tmp))
            settle(w, lambda w=w: w.view.doc is not None)
            results = w.reader.find.results
            find_text(w, FIND, until_done=False)
            # Taken a third of the way through, while the search still reads.
            while results.state == "running" and results.searched < results.pages // 3:
                app.processEvents()
            if results.state != "running":
                raise SystemExit(f"the search ended ({results.state}) before the picture")
            save(w, scene)
            w.reader.find.stop()
            w.close()
            continue
        elif scene == "thumbnails":
            w.reader.panel.show_tab(0)
            settle(w)
        elif scene == "rotated":
            w.reader.turn(90)
            w.show_selection()
            settle(w)
        elif scene in ("selection", "selection-turned"):
            if scene == "selection-turned":
                w.reader.turn(90)
                settle(w)
            drag_across(w, 2, "certify", 18, before=1)
            w.selecting.copy()
            settle(w)
        elif scene == "shortcuts":
            from viewer.window.actions import shortcuts_dialog

            dialog = shortcuts_dialog(w)
            dialog.show()
            settle(w)
            for _ in range(3):
                app.processEvents()
            path = args.out / f"{scene}{suffix}.png"
            shot = w.grab()
            from PySide6.QtGui import QPainter

            painter = QPainter(shot)
            painter.drawPixmap(dialog.pos() - w.pos(), dialog.grab())
            painter.end()
            shot.save(str(path), "PNG")
            print(path)
            dialog.close()
            w.close()
            continue
        elif scene == "two-docs":
            w.open_path(two_documents(tmp))
            w.select_claim_when_ready("c1")
            settle(w, lambda w=w: w.session.selected == "c1")
            save(w, scene)
            w.detail.link.emit("show:1")
            settle(w)
            scene = "two-docs-b"
        save(w, scene)
        w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
