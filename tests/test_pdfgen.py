"""The PDF generators draw what their truth says, where it says, and the demo is current."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matcher.citations import load_citations
from matcher.normalize import join_line_hyphens
from scripts.demo_gen import make_demo
from scripts.demo_gen.application import ApplicationTruth, Box
from tests.pdfgen import (
    cropbox_copy,
    image_only_copy,
    insurance_application,
    rotated_copy,
    shift_rect,
    two_column_article,
)

DEMO = make_demo.DEMO_DIR
# Word boxes are recomputed from font metrics; MuPDF rounds to float32.
TOL = 0.05
Rect = tuple[float, float, float, float]
Word = tuple[float, float, float, float, str, int, int, int]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> ApplicationTruth:
    _, truth = insurance_application(tmp_path_factory.mktemp("app") / "app.pdf", seed=7)
    return truth


def words_in(words: Sequence[Word], rect: Rect) -> list[Word]:
    """The words whose centre lies inside ``rect``, in extraction order."""
    x0, y0, x1, y1 = rect
    return [w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1]


def page_words(path: Path, page: int) -> list[Word]:
    with pymupdf.open(path) as doc:
        words: list[Word] = doc[page].get_text("words")
    return words


def assert_box_drawn(path: Path, box: Box) -> None:
    """The words inside the recorded box read exactly the recorded text, box edges included."""
    inside = words_in(page_words(path, box.page), box.rect)
    assert " ".join(w[4] for w in inside) == box.text
    assert min(w[0] for w in inside) == pytest.approx(box.rect[0], abs=TOL)
    assert max(w[2] for w in inside) == pytest.approx(box.rect[2], abs=TOL)


# -- the application ----------------------------------------------------------------------------


def test_signature_values_print_one_line_above_their_labels(app: ApplicationTruth) -> None:
    block = app.signature("applicant")
    words = page_words(app.path, block.values[0].page)
    value_words = [w for v in block.values for w in words_in(words, v.rect)]
    label_words = [w for lab in block.labels for w in words_in(words, lab.rect)]
    assert [v.text for v in block.values] == [app.profile.applicant, app.profile.applicant,
                                              app.profile.signed_on]
    assert [lab.text for lab in block.labels] == ["Signature of Applicant", "Print Name", "Date"]
    # Every value sits wholly above every label, and nothing is printed between the two lines.
    values_bottom = max(w[3] for w in value_words)
    labels_top = min(w[1] for w in label_words)
    assert values_bottom < labels_top
    between = [w for w in words if values_bottom < (w[1] + w[3]) / 2 < labels_top]
    assert between == []
    # Each label starts under its own value.
    for value, label in zip(block.values, block.labels, strict=True):
        assert abs(value.rect[0] - label.rect[0]) < 4
    assert block.meaning_order().startswith(f"Signature of Applicant {app.profile.applicant}, "
                                            f"Print Name {app.profile.applicant}, Date ")


def test_signature_page_is_last_even_with_extra_pages(tmp_path: Path) -> None:
    path, truth = insurance_application(tmp_path / "long.pdf", seed=2, pages=6)
    with pymupdf.open(path) as doc:
        assert doc.page_count == 6
        assert "Page 6 of 6" in doc[5].get_text()
    assert {b.page for s in truth.signatures for b in (*s.values, *s.labels)} == {5}


def test_fraud_warning_repeats_once_per_state_in_a_column(app: ApplicationTruth) -> None:
    page = app.fraud_warnings[0].paragraph.pages[0]
    with pymupdf.open(app.path) as doc:
        text = " ".join(doc[page].get_text().split())
    assert text.count("Any person who knowingly and with intent to defraud") >= 4
    assert len(app.fraud_warnings) >= 4
    tops = [fw.paragraph.bbox(page)[1] for fw in app.fraud_warnings]
    assert tops == sorted(tops)
    for fw in app.fraud_warnings:
        assert fw.paragraph.text.startswith(f"{fw.state}: Any person who knowingly")
        assert fw.paragraph.text.endswith(f"under the laws of {fw.state}.")
        assert fw.paragraph.text in text
    # Stripped of the state names, every copy is the same boilerplate.
    bodies = {fw.paragraph.text.replace(fw.state, "STATE") for fw in app.fraud_warnings}
    assert len(bodies) == 1


def test_form_fields_and_rate_table_are_where_the_truth_says(app: ApplicationTruth) -> None:
    for fld in app.fields:
        assert_box_drawn(app.path, fld.value)
        assert fld.label.rect[3] < fld.value.rect[1] + 2  # the label sits above its value
    for row in app.rate_rows:
        for cell in row:
            assert_box_drawn(app.path, cell)
        lefts = [cell.rect[0] for cell in row]
        assert lefts == sorted(lefts)
        assert len({round(cell.rect[3], 1) for cell in row if cell.text[0] == "$"}) == 1
    dwelling = next(r for r in app.rate_rows if r[0].text.startswith("Dwelling"))
    assert [c.text for c in dwelling] == list(
        next(c for c in app.profile.coverages if c.name.startswith("Dwelling")).cells())


def test_wrapped_text_has_real_breaks_hyphens_ligatures_and_typography(
    app: ApplicationTruth,
) -> None:
    with pymupdf.open(app.path) as doc:
        raw = [page.get_text() for page in doc]
    everything = "".join(raw)
    for mark in ("\u2019", "\u2014", "\u2013", "\u201c", "\ufb01"):
        assert mark in everything, f"{mark!r} missing from the text layer"
    breaks = app.hyphen_breaks()
    assert len(breaks) >= 3
    for first, second in breaks:
        assert first.page == second.page
        assert second.rect[1] > first.rect[1]  # really on the next line
        head, tail = first.text.split()[-1], second.text.split()[0]
        assert re.search(re.escape(head) + r"\n" + re.escape(tail), raw[first.page])
        assert head[:-1] + tail in join_line_hyphens(raw[first.page])
    for para in app.paragraphs.values():  # every paragraph's lines read back in order
        page = para.pages[0]
        assert " ".join(para.text.split()) in " ".join(join_line_hyphens(raw[page]).split())


def test_questions_mark_the_recorded_answer(app: ApplicationTruth) -> None:
    for q in app.questions:
        yes, no = q.choices
        ticked = yes if q.answer else no
        assert ticked.rect[0] - 12 < q.mark.rect[0] < ticked.rect[0]
        assert q.mark.rect[1] < ticked.rect[3] and ticked.rect[1] < q.mark.rect[3]
        assert_box_drawn(app.path, q.mark)


def test_same_seed_same_bytes_other_seed_other_applicant(tmp_path: Path) -> None:
    a, ta = insurance_application(tmp_path / "a.pdf", seed=11)
    b, _ = insurance_application(tmp_path / "b.pdf", seed=11)
    _, tc = insurance_application(tmp_path / "c.pdf", seed=12, applicant="John A. Smith")
    assert a.read_bytes() == b.read_bytes()
    assert tc.signature().values[0].text == "John A. Smith"
    assert (ta.profile.applicant, ta.profile.coverages) != (tc.profile.applicant,
                                                             tc.profile.coverages)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_any_seed_lays_out_within_the_page(tmp_path: Path, seed: int) -> None:
    path, truth = insurance_application(tmp_path / f"s{seed}.pdf", seed=seed)
    with pymupdf.open(path) as doc:
        for page in doc:
            for x0, y0, x1, y1, *_ in page.get_text("words"):
                assert 0 <= x0 < x1 <= page.rect.width and 0 <= y0 < y1 <= page.rect.height
    assert_box_drawn(path, truth.signature().values[2])
    assert_box_drawn(path, truth.field("Full legal name").value)


# -- copies -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rotated_copy_reports_rotation_and_keeps_word_boxes(
    app: ApplicationTruth, tmp_path: Path, rotation: int,
) -> None:
    dst = rotated_copy(app.path, tmp_path / f"r{rotation}.pdf", rotation)
    with pymupdf.open(app.path) as src, pymupdf.open(dst) as out:
        assert out.page_count == src.page_count
        for a, b in zip(src, out, strict=True):
            assert b.rotation == rotation
            assert b.get_text("words") == a.get_text("words")


def test_rotated_copy_rejects_odd_angles(app: ApplicationTruth, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="rotation"):
        rotated_copy(app.path, tmp_path / "bad.pdf", 45)


def test_cropbox_copy_moves_words_by_the_inset(app: ApplicationTruth, tmp_path: Path) -> None:
    inset = (36.0, 24.0)
    dst = cropbox_copy(app.path, tmp_path / "crop.pdf", inset=inset)
    value = app.field("Full legal name").value
    with pymupdf.open(dst) as doc:
        page = doc[value.page]
        assert page.cropbox != page.mediabox
        assert page.rect.width == pytest.approx(612 - 2 * inset[0])
        assert page.rect.height == pytest.approx(792 - 2 * inset[1])
        inside = words_in(page.get_text("words"), shift_rect(value.rect, inset))
    assert " ".join(w[4] for w in inside) == value.text


@pytest.mark.parametrize("rotation", [0, 90])
def test_image_only_copy_has_no_text_and_the_displayed_page_size(
    app: ApplicationTruth, tmp_path: Path, rotation: int,
) -> None:
    src = rotated_copy(app.path, tmp_path / "src.pdf", rotation)
    dst, truth = image_only_copy(src, tmp_path / "img.pdf", dpi=72)
    with pymupdf.open(src) as a, pymupdf.open(dst) as b:
        assert b.page_count == a.page_count == len(truth)
        for pa, pb, words in zip(a, b, truth, strict=True):
            assert pb.get_text("words") == []
            assert pb.rotation == 0
            assert (pb.rect.width, pb.rect.height) == pytest.approx(
                (pa.rect.width, pa.rect.height))
            assert len(pb.get_images()) == 1
            assert len(words) == len(pa.get_text("words"))
            assert all(pb.rect.contains(pymupdf.Rect(w[:4])) for w in words)


# -- the two-column wording ---------------------------------------------------------------------


def test_two_column_article_flows_down_columns_then_pages(tmp_path: Path) -> None:
    path, truth = two_column_article(tmp_path / "wording.pdf", seed=3)
    assert truth.page_count == 2
    lines = [ln for p in truth.paragraphs for ln in p.placed.lines]
    order = [(ln.page, truth.column(ln)) for ln in lines]
    assert order == sorted(order)  # left column, right column, next page
    assert set(order) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    for ln in lines:
        x0, x1 = truth.column_edges[truth.column(ln)]
        assert x0 - TOL <= ln.rect[0] and ln.rect[2] <= x1 + 1.0
    assert any(ln.hyphen for ln in lines)
    assert truth.split_paragraphs()
    with pymupdf.open(path) as doc:
        text = join_line_hyphens(doc[0].get_text() + doc[1].get_text())
        body = [w for w in doc[0].get_text("words") if w[1] > 110]
    # No extracted body line runs across the gutter.
    mid = (truth.column_edges[0][1] + truth.column_edges[1][0]) / 2
    lines_by_id: dict[tuple[int, int], list[Word]] = {}
    for w in body:
        lines_by_id.setdefault((w[5], w[6]), []).append(w)
    for ws in lines_by_id.values():
        assert max(w[2] for w in ws) < mid or min(w[0] for w in ws) > mid
    flat = " ".join(text.split())
    for para in truth.paragraphs:
        if len(para.placed.pages) == 1:
            assert " ".join(para.text.split()) in flat


# -- the bundled demo ---------------------------------------------------------------------------


def test_bundled_demo_is_what_make_demo_writes(tmp_path: Path) -> None:
    pdf, cite = make_demo.make_demo(tmp_path)
    assert json.loads(cite.read_text("utf-8")) == json.loads(
        (DEMO / "demo.cite").read_text("utf-8"))
    with pymupdf.open(pdf) as fresh, pymupdf.open(DEMO / "policy.pdf") as shipped:
        assert [p.get_text() for p in fresh] == [p.get_text() for p in shipped]
    assert (DEMO / "policy.pdf").stat().st_size < make_demo.MAX_PDF_BYTES


def test_bundled_demo_cite_covers_every_case() -> None:
    cf = load_citations(DEMO / "demo.cite")
    by_id = {c.id: c for c in cf.claims}
    assert len(cf.claims) >= 10
    assert all(c.text for c in cf.claims)
    assert by_id["c10"].evidence == []
    assert cf.chunk(by_id["c11"].evidence[0].chunk_id or "") is None
    assert len(by_id["c7"].evidence) == 2
    assert "..." in by_id["c8"].evidence[0].quote
    chunk_ids = {c.id for c in cf.chunks}
    cited = {ev.chunk_id for c in cf.claims for ev in c.evidence if ev.chunk_id is not None}
    assert cited - chunk_ids == {make_demo.UNKNOWN_CHUNK}
    assert any(ev.document and ev.page for c in cf.claims for ev in c.evidence)
