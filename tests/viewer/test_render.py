"""The renderer: tiles equal PyMuPDF's own pixels; stale work is dropped; the cache keeps
to its budget; errors are reported, not raised."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from viewer.checker.inspection import page_info
from viewer.render.page import Page
from viewer.render.renderer import Renderer
from viewer.render.tiles import DocRef, RenderCache, RenderKey, Tile, page_keys

from .helpers import render_page, text_pdf


@pytest.fixture
def renderer() -> object:
    r = Renderer()
    yield r
    r.close()


def test_tiles_are_pymupdfs_pixels(qtbot: QtBot, tmp_path: Path, renderer: Renderer) -> None:
    pdf = text_pdf(tmp_path / "a.pdf", pages=1, rotation=90)
    import pymupdf

    with pymupdf.open(pdf) as doc:
        page = Page(page_info(doc[0]), zoom=3.0)
    doc_ref = DocRef(str(pdf))
    keys = page_keys(doc_ref, page, 1.0)
    assert len(keys) > 1  # 3 × 792 pt is more than one tile
    with qtbot.waitSignals([renderer.rendered] * len(keys), timeout=20000):
        renderer.want(keys)
    whole = render_page(pdf, 0, 3.0)
    for key in keys:
        tile = renderer.cache.get(key)
        assert tile is not None
        assert (tile.x, tile.y) == key.tile[:2]
        part = whole.copy(tile.x, tile.y, tile.image.width(), tile.image.height())
        assert part == tile.image.convertToFormat(QImage.Format.Format_RGB32)


def test_want_replaces_the_queue(qtbot: QtBot, tmp_path: Path, renderer: Renderer) -> None:
    pdf = text_pdf(tmp_path / "a.pdf", pages=20)
    import pymupdf

    with pymupdf.open(pdf) as doc:
        pages = [Page(page_info(p), zoom=1.0) for p in doc]
    ref = DocRef(str(pdf))
    renderer.want(k for p in pages for k in page_keys(ref, p, 1.0))
    last = page_keys(ref, pages[19], 1.0)
    with qtbot.waitSignal(renderer.rendered, timeout=20000,
                          check_params_cb=lambda key: key == last[0]):
        renderer.want(last)  # scrolled to the end: the middle pages are not wanted now
    qtbot.waitUntil(renderer.is_idle, timeout=20000)
    rendered = {k.page for k in renderer.cache._tiles}
    assert 19 in rendered
    assert len(rendered) <= 4  # at most what was already sent to the worker, plus page 19


def test_a_bad_page_is_an_error_not_a_crash(qtbot: QtBot, tmp_path: Path,
                                            renderer: Renderer) -> None:
    key = RenderKey(DocRef(str(tmp_path / "missing.pdf")), 0, 1.0, (0, 0, 10, 10))
    with qtbot.waitSignal(renderer.failed, timeout=20000):
        renderer.want([key])
    assert key in renderer.errors
    renderer.want([key])  # not asked again
    assert renderer.is_idle()


def test_asked_to_leave_the_worker_goes_at_once_and_nothing_more_is_rendered(
        qtbot: QtBot, tmp_path: Path, renderer: Renderer) -> None:
    """What a closing window does first, so the render process exits while the check
    process is being stopped; close() afterwards finds it gone."""
    import psutil
    import pymupdf

    pdf = text_pdf(tmp_path / "a.pdf", pages=2)
    with pymupdf.open(pdf) as doc:
        pages = [Page(page_info(p), zoom=1.0) for p in doc]
    ref = DocRef(str(pdf))
    with qtbot.waitSignal(renderer.rendered, timeout=20000):
        renderer.want(page_keys(ref, pages[0], 1.0))
    pid = renderer.worker_pid
    assert pid is not None
    worker = psutil.Process(pid)
    renderer.ask_to_leave()

    def gone() -> bool:  # exited (a zombie until close() joins it), without close()
        try:
            return worker.status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    qtbot.waitUntil(gone, timeout=10000)
    renderer.want(page_keys(ref, pages[1], 1.0))
    assert renderer.cache.get(page_keys(ref, pages[1], 1.0)[0]) is None
    renderer.close()
    assert renderer.worker_pid is None


def test_cache_budget_and_lru() -> None:
    img = QImage(100, 100, QImage.Format.Format_RGB32)  # 40 000 bytes
    cache = RenderCache(budget_bytes=100_000)
    ref = DocRef("x.pdf")
    keys = [RenderKey(ref, i, 1.0, (0, 0, 100, 100)) for i in range(4)]
    for k in keys[:2]:
        cache.put(Tile(k, img, 0, 0))
    assert cache.get(keys[0]) is not None  # now most recently used
    cache.put(Tile(keys[2], img, 0, 0))
    assert cache.nbytes <= 100_000
    assert keys[1] not in cache and keys[0] in cache and keys[2] in cache
    other = RenderKey(ref, 0, 2.0, (0, 0, 100, 100))
    cache.get(keys[0])
    cache.put(Tile(other, img, 0, 0))
    assert keys[2] not in cache
    assert [t.key for t in cache.others(ref, 0, 2.0)] == [keys[0]]
    cache.clear()
    assert len(cache) == 0 and cache.nbytes == 0
