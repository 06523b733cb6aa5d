"""Test helpers: generated PDFs and citations files, and geometry computed with PyMuPDF
alone (never with the viewer's own transform), to check what the viewer painted."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pymupdf
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from matcher.citations import parse_citations
from matcher.report import CheckReport, ClaimResult, EvidenceResult
from matcher.vocabulary import Rect
from viewer.checker.citations import citations_record
from viewer.state.records import Citations, Report

WORDS = ("policy insured premium coverage limit deductible claim loss property dwelling "
         "liability rider benefit schedule warranty exclusion endorsement applicant agent "
         "signature statement declare answers complete recorded knowledge belief company "
         "officer writing modify waive requirement notice practices guide accompany").split()


def paragraph_lines(seed: int, count: int, words_per_line: int = 9) -> list[str]:
    """Deterministic lines of plausible words; each line's words are a different mix."""
    rng = random.Random(seed)
    return [f"{i + 1}. " + " ".join(rng.sample(WORDS, words_per_line)) for i in range(count)]


def text_pdf(path: Path, *, pages: int = 3, rotation: int = 0,
             cropbox: Rect | None = None, size: tuple[float, float] = (612, 792)) -> Path:
    """A text PDF: 40 numbered lines per page; optional /Rotate and CropBox (in PDF
    MediaBox coordinates, y up)."""
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page(width=size[0], height=size[1])
        page.insert_text((72, 60), f"Page {n + 1} heading", fontsize=16, fontname="helv")
        for i, line in enumerate(paragraph_lines(n, 40)):
            page.insert_text((72, 90 + i * 16), line, fontsize=10, fontname="helv")
        if cropbox is not None:
            page.set_cropbox(pymupdf.Rect(cropbox))
        if rotation:
            page.set_rotation(rotation)
    doc.save(path)
    doc.close()
    return path


def line_rects(pdf: Path, page: int, first: int, count: int) -> list[Rect]:
    """Bounding boxes (words space) of ``count`` text lines starting at line ``first``."""
    with pymupdf.open(pdf) as doc:
        words = doc[page].get_text("words")
    lines: dict[tuple[int, int], list[Sequence[float]]] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w)
    boxes = [(min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws),
              max(w[3] for w in ws)) for ws in lines.values()]
    boxes.sort(key=lambda b: (b[1], b[0]))
    return boxes[first:first + count]


def expected_device_rects(pdf: Path, page: int, rects: Iterable[Rect], zoom: float,
                          dpr: float, origin: tuple[float, float]) -> list[QRectF]:
    """Where PyMuPDF itself says these words are in an image rendered at ``zoom × dpr``,
    shifted to ``origin`` (the page image's top-left, device pixels)."""
    with pymupdf.open(pdf) as doc:
        matrix = doc[page].rotation_matrix * pymupdf.Matrix(zoom * dpr, zoom * dpr)
    out = []
    for r in rects:
        m = pymupdf.Rect(r) * matrix
        out.append(QRectF(origin[0] + m.x0, origin[1] + m.y0, m.width, m.height))
    return out


def render_page(pdf: Path, page: int, scale: float) -> QImage:
    """The page as PyMuPDF renders it at ``scale`` pixels per point (RGB32)."""
    with pymupdf.open(pdf) as doc:
        pix = doc[page].get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
        image = QImage(pix.samples, pix.width, pix.height, pix.stride,
                       QImage.Format.Format_RGB888)
        return image.convertToFormat(QImage.Format.Format_RGB32)


def _pattern(color: QColor) -> bytes:
    # Format_RGB32 in memory on little-endian machines: B, G, R, 0xFF.
    return bytes((color.blue(), color.green(), color.red(), 0xFF))


def count_color(image: QImage, color: QColor, rect: QRect | None = None) -> int:
    """Pixels of exactly ``color`` in ``image`` (or in ``rect`` of it)."""
    img = image.convertToFormat(QImage.Format.Format_RGB32)
    if rect is not None:
        img = img.copy(rect)
    data = bytes(img.constBits())[: img.sizeInBytes()]
    pattern = _pattern(color)
    count, pos = 0, data.find(pattern)
    while pos >= 0:
        if pos % 4 == 0:
            count += 1
        pos = data.find(pattern, pos + 1)
    return count


def color_outside(image: QImage, color: QColor, allowed: Iterable[QRectF],
                  margin: float = 1.5) -> int:
    """Pixels of ``color`` outside every ``allowed`` rect grown by ``margin`` pixels."""
    img = image.convertToFormat(QImage.Format.Format_RGB32)
    painter = QPainter(img)
    for r in allowed:
        painter.fillRect(r.adjusted(-margin, -margin, margin, margin), QColor("#000000"))
    painter.end()
    return count_color(img, color)


def pixel_match(grab: QImage, reference: QImage, at: tuple[int, int], *,
                skip: Iterable[QRectF] = (), within: QRectF | None = None,
                samples: int = 12000, tolerance: int = 6) -> tuple[int, int]:
    """Compare ``reference`` (a whole page image) with ``grab`` where the page was painted
    at device pixel ``at``, on a grid over their overlap (inside ``within``, the page
    view's area, if given), skipping highlighted areas. Returns (matching, compared)."""
    skip = [r.adjusted(-2, -2, 2, 2) for r in skip]
    g = grab.convertToFormat(QImage.Format.Format_RGB32)
    area = QRectF(g.rect()) if within is None else within.intersected(QRectF(g.rect()))
    ox, oy = at
    x0, y0 = max(0, int(area.left()) - ox), max(0, int(area.top()) - oy)
    x1 = min(reference.width(), int(area.right()) - ox)
    y1 = min(reference.height(), int(area.bottom()) - oy)
    if x1 <= x0 or y1 <= y0:
        return 0, 0
    step = max(1, int(((x1 - x0) * (y1 - y0) / samples) ** 0.5))
    same = total = 0
    for y in range(y0, y1, step):
        for x in range(x0, x1, step):
            gx, gy = ox + x, oy + y
            if any(r.contains(gx, gy) for r in skip):
                continue
            a, b = g.pixel(gx, gy), reference.pixel(x, y)
            total += 1
            if max(abs(((a >> s) & 255) - ((b >> s) & 255)) for s in (0, 8, 16)) <= tolerance:
                same += 1
    return same, total


def evidence(status: str, *, page: int | None = None, rects: Sequence[Rect] = (),
             index: int = 0, quote: str = "a quote", document: str = "policy",
             document_path: str | None = None, reason: str = "because") -> EvidenceResult:
    placed = status in ("located", "review")
    return EvidenceResult(index=index, status=status, reason=reason,  # type: ignore[arg-type]
                          document=document, document_path=document_path,
                          page=page if placed else None, rects=list(rects) if placed else [],
                          score=97.0 if placed else 30.0, quote=quote,
                          found_text="found words" if placed else None)


def report(*claims: ClaimResult) -> Report:
    """The window's record of a report with these claims, read from its JSON contract."""
    return Report.from_json(CheckReport.build(list(claims)).model_dump(mode="json"))


def citations(data: dict[str, object], path: Path) -> Citations:
    """The window's record of a citations file ``path`` holding ``data``, made as the
    check process makes it."""
    return citations_record(parse_citations(data), path)


def write_citations(path: Path, pdf_name: str, claims: list[dict[str, object]]) -> Path:
    """A version-1 citations file naming one document ``policy`` at ``pdf_name``."""
    data = {"version": 1, "documents": [{"id": "policy", "path": pdf_name}],
            "claims": claims}
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def open_and_check(qtbot: Any, window: Any, path: Path) -> None:
    """Open ``path`` in ``window`` and wait until it is checked and every page in view is
    painted (``qtbot`` and ``window``: pytest-qt's and a MainWindow)."""
    window.open_path(path)
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)


def lines_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A PDF with these lines on its pages, one page per list (the same lines on two pages
    make a quote that fits both equally well)."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((72, 90 + i * 16), line, fontsize=10, fontname="helv")
    doc.save(path)
    doc.close()
    return path


def two_item_window(qtbot: Any, make_window: Any, folder: Path, *, pages: int) -> Any:
    """A 1000x750 window checked on a ``pages``-page PDF whose claim ``two`` cites a line of
    page 2 and one of page 4, with that claim selected."""
    text_pdf(folder / "policy.pdf", pages=pages)
    cite = write_citations(folder / "c.cite", "policy.pdf", [
        {"id": "two", "text": "t", "evidence": [
            {"page": 2, "quote": paragraph_lines(1, 40)[10]},
            {"page": 4, "quote": paragraph_lines(3, 40)[20]}]}])
    window = make_window((1000, 750))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.selected == "two" and window.is_settled(),
                    timeout=30000)
    return window
