"""``citeview FILE --screenshot PNG`` in a fresh process, at QT_SCALE_FACTOR 1 and 2.

The PNG is checked against PyMuPDF alone: the page pixels are PyMuPDF's rendering at
zoom × dpr where the viewer says it painted the page, every highlight rectangle equals the
matcher's word boxes mapped by ``rotation_matrix × zoom × dpr`` within one device pixel, and
the highlight colour appears over those words and nowhere else in the whole window.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QRectF
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from matcher.check import check_citations
from matcher.citations import load_citations
from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.window.shell import MainWindow

from .helpers import (
    color_outside,
    count_color,
    paragraph_lines,
    pixel_match,
    render_page,
    text_pdf,
    write_citations,
)

REPO = Path(__file__).resolve().parents[2]


def run_viewer(tmp_path: Path, *args: str, scale: int = 1) -> tuple[int, str]:
    proc = viewer_process(tmp_path, *args, scale=scale)
    return proc.returncode, proc.stderr


def viewer_process(tmp_path: Path, *args: str, scale: int = 1
                   ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR=str(scale),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "viewer.app", *args], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def rotated_cite(tmp_path: Path, rotation: int) -> Path:
    text_pdf(tmp_path / "policy.pdf", pages=3, rotation=rotation)
    lines = paragraph_lines(1, 40)
    return write_citations(tmp_path / "claims.cite", "policy.pdf", [
        {"id": "two-lines", "text": "t", "evidence": [
            {"document": "policy", "page": 2, "quote": f"{lines[8]} {lines[9]}"}]},
        {"id": "invented", "text": "t", "evidence": [
            {"document": "policy", "quote": "a purple submarine moored in Lake Geneva"}]}])


def check_shot(cite: Path, claim: str, png: Path, geometry: Path, scale: int,
               size: tuple[int, int]) -> None:
    image = QImage(str(png))
    assert (image.width(), image.height()) == (size[0] * scale, size[1] * scale)
    geo = json.loads(geometry.read_text())
    assert geo["dpr"] == scale and geo["claim"] == claim
    dpr, zoom = geo["dpr"], geo["zoom"]
    pdf = Path(geo["document"])
    report = check_citations(load_citations(cite), cite)
    result = next(c for c in report.claims if c.id == claim)
    pages = {p["index"]: p["rect"] for p in geo["pages"]}
    expected: list[QRectF] = []
    with pymupdf.open(pdf) as doc:
        for ev in result.evidence:
            if ev.page is None or ev.page - 1 not in pages:
                continue
            x, y, _, _ = pages[ev.page - 1]
            m = doc[ev.page - 1].rotation_matrix * pymupdf.Matrix(zoom * dpr, zoom * dpr)
            for r in ev.rects:
                q = pymupdf.Rect(r) * m
                expected.append(QRectF(x + q.x0, y + q.y0, q.width, q.height))
    painted = [QRectF(*h["rect"]) for h in geo["highlights"]]
    assert len(painted) == len(expected)
    for g, e in zip(painted, expected, strict=True):
        for a, b in ((g.left(), e.left()), (g.top(), e.top()), (g.right(), e.right()),
                     (g.bottom(), e.bottom())):
            assert abs(a - b) <= 1.0, f"painted {g} vs PyMuPDF {e}"
    viewport = QRectF(*geo["viewport"])
    for index, (x, y, _, _) in pages.items():
        assert abs(x - round(x)) < 1e-6 and abs(y - round(y)) < 1e-6, "page off the pixel grid"
        same, total = pixel_match(image, render_page(pdf, index, zoom * dpr),
                                  (round(x), round(y)), skip=expected, within=viewport)
        if total:
            assert same / total > 0.995, f"page {index + 1}: {same}/{total} pixels match"
    color = QColor(geo["highlight_color"])
    assert color_outside(image, color, expected) == 0
    if result.status == "located":
        assert expected
        for e in expected:
            assert count_color(image, color, e.adjusted(1, 1, -1, -1).toAlignedRect()) > 0
    else:
        assert count_color(image, color) == 0


@pytest.mark.parametrize("scale", [1, 2])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_screenshot_of_a_highlight(tmp_path: Path, scale: int, rotation: int) -> None:
    cite = rotated_cite(tmp_path, rotation)
    png, geometry = tmp_path / "shot.png", tmp_path / "shot.json"
    code, err = run_viewer(tmp_path, str(cite), "--claim", "two-lines", "--size", "900x650",
                           "--screenshot", str(png), "--geometry-json", str(geometry),
                           scale=scale)
    assert code == 0, err
    check_shot(cite, "two-lines", png, geometry, scale, (900, 650))


@pytest.mark.parametrize("scale", [1, 2])
def test_screenshot_of_the_demo(tmp_path: Path, scale: int) -> None:
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    png, geometry = tmp_path / "demo.png", tmp_path / "demo.json"
    code, err = run_viewer(tmp_path, "--demo", "--claim", "c3", "--size", "1280x800",
                           "--zoom", "150", "--screenshot", str(png), "--geometry-json",
                           str(geometry), scale=scale)
    assert code == 0, err
    check_shot(demo_path(), "c3", png, geometry, scale, (1280, 800))


def test_the_demo_reopened_from_its_kept_report_is_the_same_picture(tmp_path: Path) -> None:
    """The second start finds the report the first kept (viewer.checker.stored) and paints
    exactly what the first painted after checking."""
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    shots = []
    for run in ("first", "reopened"):
        png, geometry = tmp_path / f"{run}.png", tmp_path / f"{run}.json"
        code, err = run_viewer(tmp_path, "--demo", "--claim", "c3", "--size", "1000x700",
                               "--screenshot", str(png), "--geometry-json", str(geometry))
        assert code == 0, err
        assert any(Path(os.environ["CITEVIEW_REPORT_STORE"]).rglob("*.report"))
        shots.append((png.read_bytes(), json.loads(geometry.read_text())))
    assert shots[0] == shots[1]
    check_shot(demo_path(), "c3", tmp_path / "reopened.png", tmp_path / "reopened.json", 1,
               (1000, 700))


def test_screenshot_of_not_located_has_no_highlight(tmp_path: Path) -> None:
    cite = rotated_cite(tmp_path, 0)
    png, geometry = tmp_path / "shot.png", tmp_path / "shot.json"
    code, err = run_viewer(tmp_path, str(cite), "--claim", "invented", "--size", "800x600",
                           "--screenshot", str(png), "--geometry-json", str(geometry), scale=2)
    assert code == 0, err
    check_shot(cite, "invented", png, geometry, 2, (800, 600))
    assert json.loads(geometry.read_text())["highlights"] == []


def test_screenshot_of_a_bare_pdf_at_a_page_and_zoom(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "plain.pdf", pages=6, rotation=90)
    png, geometry = tmp_path / "p.png", tmp_path / "p.json"
    code, err = run_viewer(tmp_path, str(pdf), "--page", "4", "--zoom", "75", "--screenshot",
                           str(png), "--geometry-json", str(geometry))
    assert code == 0, err
    geo = json.loads(geometry.read_text())
    assert geo["zoom"] == 0.75 and 3 in {p["index"] for p in geo["pages"]}
    image = QImage(str(png))
    for page in geo["pages"]:
        x, y, _, _ = page["rect"]
        same, total = pixel_match(image, render_page(pdf, page["index"], 0.75),
                                  (round(x), round(y)), within=QRectF(*geo["viewport"]))
        assert total == 0 or same / total > 0.995
    assert count_color(image, QColor(DEFAULT_HIGHLIGHT)) == 0


def test_mupdfs_complaints_stay_off_the_terminal(tmp_path: Path, corpus: Path) -> None:
    # Page 3 draws glyphs from images over MuPDF's size limit: MuPDF skips those and
    # renders the rest, and PyMuPDF by default prints "MuPDF error: limit error: …" for
    # each, dozens of lines in the terminal the viewer was started from.
    pdf = corpus / "text_acta_acustica_cropbox.pdf"
    proc = viewer_process(tmp_path, str(pdf), "--page", "3", "--screenshot",
                          str(tmp_path / "p3.png"))
    assert proc.returncode == 0, proc.stderr
    assert "MuPDF" not in proc.stdout + proc.stderr


def test_unreadable_file_still_shoots_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cite"
    bad.write_text("{not json")
    png = tmp_path / "bad.png"
    code, err = run_viewer(tmp_path, str(bad), "--screenshot", str(png))
    assert code == 2
    assert png.is_file()
    assert "Traceback" not in err


def test_bad_options_exit_2(tmp_path: Path) -> None:
    for args in (["--size", "huge"], ["--highlight-color", "yellow"], ["--zoom", "9000"]):
        code, err = run_viewer(tmp_path, *args)
        assert code == 2 and "error:" in err and "Traceback" not in err


def test_the_png_holds_the_grab_pixel_for_pixel(qapp: object, tmp_path: Path) -> None:
    """The screenshot's fast PNG compression loses nothing: a rendered page with a
    highlight-coloured band and a translucent edge decodes to the very same pixels."""
    from PySide6.QtGui import QPainter, QPixmap

    from viewer.window.screenshot import png_bytes

    page = render_page(text_pdf(tmp_path / "p.pdf", pages=1), 0, 1.5)
    pixmap = QPixmap.fromImage(page)
    painter = QPainter(pixmap)
    painter.fillRect(40, 60, 300, 18, QColor(255, 220, 0, 120))
    painter.end()
    png = png_bytes(pixmap)
    assert png is not None and png.startswith(b"\x89PNG")
    fmt = QImage.Format.Format_ARGB32
    assert QImage.fromData(png).convertToFormat(fmt) == pixmap.toImage().convertToFormat(fmt)


_png_cases: Counter[str] = Counter()


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 37), height=st.integers(1, 23), channels=st.sampled_from([3, 4]),
       padding=st.integers(0, 9), seed=st.integers(0, 2**32 - 1))
def test_encode_png_decodes_to_its_pixels_in_two_decoders(width: int, height: int,
                                                          channels: int, padding: int,
                                                          seed: int) -> None:
    """Any picture, rows padded or not, decodes to exactly its pixels in Qt's PNG reader
    (libpng) and in MuPDF's (its own, which premultiplies the colour by the alpha as it
    reads), alpha included."""
    import random

    from viewer.window.screenshot import encode_png

    stride = width * channels + padding
    rnd = random.Random(seed)
    pixels = bytes(rnd.getrandbits(8) for _ in range(stride * height))
    rows = [pixels[y * stride:y * stride + width * channels] for y in range(height)]
    png = encode_png(pixels, width, height, stride, channels)

    image = QImage.fromData(png)
    assert (image.width(), image.height()) == (width, height)
    assert image.hasAlphaChannel() == (channels == 4)
    image = image.convertToFormat(QImage.Format.Format_RGBA8888 if channels == 4
                                  else QImage.Format.Format_RGB888)
    bits = bytes(image.constBits())
    qt_rows = [bits[y * image.bytesPerLine():y * image.bytesPerLine() + width * channels]
               for y in range(height)]
    assert qt_rows == rows

    pix = pymupdf.Pixmap(png)
    assert (pix.width, pix.height, pix.n, pix.alpha) == (width, height, channels,
                                                         int(channels == 4))
    samples = pix.samples
    if channels == 4:  # what MuPDF keeps: colour premultiplied, its fz_mul255 rounding
        def mul255(c: int, a: int) -> int:
            x = c * a + 128
            return (x + (x >> 8)) >> 8

        rows = [bytes(mul255(r[i], r[i - i % 4 + 3]) if i % 4 < 3 else r[i]
                      for i in range(len(r))) for r in rows]
    mu_rows = [samples[y * pix.stride:y * pix.stride + width * channels]
               for y in range(height)]
    assert mu_rows == rows
    _png_cases["alpha" if channels == 4 else "opaque"] += 1
    _png_cases["padded" if padding else "tight"] += 1


def test_encode_png_cases_were_reached() -> None:
    if not _png_cases:
        pytest.skip("run with the property test above")
    assert all(_png_cases[k] for k in ("alpha", "opaque", "padded", "tight")), _png_cases


def test_encode_png_refuses_what_is_no_picture() -> None:
    from viewer.window.screenshot import encode_png

    for args in ((b"\0" * 6, 2, 1, 6, 2), (b"\0" * 6, 0, 1, 6, 3), (b"\0" * 6, 2, 1, 5, 3),
                 (b"\0" * 11, 2, 2, 6, 3)):
        with pytest.raises(ValueError):
            encode_png(*args)
    assert encode_png(b"\0" * 12, 2, 2, 6, 3).startswith(b"\x89PNG")


def test_the_window_picture_is_what_painting_it_again_gives(
        qtbot: QtBot, make_window: Callable[..., MainWindow], tmp_path: Path) -> None:
    """A screenshot takes the window's backing store as the picture, not a second painting
    of the window: the two are the same pixels, also just after a change the window has
    not painted yet (it is painted first); a window never shown is painted for it."""
    from PySide6.QtWidgets import QLabel

    from viewer.window.screenshot import window_picture

    from .review_helpers import demo_window

    _, window = demo_window(qtbot, make_window, tmp_path, size=(1100, 720))
    fmt = QImage.Format.Format_RGB32
    for change in (lambda: None, lambda: window.session.select("c3"),
                   lambda: window.resize(900, 640), lambda: window.step_claim(1)):
        change()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        picture = window_picture(window)
        assert picture.size() == window.size() * window.devicePixelRatio()
        assert picture.convertToFormat(fmt) == window.grab().toImage().convertToFormat(fmt)
    label = QLabel("never shown")
    label.resize(120, 30)
    assert window_picture(label).size() == label.grab().size()
