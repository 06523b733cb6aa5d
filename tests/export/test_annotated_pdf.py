"""The annotated copy, read by a second engine: poppler draws the highlight colour over
the quoted words and nowhere else (rotated and CropBox pages too), PyMuPDF reads back
one quad per line rectangle, and the original's pages, text and annotations are kept."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from matcher.vocabulary import PLACED
from tests.simplepdf import write_pdf
from viewer.export.annotate import HIGHLIGHT_COLORS, NAME_PREFIX, NOTE_COLOR, rgb
from viewer.export.run import export
from viewer.state.exports import ExportTargets

from . import poppler
from .helpers import REVIEWER, checked, decide, evidence, page_lines, write_cite

LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss.",
         "Water damage from a continuous leak over fourteen days is excluded.",
         "Mould, fungus and wet rot are covered up to five thousand dollars.",
         "Claims must be reported within thirty days of the date of loss."]


def generated(path: Path, *, rotation: int = 0, cropbox: pymupdf.Rect | None = None) -> Path:
    """Two pages of the lines above; optional /Rotate and CropBox on both."""
    pages = [[(ln, 72, 120 + 40 * i) for i, ln in enumerate(LINES)],
             [(ln, 90, 300 + 30 * i) for i, ln in enumerate(reversed(LINES))]]
    write_pdf(path, pages, fontsize=12, rotation=rotation)
    if cropbox is not None:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.set_cropbox(cropbox)
            doc.saveIncr()
    return path


def annotated(tmp: Path, pdf: Path, quotes: Sequence[tuple[int, str]],
              placements: dict[str, dict[str, Any]] | None = None
              ) -> tuple[Path, dict[str, Any]]:
    """Check ``quotes`` ((0-based page, quote) each) on ``pdf``, export the annotated
    copy (decisions optional); returns it and the report."""
    cite = write_cite(tmp / "answer.cite", {"doc": pdf},
                      [(f"c{i}", "doc", page + 1, q) for i, (page, q) in enumerate(quotes)])
    report, citations = checked(cite)
    if placements is not None:
        report = decide(report, placements)
    out = tmp / "annotated.pdf"
    done = export(report, citations_path=cite, citations=citations, targets=ExportTargets(pdf=out))
    assert done.written == (out,)
    return out, report


def changed_pixels(before: poppler.Picture, after: poppler.Picture
                   ) -> list[tuple[int, int]]:
    assert (before.width, before.height) == (after.width, after.height)
    out = []
    step = 3
    for i in range(0, len(before.rgb), step):
        a, b = before.rgb[i:i + 3], after.rgb[i:i + 3]
        if max(abs(x - y) for x, y in zip(a, b, strict=True)) > 24:
            p = i // 3
            out.append((p % before.width, p // before.width))
    return out


def shown_boxes(pdf: Path, page: int, rects: Sequence[Sequence[float]]) -> list[pymupdf.IRect]:
    """Words-space rectangles as poppler's pixels, computed with PyMuPDF alone."""
    scale = poppler.DPI / 72
    with pymupdf.open(pdf) as doc:
        m = doc[page].rotation_matrix
        return [(pymupdf.Rect(r) * m * pymupdf.Matrix(scale, scale)).irect for r in rects]


def word_boxes(pdf: Path, page: int, rects: Sequence[Sequence[float]]) -> list[tuple[float, ...]]:
    """The page's own word boxes whose centre lies in ``rects``."""
    with pymupdf.open(pdf) as doc:
        words = doc[page].get_text("words")
    out = []
    for w in words:
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        if any(r[0] - 1 <= cx <= r[2] + 1 and r[1] - 1 <= cy <= r[3] + 1 for r in rects):
            out.append(tuple(w[:4]))
    return out


def assert_highlight_only_over(tmp: Path, original: Path, out: Path, page: int,
                               rects: Sequence[Sequence[float]], color: str) -> None:
    """Poppler finds ``color`` over the quoted words' boxes and no change elsewhere
    (beyond the rounded ends MuPDF gives a highlight: a third of a line's height)."""
    before = poppler.render(original, page, tmp / "before.ppm")
    after = poppler.render(out, page, tmp / "after.ppm")
    allowed = []
    for box in shown_boxes(original, page, rects):
        grow = int(0.35 * min(box.width, box.height)) + 2
        allowed.append(pymupdf.IRect(box.x0 - grow, box.y0 - grow, box.x1 + grow,
                                     box.y1 + grow))
    changed = changed_pixels(before, after)
    stray = [p for p in changed if not any(a.contains(pymupdf.Point(p)) for a in allowed)]
    assert changed and not stray, f"{len(stray)} of {len(changed)} changed pixels stray"
    want = tuple(round(c * 255) for c in rgb(color))
    words = word_boxes(original, page, rects)
    assert words
    for box in shown_boxes(original, page, words):
        inner = [(x, y) for x in range(box.x0 + 1, box.x1 - 1)
                 for y in range(box.y0 + 1, box.y1 - 1)]
        tinted = [after.at(x, y) for x, y in inner
                  if before.at(x, y) == (255, 255, 255)]
        assert tinted, "a word box with no paper showing"
        # Where the rectangles of two adjacent lines overlap, multiply mode paints the
        # colour twice over.
        twice = tuple(round(v * v / 255) for v in want)
        near = [c for c in tinted if min(max(abs(a - b) for a, b in zip(c, w, strict=True))
                                         for w in (want, twice)) < 30]
        assert len(near) >= 0.9 * len(tinted), (box, tinted[:5], want)


def flat(rects: Sequence[Sequence[float]]) -> list[float]:
    return [float(v) for r in rects for v in r]


def reread_quads(out: Path) -> dict[str, list[tuple[float, float, float, float]]]:
    """citeview's highlights in ``out`` (PyMuPDF), each as the bounding box of its quads."""
    found: dict[str, list[tuple[float, float, float, float]]] = {}
    with pymupdf.open(out) as doc:
        for page in doc:
            for annot in page.annots(types=[pymupdf.PDF_ANNOT_HIGHLIGHT]):
                name = annot.info.get("id", "")
                assert name.startswith(NAME_PREFIX)
                v = annot.vertices
                quads = [v[i:i + 4] for i in range(0, len(v), 4)]
                found[name[len(NAME_PREFIX):]] = [
                    (min(p[0] for p in q), min(p[1] for p in q), max(p[0] for p in q),
                     max(p[1] for p in q)) for q in quads]
    return found


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_generated_pages_at_every_rotation(tmp_path: Path, rotation: int) -> None:
    pdf = generated(tmp_path / "doc.pdf", rotation=rotation)
    out, report = annotated(tmp_path, pdf, [(0, f"{LINES[1]} {LINES[2]}"), (1, LINES[3])])
    for key, page in (("c0#0", 0), ("c1#0", 1)):
        ev = evidence(report, key)
        assert ev["status"] == "located" and ev["page"] == page + 1
        assert_highlight_only_over(tmp_path, pdf, out, page, ev["rects"],
                                   HIGHLIGHT_COLORS["located"])
    quads = reread_quads(out)
    for key in ("c0#0", "c1#0"):
        assert flat(quads[key]) == pytest.approx(flat(evidence(report, key)["rects"]),
                                                 abs=0.01)


def test_a_cropbox_page_and_a_decision_colour(tmp_path: Path) -> None:
    pdf = generated(tmp_path / "doc.pdf", rotation=90, cropbox=pymupdf.Rect(40, 60, 560, 700))
    out, report = annotated(tmp_path, pdf, [(0, LINES[2])],
                            {"c0#0": {"placement": "confirmed"}})
    ev = evidence(report, "c0#0")
    assert_highlight_only_over(tmp_path, pdf, out, 0, ev["rects"],
                               HIGHLIGHT_COLORS["confirmed"])
    with pymupdf.open(out) as doc:
        page = doc[0]
        [annot] = list(page.annots())
        assert annot.info["title"] == REVIEWER
        content = annot.info["content"]
    assert "Claim c0" in content and LINES[2] in content and "confirmed by jdoe" in content


CORPUS_PAGES = [
    ("rotated_fr_environment_report.pdf", 3), ("rotated_de_gazette_270_cropbox.pdf", 0),
    ("table_energy_appendix_rot90.pdf", 0), ("text_acta_acustica_cropbox.pdf", 1),
    ("text_de_editorial_cropbox.pdf", 0),
]


@pytest.mark.parametrize("page", [0, 1, 2, 3])
def test_corpus_page_at_each_angle_relocated(tmp_path: Path, corpus: Path, page: int) -> None:
    """Each page of this file is turned by another angle. Its text is table cells the
    matcher cannot tell apart, so a reviewer relocated the quote onto three of them: the
    rectangles are PyMuPDF's own line boxes."""
    pdf = corpus / "rotated_all_four_angles.pdf"
    with pymupdf.open(pdf) as doc:
        words = doc[page].get_text("words")
    rects = [list(w[:4]) for w in words if w[4] in ("cell[2][1]", "cell[2][2]", "cell[2][3]")]
    assert len(rects) == 3
    out, _ = annotated(tmp_path, pdf, [(page, "cell[2][1] cell[2][2] cell[2][3]")], {
        "c0#0": {"placement": "relocated", "page": page + 1, "rects": rects}})
    assert_highlight_only_over(tmp_path, pdf, out, page, rects, HIGHLIGHT_COLORS["relocated"])
    assert flat(reread_quads(out)["c0#0"]) == pytest.approx(flat(rects), abs=0.01)


@pytest.mark.parametrize(("name", "page"), CORPUS_PAGES)
def test_corpus_rotated_and_cropbox_pages(tmp_path: Path, corpus: Path, name: str,
                                          page: int) -> None:
    pdf = corpus / name
    lines = page_lines(pdf, page, min_words=1)
    # Lines from the middle of the page, until the quote has ten words or more.
    picked: list[str] = []
    for line in lines[len(lines) // 2:]:
        picked.append(line)
        if len(" ".join(picked).split()) >= 10:
            break
    quote = " ".join(picked)
    out, report = annotated(tmp_path, pdf, [(page, quote)])
    ev = evidence(report, "c0#0")
    assert ev["status"] in PLACED and ev["page"] == page + 1, ev["reason"]
    color = HIGHLIGHT_COLORS["located" if ev["status"] == "located" else "review"]
    assert_highlight_only_over(tmp_path, pdf, out, page, ev["rects"], color)
    assert flat(reread_quads(out)["c0#0"]) == pytest.approx(flat(ev["rects"]), abs=0.01)


def test_the_original_is_kept_whole(tmp_path: Path) -> None:
    """Pages, text and existing annotations stay; the original's bytes are the copy's
    first bytes (an incremental update), and poppler still reads the text."""
    pdf = generated(tmp_path / "doc.pdf")
    with pymupdf.open(pdf) as doc:
        doc[1].add_text_annot((300, 60), "an underwriter's own note")
        doc.saveIncr()
    original = pdf.read_bytes()
    out, _ = annotated(tmp_path, pdf, [(0, LINES[0])])
    copy = out.read_bytes()
    assert pdf.read_bytes() == original and copy[:len(original)] == original
    assert poppler.text(out) == poppler.text(pdf)
    assert poppler.info(out)["Pages"] == poppler.info(pdf)["Pages"] == "2"
    with pymupdf.open(out) as doc:
        page = doc[1]
        notes = [a.info["content"] for a in page.annots()]
    assert notes == ["an underwriter's own note"]


def test_wrong_place_and_relocated(tmp_path: Path) -> None:
    """A wrong place is drawn nowhere (as in the window) and gets a note instead; a
    relocation is drawn where the reviewer put it, on the page the decision names."""
    pdf = generated(tmp_path / "doc.pdf")
    with pymupdf.open(pdf) as doc:
        words = doc[1].get_text("words")
    target = [w for w in words if w[4] in ("Mould,", "fungus")]
    rect = [min(w[0] for w in target), min(w[1] for w in target),
            max(w[2] for w in target), max(w[3] for w in target)]
    out, report = annotated(tmp_path, pdf, [(0, LINES[0]), (0, LINES[4])], {
        "c0#0": {"placement": "wrong_place"},
        "c1#0": {"placement": "relocated", "page": 2, "rects": [rect]}})
    assert_highlight_only_over(tmp_path, pdf, out, 1, [rect], HIGHLIGHT_COLORS["relocated"])
    ev = evidence(report, "c0#0")
    [box] = shown_boxes(pdf, 0, ev["rects"])
    with pymupdf.open(out) as doc:
        page = doc[0]
        first = [(a.type[1], a.info["content"], a.rect) for a in page.annots()]
    [(kind, content, where)] = first
    assert kind == "Text" and "wrong place" in content  # a note, no highlight
    assert not where.intersects(pymupdf.Rect(ev["rects"][0]))
    before = poppler.render(pdf, 0, tmp_path / "b.ppm")
    after = poppler.render(out, 0, tmp_path / "a.ppm")
    mid = ((box.x0 + box.x1) // 2, box.y0 + 2)
    assert after.at(*mid) == before.at(*mid)  # the rejected words are not painted over
    assert flat(reread_quads(out)["c1#0"]) == pytest.approx(rect, abs=0.01)


def test_a_quote_not_located_gets_a_note_on_its_hinted_page(tmp_path: Path) -> None:
    pdf = generated(tmp_path / "doc.pdf", rotation=90)
    out, report = annotated(tmp_path, pdf, [(1, "The policy covers a purple submarine.")])
    assert evidence(report, "c0#0")["status"] == "not_located"
    with pymupdf.open(out) as doc:
        first, second = doc[0], doc[1]
        assert not list(first.annots())
        [note] = list(second.annots())
        assert note.type[1] == "Text" and note.info["title"] == "citeview"
        assert "not located" in note.info["content"]
        assert note.info["content"].count("purple submarine") == 1
        # At the top-left of the page as displayed (the page is shown turned by 90°).
        shown = note.rect * second.rotation_matrix
        assert shown.x0 < 60 and shown.y0 < 60
    before = poppler.render(pdf, 1, tmp_path / "b.ppm")
    after = poppler.render(out, 1, tmp_path / "a.ppm")
    changed = changed_pixels(before, after)
    assert changed and max(x for x, _ in changed) < 100 and max(y for _, y in changed) < 100
    red = tuple(round(c * 255) for c in rgb(NOTE_COLOR))
    assert any(max(abs(a - b) for a, b in zip(after.at(x, y), red, strict=True)) < 40
               for x, y in changed)


def test_a_confirmation_over_a_difference_is_never_green(tmp_path: Path) -> None:
    """Confirming the place of a quote whose figure differs from the page says both: its
    highlight is the colour of a difference (not the confirmation's green), and its note
    names the confirmation and the difference side by side."""
    pdf = generated(tmp_path / "doc.pdf")
    changed = LINES[3].replace("five thousand", "fifty thousand")
    out, report = annotated(tmp_path, pdf, [(0, changed), (1, LINES[0])],
                            {"c0#0": {"placement": "confirmed"},
                             "c1#0": {"placement": "confirmed"}})
    ev = evidence(report, "c0#0")
    assert ev["differences"] and ev["rects"]  # the matcher named the changed figure
    assert_highlight_only_over(tmp_path, pdf, out, 0, ev["rects"], HIGHLIGHT_COLORS["differs"])
    assert HIGHLIGHT_COLORS["differs"] != HIGHLIGHT_COLORS["confirmed"]
    with pymupdf.open(out) as doc:
        [(stroke, content)] = [(a.colors["stroke"], a.info["content"]) for a in doc[0].annots()]
        [(plain, _)] = [(a.colors["stroke"], a.info["content"]) for a in doc[1].annots()]
    assert "confirmed by the reviewer · the quote differs:" in content
    assert stroke == pytest.approx(rgb(HIGHLIGHT_COLORS["differs"]), abs=0.01)
    assert plain == pytest.approx(rgb(HIGHLIGHT_COLORS["confirmed"]), abs=0.01)  # no diff
