"""Page placement on generated PDFs: the right words, one rectangle per line, or nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from matcher.document import PdfSource
from matcher.locate import locate_quote
from matcher.placement import place_on_page
from matcher.words import PageWords
from tests.simplepdf import paragraph, write_pdf

WARNING = ("Any person who knowingly and with intent to defraud any insurance company",
           "files an application containing any materially false information commits",
           "a fraudulent insurance act, which is a crime.")
STATES = ["Colorado", "Florida", "Kentucky", "New Jersey", "Ohio"]


def form_page() -> list[tuple[str, float, float]]:
    """An application page: repeated fraud warnings, then values printed above labels."""
    pieces: list[tuple[str, float, float]] = [("APPLICATION FOR HOMEOWNERS INSURANCE", 72, 60)]
    y = 100.0
    for state in STATES:
        pieces.append((f"{state} residents:", 72, y))
        pieces += paragraph(WARNING, y=y + 13)
        y += 70
    pieces += [("/s/ Margaret Okafor", 72, 520), ("Margaret Okafor", 250, 520),
               ("03/14/2025", 420, 520)]
    pieces += [("Signature of Applicant", 72, 534), ("Print Name", 250, 534),
               ("Date", 420, 534)]
    pieces += paragraph(["Premium schedule: Dwelling $350,000 annual premium $1,284",
                         "Personal property $175,000 deductible $1,000"], y=600)
    return pieces


def words_of(pw: PageWords, ids: tuple[int, ...]) -> list[str]:
    return [pw.words[i].text for i in ids]


@pytest.fixture
def form(make_pdf: Callable[..., Path]) -> PageWords:
    return PdfSource(make_pdf([form_page()])).page_words(0)


def test_values_above_labels_read_in_meaning_order(form: PageWords) -> None:
    p = place_on_page(form, "Signature of Applicant /s/ Margaret Okafor, Print Name "
                            "Margaret Okafor, Date 03/14/2025")
    assert p.status == "located"
    assert len(p.rects) == 6  # three values and three labels, each its own line
    assert all(515 - 12 < r[1] and r[3] < 540 for r in p.rects)
    assert "Signature" in words_of(form, p.words) and "03/14/2025" in words_of(form, p.words)


def test_later_occurrence_of_boilerplate_is_chosen_by_its_context(form: PageWords) -> None:
    p = place_on_page(form, "Kentucky residents: Any person who knowingly and with intent "
                            "to defraud any insurance company")
    assert p.status == "located"
    kentucky = next(w for w in form.words if w.text == "Kentucky")
    assert all(abs(r[1] - kentucky.y0) < 20 for r in p.rects)
    assert len(p.rects) == 2


def test_identical_boilerplate_is_never_silently_given_the_first_place(form: PageWords
                                                                        ) -> None:
    p = place_on_page(form, WARNING[2])
    assert p.status == "review" and "5 times" in p.reason


def test_one_rectangle_per_line_never_one_box_over_the_gap(form: PageWords) -> None:
    p = place_on_page(form, "Dwelling $350,000 annual premium $1,284 Personal property "
                            "$175,000 deductible $1,000")
    assert p.status == "located" and len(p.rects) == 2
    (a, b) = sorted(p.rects, key=lambda r: r[1])
    assert a[3] <= b[1] + 1  # the two rectangles do not overlap vertically


def test_assembled_quote_draws_both_places_only(form: PageWords) -> None:
    p = place_on_page(form, "APPLICATION FOR HOMEOWNERS INSURANCE Personal property "
                            "$175,000 deductible $1,000")
    assert p.status == "located" and len(p.rects) == 2
    assert p.found_text == ("APPLICATION FOR HOMEOWNERS INSURANCE / "
                            "Personal property $175,000 deductible $1,000")


@pytest.mark.parametrize("quote", [
    "The quick brown fox jumps over the lazy dog near the river bank",
    "Any person who knowingly files a claim for earthquake damage in Texas",
    "Colorado Florida Kentucky Ohio premium deductible",
])
def test_fabricated_quotes_are_not_placed(form: PageWords, quote: str) -> None:
    p = place_on_page(form, quote)
    assert p.status != "located"
    if quote.startswith("The quick"):
        assert p.status == "not_located" and not p.rects


@pytest.mark.parametrize("quote", ["", "   ", "—— … !!", "x" * 0])
def test_quotes_without_words_are_refused_with_a_reason(form: PageWords, quote: str) -> None:
    p = place_on_page(form, quote)
    assert p.status == "not_located" and p.reason and not p.rects


def test_a_huge_quote_is_refused(form: PageWords) -> None:
    p = place_on_page(form, "insurance " * 2500)
    assert p.status == "not_located" and "too long" in p.reason


LINES = [
    "The company will pay for direct physical loss to the dwelling described",
    "in the declarations, including structures attached to the dwelling, and",
    "materials and supplies on or next to the residence premises used to",
    "construct, alter or repair the dwelling or other structures on the",
    "residence premises. We do not cover land, including land on which the",
    "dwelling is located, or loss caused by wear and tear, marring or deterioration,",
    "mechanical breakdown, latent defect or inherent vice, smog, rust or corrosion.",
]


# The most words two neighbouring LINES hold: a shuffle is drawn as an order of this many.
PAIR_WORDS = max(len(" ".join(LINES[k:k + 2]).split()) for k in range(len(LINES) - 1))


@settings(deadline=None, max_examples=25)
@given(st.integers(0, len(LINES) - 2), st.integers(1, 2), st.permutations(range(PAIR_WORDS)),
       st.randoms(use_true_random=False))
# Lines 1–2 shuffled so that "structures on the residence premises" also reads in order
# across lines 3–4: lines 1–2 hold every quoted word, so they are the place.
@example(1, 2, [0, 6, 2, 3, 4, 13, 1, 18, 19, 9, 10, 11, 12, 5, 14, 15, 16, 7, 17, 8, 20, 21,
                22, 23, 24], random.Random(0))
# Line 1 shuffled, its "to the dwelling" also in order on line 0: line 1 holds every word.
@example(1, 1, [6, 9, 1, 8, 0, 7, 3, 5, 4, 2, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                22, 23, 24], random.Random(0))
def test_shuffled_and_dropped_quotes_land_on_their_lines(tmp_path_factory, start: int,
                                                         n: int, order: list[int],
                                                         rnd: random.Random) -> None:
    path = tmp_path_factory.mktemp("p") / "p.pdf"
    pw = PdfSource(write_pdf(path, [paragraph(LINES)])).page_words(0)
    chosen = LINES[start:start + n]
    ws = " ".join(chosen).split()
    shuffled = [ws[k] for k in order if k < len(ws)]
    drop = set(rnd.sample(range(len(ws)), k=int(0.3 * len(ws))))  # 30% of the words
    for quote in (" ".join(shuffled), " ".join(w for i, w in enumerate(ws) if i not in drop)):
        p = place_on_page(pw, quote)
        if p.status == "not_located":
            continue  # refusing is allowed; a wrong place is not
        lines_hit = {pw.words[i].line for i in p.words}
        truth = {i for i, ln in enumerate(pw.lines)
                 if " ".join(pw.words[w].text for w in ln.words) in chosen}
        assert lines_hit <= truth, (quote, p.found_text)


def test_hyphen_split_across_lines_matches_the_whole_word(make_pdf: Callable[..., Path]
                                                          ) -> None:
    pw = PdfSource(make_pdf([paragraph(["Coverage begins on the date of sub-",
                                        "scription to the policy and ends at noon."])])
                   ).page_words(0)
    p = place_on_page(pw, "begins on the date of subscription to the policy")
    assert p.status == "located" and len(p.rects) == 2
    assert "sub-" in words_of(pw, p.words) and "scription" in words_of(pw, p.words)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rotated_pages_place_on_the_same_words(make_pdf: Callable[..., Path],
                                               rotation: int) -> None:
    pdf = make_pdf([paragraph(LINES)], rotation=rotation)
    pw = PdfSource(pdf).page_words(0)
    p = place_on_page(pw, " ".join(LINES[2:4]))
    assert p.status == "located" and len(p.rects) == 2
    assert words_of(pw, p.words) == " ".join(LINES[2:4]).split()


def test_search_uses_the_hint_but_does_not_trust_it(make_pdf: Callable[..., Path]) -> None:
    other = [("Schedule of endorsements and riders attached to this policy.", 72, 100)]
    src = PdfSource(make_pdf([other, other, paragraph(LINES)]))
    quote = " ".join(LINES[4:6])
    hinted = locate_quote(src, quote, hints=[2])
    wrong_hint = locate_quote(src, quote, hints=[0])
    no_hint = locate_quote(src, quote)
    out_of_range = locate_quote(src, quote, hints=[41])
    assert hinted.page == wrong_hint.page == no_hint.page == out_of_range.page == 2
    assert hinted.rects == wrong_hint.rects == no_hint.rects
    assert "not on hinted page 1" in wrong_hint.reason
    assert "outside the document" in out_of_range.reason


def test_the_same_text_on_two_pages_needs_a_hint(make_pdf: Callable[..., Path]) -> None:
    src = PdfSource(make_pdf([paragraph(LINES), paragraph(LINES)]))
    quote = " ".join(LINES[1:3])
    assert locate_quote(src, quote).status == "review"
    hinted = locate_quote(src, quote, hints=[1])
    assert hinted.status == "located" and hinted.page == 1


def test_page_without_text_is_refused(make_pdf: Callable[..., Path]) -> None:
    src = PdfSource(make_pdf([[]]))
    p = locate_quote(src, "anything at all", hints=[0])
    assert p.status == "not_located" and not p.rects


def test_a_diagonal_watermark_is_not_boxed(tmp_path: Path) -> None:
    import pymupdf
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(LINES):
        page.insert_text((72, 100 + 13 * i), line, fontsize=10)
    centre = pymupdf.Point(150, 600)
    page.insert_text(centre, "DO NOT SEND THIS PAGE WITH YOUR CLAIM", fontsize=30,
                     morph=(centre, pymupdf.Matrix(-45)))
    doc.save(tmp_path / "w.pdf")
    pw = PdfSource(tmp_path / "w.pdf").page_words(0)
    assert any(ln.skewed for ln in pw.lines)
    p = place_on_page(pw, "DO NOT SEND THIS PAGE WITH YOUR CLAIM")
    assert p.status == "not_located" and not p.rects
    assert place_on_page(pw, LINES[3]).status == "located"


def test_a_line_set_at_an_angle_is_text_and_boxed_word_by_word(tmp_path: Path) -> None:
    import pymupdf
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(LINES):
        page.insert_text((72, 100 + 13 * i), line, fontsize=10)
    caption = "Approved by the underwriting committee on 12 May 2024"
    at = pymupdf.Point(150, 500)
    page.insert_text(at, caption, fontsize=10, morph=(at, pymupdf.Matrix(30)))
    doc.save(tmp_path / "a.pdf")
    pw = PdfSource(tmp_path / "a.pdf").page_words(0)
    [line] = [ln for ln in pw.lines if ln.skewed]
    assert not line.watermark
    p = place_on_page(pw, caption)
    assert p.status == "located" and words_of(pw, p.words) == caption.split()
    # One upright box per word: a box around the whole slanted line would be far taller.
    assert len(p.rects) == len(caption.split())
    assert all(r[3] - r[1] < 3 * (line.bbox[3] - line.bbox[1]) / len(p.rects) for r in p.rects)


def test_text_without_spaces_is_found_by_any_stretch_of_a_run(tmp_path: Path) -> None:
    import pymupdf
    doc = pymupdf.open()
    page = doc.new_page()
    runs = ["本保险合同的保险期间为一年，自投保人缴纳保险费之日起计算。",
            "被保险人在保险期间内因意外伤害导致身故的，保险人按照约定给付保险金。"]
    for i, run in enumerate(runs):
        page.insert_text((72, 100 + 20 * i), run, fontname="china-s", fontsize=11)
    doc.save(tmp_path / "zh.pdf")
    pw = PdfSource(tmp_path / "zh.pdf").page_words(0)
    assert len(pw.words) == 2  # each run is one "word" to the extractor
    parts = [(0, "保险期间为一年"), (1, "意外伤害导致身故"), (1, "保险人按照约定给付保险金")]
    for k, part in parts:
        p = place_on_page(pw, part)
        assert p.status == "located" and p.words == (k,), part
    changed = place_on_page(pw, "保险期间为两年")
    assert changed.status == "review"
    assert [(d.quote, d.page) for d in changed.differences] == [("两", "一")]
    negated = place_on_page(pw, "保险期间不为一年")
    assert negated.status == "review" and negated.differences[0].kind == "negation"


def test_assembled_from_two_copies_of_boilerplate_draws_both_named_copies(tmp_path: Path
                                                                         ) -> None:
    # The warnings differ only in the state name that opens each one: a quote joining
    # the first state's opening lines with the last state's opening line must be drawn
    # at those two states, not at whichever copies happen to hold the same words.
    from tests.pdfgen import insurance_application
    path, _ = insurance_application(tmp_path / "app.pdf", seed=300)
    pw = PdfSource(path).page_words(2)
    texts = [" ".join(pw.words[w].text for w in ln.words) for ln in pw.lines]
    starts = [i for i, t in enumerate(texts) if t.split(" ")[0].endswith(":")
              and "Any person who knowingly" in t]
    first, last = starts[0], starts[-1]
    p = place_on_page(pw, " ".join([texts[first], texts[first + 1], texts[last]]))
    assert p.status == "located"
    assert {pw.words[w].line for w in p.words} == {first, first + 1, last}


@settings(max_examples=8, deadline=None)
@given(row=st.integers(0, 5))
def test_equally_dense_rows_serve_the_row_holding_more_of_the_quote(tmp_path_factory,
                                                                     row: int) -> None:
    # A table column repeats "Broadcom and Avago"; one row goes on "… mission". Every
    # row is made only of quote words, so density alone cannot choose.
    rows = ["Broadcom and Avago"] * 6
    rows[row] = "Broadcom and Avago mission"
    path = write_pdf(tmp_path_factory.mktemp("t") / "t.pdf", [paragraph(rows, leading=14)])
    pw = PdfSource(path).page_words(0)
    p = place_on_page(pw, "Broadcom and Avago mission")
    assert p.status == "located"
    assert {pw.words[w].line for w in p.words} == {row}


def test_a_part_printed_twice_in_other_columns_is_shown_twice_and_flagged(
        make_pdf: Callable[..., Path]) -> None:
    # The quote joins a sentence at the top of the right column with a clause that the
    # left column prints twice, neither copy beside the first part: no way to tell which
    # copy was meant, so both are shown and the reader is asked to judge.
    clause = "actions identified as RC in, and in accordance with"
    page = [("if those actions were performed before the effective date", 330, 100),
            (clause, 72, 300), ("unrelated words fill this line of the page", 72, 313),
            (clause, 72, 500)]
    pw = PdfSource(make_pdf([page])).page_words(0)
    quote = "if those actions were performed before the effective date " + clause
    p = place_on_page(pw, quote)
    assert p.status == "review" and "2 times" in p.reason
    assert len(p.alternatives) == 1
    ys = sorted(round(r[1]) for r in p.rects)
    assert len(ys) == 3 and ys[0] < 100 < ys[1] < 300 < ys[2] < 500


def warnings_page(tmp_path: Path, seed: int) -> tuple[PageWords, list[str]]:
    """The generated application's page of state fraud warnings, and its lines' text."""
    from tests.pdfgen import insurance_application
    path, _ = insurance_application(tmp_path / "app.pdf", seed=seed)
    pw = PdfSource(path).page_words(2)
    return pw, [" ".join(pw.words[w].text for w in ln.words) for ln in pw.lines]


def shuffled(text: str, seed: int) -> str:
    words = text.split()
    random.Random(seed).shuffle(words)
    return " ".join(words)


@pytest.mark.parametrize("seed", [100, 301, 702])
def test_a_shuffled_warning_line_is_told_apart_by_its_state_name(tmp_path: Path, seed: int
                                                                 ) -> None:
    # The state warnings share every word but the state's name. Read out of order, the
    # line that closes one warning ("…under the laws of Ohio.") still names its state, so
    # it is not ambiguous: it is placed on that line and no other.
    pw, texts = warnings_page(tmp_path, seed)
    closing = [i for i, t in enumerate(texts) if "under the laws of" in t
               and t.rstrip(".").split()[-1] not in ("of", "")]
    assert len(closing) >= 3
    for i in closing:
        p = place_on_page(pw, shuffled(texts[i], i))
        assert p.status == "located", texts[i]
        assert {pw.words[w].line for w in p.words} == {i}


@pytest.mark.parametrize("seed", [100, 301, 702])
def test_a_shuffled_pair_of_warning_lines_takes_the_next_states_opening(tmp_path: Path,
                                                                         seed: int) -> None:
    # "…under the laws of Colorado. / Maine: Any person who knowingly…" read out of
    # order: Colorado's own opening line holds the same common words, but once the
    # closing line has spent "Colorado" it is Maine's line that adds the most.
    pw, texts = warnings_page(tmp_path, seed)
    pairs = [i for i, t in enumerate(texts[:-1]) if t.endswith(".") and "laws of" in t
             and "Any person who knowingly" in texts[i + 1]]
    assert pairs
    for i in pairs:
        p = place_on_page(pw, shuffled(f"{texts[i]} {texts[i + 1]}", i))
        if p.placed:  # refusing is honest; a highlight must be on these two lines only
            assert {pw.words[w].line for w in p.words} == {i, i + 1}, texts[i + 1]


@pytest.mark.parametrize("seed", [100, 301, 702])
def test_a_shuffled_warning_body_lands_in_the_warning_its_state_names(tmp_path: Path,
                                                                       seed: int) -> None:
    # "statement of claim … / thereto, commits … laws of Ohio." shuffled: the first line
    # is printed in every warning, so it must come from the warning that names Ohio.
    pw, texts = warnings_page(tmp_path, seed)
    ends = [i for i, t in enumerate(texts) if i > 0 and t.startswith("thereto")
            and t.endswith(".") and texts[i - 1].startswith("statement of claim")]
    assert ends
    for i in ends:
        p = place_on_page(pw, shuffled(f"{texts[i - 1]} {texts[i]}", i))
        assert p.status == "located", texts[i]
        assert {pw.words[w].line for w in p.words} == {i - 1, i}


def test_an_assembled_quote_is_not_grown_from_a_near_miss_that_borrows_its_words(
        make_pdf: Callable[..., Path]) -> None:
    # The address label holds the employer-name label's words and more of the quote's
    # "de la", so alone it scores best; grown into a whole citation, the name label
    # explains the quote as fully with its words in one unbroken run.
    page = [("Información del Empleado de la", 38, 136),
            ("Primer Nombre (Nombre de Pila)", 314, 138),
            ("Nombre de la Empresa u Organización del Empleador", 306, 543),
            ("Dirección de la Empresa u Organización del Empleador (Número y Nombre de la "
             "Calle)", 39, 600)]
    pw = PdfSource(make_pdf([page])).page_words(0)
    p = place_on_page(pw, "Información del Empleado de la Nombre de la Empresa u "
                          "Organización del Empleador")
    assert p.placed
    tops = sorted(round(r[1]) for r in p.rects)
    assert len(tops) == 2 and tops[0] < 140 and 530 < tops[1] < 550


def test_a_run_that_overran_into_the_next_row_gives_its_last_words_back(
        make_pdf: Callable[..., Path]) -> None:
    # Reading order runs from the company cell into the next row's "San Jose"; the quote
    # takes its "San Jose" from the hotel's row further down, where the words stand
    # together with the rest of the quote.
    page = [("M.E. Fox & Company, Inc.", 72, 100), ("San Jose", 72, 113),
            ("Mountain View", 72, 126), ("Layoff Permanent", 300, 200),
            ("San Jose Airport Garden Hotel", 72, 300)]
    pw = PdfSource(make_pdf([page])).page_words(0)
    p = place_on_page(pw, "M.E. Fox & Company, Inc. San Jose Airport Garden Hotel")
    assert p.status == "located"
    tops = sorted(round(r[1]) for r in p.rects)
    assert len(tops) == 2 and tops[0] < 100 and 280 < tops[1] < 300


@pytest.mark.parametrize("copies", [1, 3])
def test_a_partial_match_printed_several_times_is_not_given_one_copy(
        make_pdf: Callable[..., Path], copies: int) -> None:
    # Only "And in the U.S." of the quote is on the page; the "(6)" that would say which
    # column's copy was meant is not. One copy is shown for review; of several, none.
    page = [("Filing Status", 72, 60), ("Check only one box.", 72, 74),
            *[("(a) Lived with you", 72 + 130 * i, 100) for i in range(4)],
            *[("(b) And in the U.S.", 72 + 130 * i, 114) for i in range(copies)],
            ("Dependents", 72, 160)]
    pw = PdfSource(make_pdf([page])).page_words(0)
    p = place_on_page(pw, "And in the U.S. (6)")
    if copies == 1:
        assert p.status == "review"
        assert words_of(pw, p.words) == ["And", "in", "the", "U.S."]
    else:
        assert p.status == "not_located" and f"{copies} times" in p.reason


def test_fewer_lines_holding_every_word_lose_to_the_quoted_order(
        make_pdf: Callable[..., Path]) -> None:
    def warning(state: str, y: float) -> list[tuple[str, float, float]]:
        return paragraph([f"{state}: Any person who knowingly and with intent to defraud "
                          "any insurer",
                          "files a statement of claim containing any materially false "
                          "information, or",
                          f"conceals a material fact commits a crime under the laws of "
                          f"{state}."], y=y)

    pw = PdfSource(make_pdf([warning("Colorado", 100) + warning("New Mexico", 139)])
                   ).page_words(0)
    # Colorado's first two lines, then New Mexico's last two (its "New" kept): the four
    # lines from Colorado's second hold every quoted word too ("Colorado." ends a line,
    # "New Mexico:" begins one), but out of the quoted order.
    p = place_on_page(pw, "Colorado: Any person who knowingly and with intent to defraud any "
                          "insurer files a statement of claim containing any materially false "
                          "information, or files a statement of claim containing any "
                          "materially false information, or conceals a material fact commits "
                          "a crime under the laws of New")
    assert p.status == "located"
    assert sorted({pw.words[w].line for w in p.words}) == [0, 1, 4, 5]
