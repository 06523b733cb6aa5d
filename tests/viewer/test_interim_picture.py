"""A page is never white while it renders: switching to a document asks for a small
picture of each page in view before its full image, and switching back to a document
shown before paints its last pictures, scaled, at once. What is painted is checked
against PyMuPDF's own rendering of the page (dark where its text is)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pymupdf
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from viewer.render.tiles import INTERIM_DIVISOR, RenderCache, interim_key, render_scale
from viewer.render.view import paint_page_image
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf

MakeWindow = Callable[..., MainWindow]


def two_documents(tmp_path: Path) -> Path:
    text_pdf(tmp_path / "a.pdf", pages=3)
    text_pdf(tmp_path / "b.pdf", pages=3, size=(595, 842))
    cite = tmp_path / "two.cite"
    import json
    cite.write_text(json.dumps({"version": 1, "documents": [
        {"id": "a", "path": "a.pdf"}, {"id": "b", "path": "b.pdf"}], "claims": [
        {"id": "c1", "text": "t", "evidence": [
            {"document": "a", "page": 1, "quote": paragraph_lines(0, 40)[3]}]},
        {"id": "c2", "text": "t", "evidence": [
            {"document": "b", "page": 1, "quote": paragraph_lines(0, 40)[5]}]}]}),
        encoding="utf-8")
    return cite


def dark_share(image: QImage, rect: QRectF) -> float:
    """The share of pixels darker than paper in ``rect`` of ``image``."""
    r = rect.toAlignedRect().intersected(image.rect())
    dark = total = 0
    for y in range(r.top(), r.bottom(), 2):
        for x in range(r.left(), r.right(), 2):
            total += 1
            dark += QColor(image.pixel(x, y)).lightness() < 200  # ink, blurred or not
    return dark / max(total, 1)


def test_a_switch_asks_for_a_small_picture_first_and_paints_it(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window((1000, 760))
    # The view's own way, without the idle-time pictures of the other documents (below).
    window.view.settled.disconnect(window.reader.prefetch._idle)
    window.open_path(two_documents(tmp_path))
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    view, renderer = window.view, window.view.renderer
    qtbot.waitUntil(renderer.is_idle, timeout=20000)  # a's neighbours rendered too
    window.show_document("b")
    view.viewport().repaint()  # synchronously: nothing of b has been rendered yet
    assert view.doc is not None and view.doc.path.endswith("b.pdf")
    page = view.pages_layout.pages[0]
    dpr = view.viewport().devicePixelRatioF()
    small = interim_key(view.doc, page, dpr)
    assert small.scale == round(render_scale(page, dpr) / INTERIM_DIVISOR, 6)
    assert renderer.is_pending(small)  # asked for …
    full = {k for k in view.visible_keys()}
    dispatched = [k for k, side in renderer._in_flight.values() if side is None]
    assert dispatched and dispatched[0] == small  # … before any full tile
    qtbot.waitUntil(lambda: small in renderer.cache, timeout=20000)
    # Painted alone, the small picture shows the page: dark where PyMuPDF has text.
    source = SimpleNamespace(cache=RenderCache(), errors={})
    source.cache.put(renderer.cache.get(small))
    image = QImage(int(page.width) + 4, int(page.height) + 4, QImage.Format.Format_RGB32)
    image.fill(QColor("#8A8F96"))
    painter = QPainter(image)
    target = QRectF(0, 0, page.width, page.height)
    absent = paint_page_image(painter, source, view.doc, page, QPointF(-page.x, -page.y), 1.0,
                              target, target)
    painter.end()
    assert absent and set(absent) <= full | set(absent)  # the full image is still to come
    with pymupdf.open(tmp_path / "b.pdf") as doc:
        words = doc[0].get_text("words")
    line = [w for w in words if w[6] == words[10][6] and w[5] == words[10][5]]
    box = QRectF(line[0][0] * page.zoom, line[0][1] * page.zoom,
                 (line[-1][2] - line[0][0]) * page.zoom, (line[0][3] - line[0][1]) * page.zoom)
    margin = QRectF(2, page.height - 30 * page.zoom, page.width - 4, 20 * page.zoom)
    assert dark_share(image, box) > 0.05  # text where the text is …
    assert dark_share(image, margin) == 0  # … and paper, not grey desk or black, elsewhere
    qtbot.waitUntil(window.is_settled, timeout=20000)


def test_switching_back_paints_the_last_pictures_at_once(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    window = make_window((1000, 760))
    window.open_path(two_documents(tmp_path))
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    window.show_document("b")
    qtbot.waitUntil(window.is_settled, timeout=20000)
    window.show_document("a")
    view = window.view
    view.viewport().repaint()  # before any event is handled: no tile of a is rendered
    assert not view.is_settled()
    grab = view.viewport().grab().toImage()
    page = view.pages_layout.pages[0]
    painted = view.painted_pages[0]
    with pymupdf.open(tmp_path / "a.pdf") as doc:
        words = doc[0].get_text("words")
    x0, y0, x1, y1 = words[12][:4]
    dpr = grab.devicePixelRatioF()
    box = QRectF((painted.x() + x0 * page.zoom) * dpr, (painted.y() + y0 * page.zoom) * dpr,
                 (x1 - x0) * page.zoom * dpr, (y1 - y0) * page.zoom * dpr)
    assert dark_share(grab, box) > 0.05  # the word, from a's last pictures, scaled
    qtbot.waitUntil(window.is_settled, timeout=20000)


def test_the_other_documents_pictures_are_made_while_idle(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    """Before b is ever shown, a picture of its first page is made once the view is idle,
    so the first switch to it paints the page at once."""
    window = make_window((1000, 760))
    window.open_path(two_documents(tmp_path))
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    renderer = window.view.renderer
    b = str(tmp_path / "b.pdf")
    qtbot.waitUntil(lambda: any(t.key.doc.path == b and t.key.page == 0
                                for t in renderer.interim.tiles()), timeout=20000)
    window.show_document("b")
    view = window.view
    view.viewport().repaint()  # before any event is handled: b's page is not rendered
    assert not view.is_settled()
    grab = view.viewport().grab().toImage()
    page = view.pages_layout.pages[0]
    painted = view.painted_pages[0]
    with pymupdf.open(tmp_path / "b.pdf") as doc:
        x0, y0, x1, y1 = doc[0].get_text("words")[0][:4]  # "Page" of its heading
    dpr = grab.devicePixelRatioF()
    box = QRectF((painted.x() + x0 * page.zoom) * dpr, (painted.y() + y0 * page.zoom) * dpr,
                 (x1 - x0) * page.zoom * dpr, (y1 - y0) * page.zoom * dpr)
    assert dark_share(grab, box) > 0.05
    qtbot.waitUntil(window.is_settled, timeout=20000)
