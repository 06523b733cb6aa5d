"""Write realistic PDFs for tests and evaluation, each with the truth of where things landed.

* :func:`insurance_application` – the demo insurer's form (see :mod:`scripts.demo_gen.application`
  for what it contains and for :class:`ApplicationTruth`).
* :func:`two_column_article` – two pages of policy wording set in two columns.
* :func:`rotated_copy`, :func:`cropbox_copy`, :func:`image_only_copy` – the same pages with a
  /Rotate, with a CropBox inside the MediaBox, or as bare page images (no text layer).
* :func:`upright_table` – a table on a page with a /Rotate, set to read upright as shown,
  its cells written column by column (the order that misleads a reader of the raw text).

Truth boxes are PDF points in ``page.get_text("words")`` space (unrotated page, origin at the
top-left of the CropBox), pages 0-based. All functions are deterministic for their arguments.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> path, truth = insurance_application(d / "app.pdf", seed=3)
>>> truth.signature("applicant").labels[0].text
'Signature of Applicant'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from scripts.demo_gen.application import ApplicationTruth, write_application
from scripts.demo_gen.typeset import (
    GREY,
    LETTER,
    NAVY,
    Canvas,
    Flow,
    Frame,
    Placed,
    PlacedLine,
    Rect,
    new_document,
    save_compact,
)
from tests import policy_wording as pw

ROTATIONS = (0, 90, 180, 270)
# One word as ``page.get_text("words")`` gives it: x0, y0, x1, y1, text, block, line, word.
RawWord = tuple[float, float, float, float, str, int, int, int]

# Two-column layout of the policy wording (Letter, points).
COLUMN_GAP = 18.0
MARGIN_X = 54.0
FIRST_PAGE_TOP = 118.0
PAGE_TOP = 58.0
PAGE_BOTTOM = 744.0
WORDING_SIZE = 9.4
WORDING_LEADING = 11.4


def insurance_application(
    path: Path | str, *, applicant: str | None = None, seed: int = 0, pages: int = 3
) -> tuple[Path, ApplicationTruth]:
    """Write a ``pages``-page insurance application (at least 3) and return it with its truth.

    ``applicant`` overrides the seeded name; it is the signature, printed name and initials.
    """
    truth = write_application(path, applicant=applicant, seed=seed, pages=pages)
    return truth.path, truth


def rotated_copy(src: Path | str, dst: Path | str, rotation: int) -> Path:
    """Copy ``src`` to ``dst`` with every page's /Rotate set to ``rotation`` (0/90/180/270).

    Words keep their coordinates: ``get_text("words")`` reports the unrotated page.
    """
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")
    with pymupdf.open(src) as doc:
        for page in doc:
            page.set_rotation(rotation)
        return _save_copy(doc, dst)


def cropbox_copy(src: Path | str, dst: Path | str, *, inset: tuple[float, float] = (36, 24)
                 ) -> Path:
    """Copy ``src`` with each page's CropBox inset by ``(dx, dy)`` points inside its MediaBox.

    Extraction measures from the CropBox's top-left, so every word of the copy sits at the
    source word's position minus ``(dx, dy)``; see :func:`shift_rect`.
    """
    dx, dy = inset
    with pymupdf.open(src) as doc:
        for page in doc:
            box = page.mediabox
            page.set_cropbox(pymupdf.Rect(box.x0 + dx, box.y0 + dy, box.x1 - dx, box.y1 - dy))
        return _save_copy(doc, dst)


def shift_rect(rect: Rect, inset: tuple[float, float]) -> Rect:
    """Where a source box lands in a :func:`cropbox_copy` made with ``inset``."""
    dx, dy = inset
    return (rect[0] - dx, rect[1] - dy, rect[2] - dx, rect[3] - dy)


def image_only_copy(src: Path | str, dst: Path | str, *, dpi: int = 200
                    ) -> tuple[Path, list[list[RawWord]]]:
    """Rebuild ``src`` as pages that are only a greyscale picture of each page: no text layer.

    Each new page has the size of the source page as displayed (after CropBox and rotation) and
    no /Rotate of its own. Returns the copy and, per page, the source's words moved into that
    displayed space: the boxes an OCR engine should find.
    """
    out = pymupdf.open()
    truth: list[list[RawWord]] = []
    with pymupdf.open(src) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            shown = page.rect  # the displayed size: CropBox, then rotation
            new = out.new_page(width=shown.width, height=shown.height)
            new.insert_image(new.rect, pixmap=pix)
            to_shown = page.rotation_matrix
            words = []
            for x0, y0, x1, y1, text, block, line, word in page.get_text("words"):
                r = pymupdf.Rect(x0, y0, x1, y1) * to_shown
                words.append((r.x0, r.y0, r.x1, r.y1, text, block, line, word))
            truth.append(words)
    out.set_metadata({"producer": "citeview tests.pdfgen", "creationDate": "D:20250101000000Z",
                      "modDate": "D:20250101000000Z"})
    return _save_copy(out, dst), truth


def upright_table(path: Path | str, *, rotation: int, rows: int = 6, cols: int = 4,
                  crop: tuple[float, float] | None = None) -> tuple[Path, list[list[str]]]:
    """A one-page landscape table turned by /Rotate ``rotation`` and set so that it reads
    upright as shown (its text runs the other way in words space), optionally inside a
    CropBox inset ``crop`` = (dx, dy) into the MediaBox. Each cell holds two words, and
    the cells are written down the columns, so the text layer's order is column by column.
    Returns the path and the table's rows as shown, each a list of its words."""
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")
    shown_w, shown_h = 720.0, 500.0  # the page as shown: landscape
    sideways = rotation in (90, 270)
    doc = pymupdf.open()
    page = doc.new_page(width=shown_h if sideways else shown_w,
                        height=shown_w if sideways else shown_h)
    if crop is not None:
        box = page.mediabox
        page.set_cropbox(pymupdf.Rect(box.x0 + crop[0], box.y0 + crop[1],
                                      box.x1 - crop[0], box.y1 - crop[1]))
    page.set_rotation(rotation)
    words = [[[f"R{r + 1}C{c + 1}", f"v{(r * 7 + c * 3) % 10}{r}{c}"] for c in range(cols)]
             for r in range(rows)]
    left, top = 80.0, 90.0
    cell_w, cell_h = (page.rect.width - 2 * left) / cols, 24.0
    for c in range(cols):
        for r in range(rows):
            shown = pymupdf.Point(left + c * cell_w, top + r * cell_h)
            page.insert_text(shown * page.derotation_matrix, " ".join(words[r][c]),
                             fontsize=11, rotate=rotation)
    doc.set_metadata({"producer": "citeview tests.pdfgen", "creationDate": "D:20250101000000Z",
                      "modDate": "D:20250101000000Z"})
    out = _save_copy(doc, path)
    doc.close()
    return out, [[w for cell in row for w in cell] for row in words]


def _save_copy(doc: pymupdf.Document, dst: Path | str) -> Path:
    out = Path(dst)
    doc.save(out, garbage=3, deflate=True, no_new_id=True)
    return out


@dataclass(frozen=True, slots=True)
class WordingParagraph:
    """One paragraph of the policy wording: its section, run-in heading and the lines as set."""

    section: str
    lead: str
    placed: Placed

    @property
    def text(self) -> str:
        """The paragraph read whole, run-in heading included, broken words rejoined."""
        return self.placed.text


@dataclass(frozen=True)
class ArticleTruth:
    """Where each paragraph of a :func:`two_column_article` was set."""

    path: Path
    page_count: int
    column_edges: tuple[tuple[float, float], tuple[float, float]]
    paragraphs: tuple[WordingParagraph, ...]

    def column(self, line: PlacedLine) -> int:
        """0 for a line of the left column, 1 for the right."""
        return 0 if line.rect[0] < self.column_edges[1][0] - COLUMN_GAP / 2 else 1

    def split_paragraphs(self) -> list[WordingParagraph]:
        """Paragraphs that continue in the next column or on the next page."""
        return [p for p in self.paragraphs
                if len({(ln.page, self.column(ln)) for ln in p.placed.lines}) > 1]


def two_column_article(path: Path | str, seed: int = 0) -> tuple[Path, ArticleTruth]:
    """Write two pages of homeowners policy wording (definitions, exclusions, conditions).

    Text runs down the left column, then the right, then onto page 2; paragraphs break across
    columns and pages mid-sentence, with words hyphenated at line ends and ﬁ/ﬂ ligatures.
    """
    rng = random.Random(seed)
    values = {key: rng.choice(options) for key, options in pw.VARIANTS.items()}
    edition = rng.choice(pw.EDITIONS)
    exclusions = list(pw.EXCLUSIONS)
    rng.shuffle(exclusions)

    out = Path(path)
    doc = new_document(title=pw.TITLE.title(), author=pw.COMPANY)
    width = (LETTER[0] - 2 * MARGIN_X - COLUMN_GAP) / 2
    edges = ((MARGIN_X, MARGIN_X + width), (MARGIN_X + width + COLUMN_GAP, LETTER[0] - MARGIN_X))
    form = pw.FORM.format(edition=edition)
    canvases: list[Canvas] = []
    flow = Flow(_column_frames(doc, canvases, edges, form))
    paragraphs: list[WordingParagraph] = []

    def para(section: str, lead: str, text: str) -> None:
        placed = flow.paragraph(text.format_map(values), size=WORDING_SIZE,
                                leading=WORDING_LEADING, lead=lead or None, lead_face="tibo",
                                ligatures=True, after=3.5, keep=1)
        paragraphs.append(WordingParagraph(section, lead, placed))

    def heading(title: str) -> None:
        flow.need(14 + 3 * WORDING_LEADING)
        flow.skip(4)
        c, (x0, _, x1, _) = flow.frame.canvas, flow.frame.rect
        c.rule(x0, flow.y, x1, width=0.8, color=NAVY)
        c.text(x0, flow.y + 10, title, face="hebo", size=9, color=NAVY)
        flow.skip(15)

    heading("AGREEMENT")
    para("Agreement", "", pw.AGREEMENT)
    heading("DEFINITIONS")
    for n, (term, text) in enumerate(pw.DEFINITIONS, start=1):
        para("Definitions", f"{n}. \u201c{term}\u201d", text)
    heading("EXCLUSIONS")
    para("Exclusions", "", pw.EXCLUSIONS_INTRO)
    for letter, (title, text) in zip("ABCDEFGHIJKLMN", exclusions, strict=False):
        para("Exclusions", f"{letter}. {title}", text)
    heading("CONDITIONS")
    for n, (title, text) in enumerate(pw.CONDITIONS, start=1):
        para("Conditions", f"{n}. {title}", text)

    for canvas in canvases:
        canvas.close()
    save_compact(doc, str(out))
    page_count = doc.page_count
    doc.close()
    return out, ArticleTruth(out, page_count, edges, tuple(paragraphs))


def _column_frames(
    doc: pymupdf.Document, canvases: list[Canvas],
    edges: tuple[tuple[float, float], tuple[float, float]], form: str,
) -> Iterator[Frame]:
    """Left then right column of page 1 (below the title), then of page 2; then no more.

    A page's canvas is closed before the next page is made: adding a page invalidates
    PyMuPDF's earlier page objects.
    """
    for number in range(2):
        if canvases:
            canvases[-1].close()
        page = doc.new_page(width=LETTER[0], height=LETTER[1])
        canvas = Canvas(page)
        canvases.append(canvas)
        top = FIRST_PAGE_TOP if number == 0 else PAGE_TOP
        _wording_page_furniture(canvas, form, first=number == 0)
        canvas.page.draw_line((LETTER[0] / 2, top), (LETTER[0] / 2, PAGE_BOTTOM),
                              color=GREY, width=0.3)
        for x0, x1 in edges:
            yield Frame(canvas, (x0, top, x1, PAGE_BOTTOM))


def _wording_page_furniture(canvas: Canvas, form: str, *, first: bool) -> None:
    right = LETTER[0] - MARGIN_X
    if first:
        canvas.text(MARGIN_X, 52, pw.COMPANY, face="hebo", size=10, color=NAVY)
        canvas.text(MARGIN_X, 76, pw.TITLE, face="hebo", size=16)
        canvas.text(MARGIN_X, 92, f"{form} \u00b7 Please read your policy carefully",
                    face="helv", size=8, color=GREY)
        canvas.rule(MARGIN_X, 102, right, width=1.6, color=NAVY)
    else:
        canvas.text(MARGIN_X, 38, f"{pw.COMPANY} \u2014 {pw.TITLE.title()}", face="helv",
                    size=7, color=GREY)
        canvas.rule(MARGIN_X, 43, right, width=0.8, color=NAVY)
    canvas.rule(MARGIN_X, 752, right, width=0.4)
    canvas.text(MARGIN_X, 764, form, face="helv", size=7, color=GREY)
    canvas.text(right, 764, f"Page {canvas.index + 1} of 2", face="helv", size=7, color=GREY,
                align="right")
