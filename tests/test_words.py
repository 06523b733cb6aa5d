"""A page's words and lines: what `PageWords.from_raw` and the atom tables say about them.

`from_raw` and the atom table work a line (or a column) at a time for speed; the property
tests hold them to the plain word-at-a-time definition below, so every shortcut they take
must give the very same words, lines, boxes and atoms.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.normalize import atoms as split_atoms
from matcher.words import COLUMN_GAP_HEIGHTS, SKEW_SHARE, PageWords

Raw = tuple[float, float, float, float, str, int, int, int]
Box = tuple[float, float, float, float, str]


# --- The plain definition ---------------------------------------------------------------

def plain_lines(raw: Sequence[Sequence[object]]
                ) -> list[tuple[list[Box], bool | None, bool, tuple[float, ...]]]:
    """Lines as ``(words, vertical or None, skewed, bbox)``, a word at a time."""
    groups: dict[tuple[object, object], list[Box]] = {}
    for item in raw:
        x0, y0, x1, y1, text, block, line = item[:7]
        if x1 < x0 or y1 < y0 or not str(text).strip():  # type: ignore[operator]
            continue
        groups.setdefault((block, line), []).append(
            (float(x0), float(y0), float(x1), float(y1), str(text)))  # type: ignore[arg-type]
    out = []
    for ws in groups.values():
        for piece in plain_split(ws):
            out.append((piece, *plain_shape(piece)))
    return out


def plain_split(ws: list[Box]) -> list[list[Box]]:
    if len(ws) < 2:
        return [ws]
    height = max(w[3] - w[1] for w in ws)
    if max(w[2] for w in ws) - min(w[0] for w in ws) < height * 2:
        return [ws]
    out = [[ws[0]]]
    for prev, word in itertools.pairwise(ws):
        if word[0] - prev[2] > COLUMN_GAP_HEIGHTS * height:
            out.append([])
        out[-1].append(word)
    return out


def plain_shape(ws: list[Box]) -> tuple[bool | None, bool, tuple[float, ...]]:
    x0, y0 = min(w[0] for w in ws), min(w[1] for w in ws)
    x1, y1 = max(w[2] for w in ws), max(w[3] for w in ws)
    bbox = (x0, y0, x1, y1)
    if len(ws) == 1:
        return ((y1 - y0) > 1.5 * (x1 - x0) if len(ws[0][4]) >= 3 else None), False, bbox
    cx = [w[0] + w[2] for w in ws]
    cy = [w[1] + w[3] for w in ws]
    dx, dy = max(cx) - min(cx), max(cy) - min(cy)
    height = 2 * min(min(w[3] - w[1], w[2] - w[0]) for w in ws)
    if min(dx, dy) <= max(SKEW_SHARE * max(dx, dy), 2 * height):
        return dy > dx, False, bbox
    steps = {(b > a, d > c) for a, b, c, d in zip(cx, cx[1:], cy, cy[1:], strict=False)}
    return dy > dx, len(steps) == 1, bbox


def plain_atoms(pw: PageWords) -> list[tuple[str, tuple[int, ...]]]:
    """Atoms in reading order; a line-end ``sub-`` joins a lowercase first word after it."""
    out: list[tuple[str, tuple[int, ...]]] = []
    carry: tuple[str, tuple[int, ...]] | None = None
    for line in pw.lines:
        if line.watermark:
            continue
        for wi in line.words:
            text = pw.words[wi].text
            parts = split_atoms(text)
            if not parts:
                continue
            if carry is not None:
                if wi == line.words[0] and text[:1].islower():
                    out.append((carry[0] + parts.pop(0), (*carry[1], wi)))
                else:
                    out.append(carry)
                carry = None
            out += [(p, (wi,)) for p in parts]
            if wi == line.words[-1] and parts and text.rstrip().endswith(("-", "\u00ad", "\u2010")):
                carry = out.pop()
    if carry is not None:
        out.append(carry)
    return out


# --- Pages to try -----------------------------------------------------------------------

TEXTS = ["the", "Word", "sub-", "scription", "Smith-", "Jones", "de\u00adduct", "ﬁnal",
         "Ünïcode", "1,000", "--", "", "  ", "a\u2010", "x", "e\u0301te", "co-op", "\u200b"]
coords = st.one_of(st.floats(-50, 900, allow_nan=False), st.integers(-50, 900))
odd = st.sampled_from([math.inf, -math.inf, math.nan])  # a damaged page's coordinates


@st.composite
def raw_pages(draw: st.DrawFn) -> list[Sequence[object]]:
    """Words in runs that share a (block, line): level, stacked, climbing or scattered,
    with column gaps, inside-out boxes, blank words and lines met twice."""
    raw: list[Sequence[object]] = []
    for _ in range(draw(st.integers(0, 8))):
        key = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
        x, y = draw(coords), draw(coords)
        h = draw(st.sampled_from([0, 1.5, 10, 12.25]) | st.floats(-2, 40, allow_nan=False))
        mode = draw(st.sampled_from(["level", "stacked", "climbing", "scattered"]))
        for _ in range(draw(st.integers(1, 7))):
            w = draw(st.floats(-2, 80, allow_nan=False) | st.sampled_from([0, 3]))
            item = [x, y, x + w, y + h, draw(st.sampled_from(TEXTS)), *key, len(raw)]
            if draw(st.integers(0, 30)) == 0:
                item[draw(st.integers(0, 3))] = draw(odd)
            raw.append(tuple(item) if draw(st.booleans()) else item)
            gap = draw(st.sampled_from([2, 3, 60, 200]) | st.floats(-5, 300, allow_nan=False))
            if mode == "level":
                x = x + w + gap
            elif mode == "stacked":
                y = y + h + gap
            elif mode == "climbing":
                x, y = x + w + gap, y - gap
            else:
                x, y = draw(coords), draw(coords)
    return raw


# --- Properties ---------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(raw_pages())
def test_from_raw_matches_the_plain_definition(raw: list[Sequence[object]]) -> None:
    pw = PageWords.from_raw(3, raw)
    lines = plain_lines(raw)
    votes = [v for _, v, _, _ in lines if v is not None]
    page_vertical = sum(votes) * 2 > len(votes) if votes else False
    expect_words = [(*w, li) for li, (ws, _, _, _) in enumerate(lines) for w in ws]
    assert [tuple(w) for w in pw.words] == expect_words
    assert all(type(v) is float for w in pw.words for v in w[:4])
    assert [(ln.vertical, ln.skewed, ln.bbox) for ln in pw.lines] == \
        [(page_vertical if v is None else v, s, b) for _, v, s, b in lines]
    assert [len(ln.words) for ln in pw.lines] == [len(ws) for ws, _, _, _ in lines]
    assert [i for ln in pw.lines for i in ln.words] == list(range(len(pw.words)))


@settings(max_examples=200, deadline=None)
@given(raw_pages())
def test_atom_tables_match_the_plain_definition(raw: list[Sequence[object]]) -> None:
    pw = PageWords.from_raw(0, raw)
    expect = plain_atoms(pw)
    assert [(a.text, a.words) for a in pw.atoms] == expect
    assert pw.atom_texts == tuple(t for t, _ in expect)
    assert pw.atom_lines == tuple(pw.words[ws[0]].line for _, ws in expect)
    for text, positions in pw.atom_positions.items():
        assert [pw.atom_texts[p] for p in positions] == [text] * len(positions)
        assert pw.atom_counts[text] == len(positions)
    assert sorted(p for ps in pw.atom_positions.values() for p in ps) == \
        list(range(len(pw.atoms)))
    for line, positions in pw.line_atoms.items():
        assert all(pw.atom_lines[p] == line for p in positions)


@given(st.text(max_size=12))
def test_a_word_has_the_atoms_split_atoms_gives_it(text: str) -> None:
    pw = PageWords.from_raw(0, [(0.0, 0.0, 40.0, 10.0, text, 0, 0, 0)])
    assert list(pw.atom_texts) == (split_atoms(text) if text.strip() else [])


# --- Cases a reader can follow -------------------------------------------------------

def test_a_word_hyphenated_across_lines_is_one_atom_over_both_halves() -> None:
    pw = PageWords.from_raw(0, [
        (10, 10, 40, 20, "the", 0, 0, 0), (45, 10, 80, 20, "sub-", 0, 0, 1),
        (10, 22, 60, 32, "scription", 0, 1, 0), (65, 22, 90, 32, "Smith-", 0, 1, 1),
        (10, 34, 50, 44, "Jones", 0, 2, 0),
    ])
    assert [(a.text, a.words) for a in pw.atoms] == [
        ("the", (0,)), ("subscription", (1, 2)), ("smith", (3,)), ("jones", (4,))]
    assert pw.atom_lines == (0, 0, 1, 2)  # the joined atom belongs to the line it starts on


def test_a_line_met_again_takes_back_its_words_and_order() -> None:
    pw = PageWords.from_raw(0, [
        (10, 10, 40, 20, "one", 0, 0, 0), (10, 30, 40, 40, "two", 0, 1, 0),
        (45, 10, 80, 20, "three", 0, 0, 1),
    ])
    assert pw.text() == "one three\ntwo"


def test_inside_out_boxes_and_blank_words_are_dropped() -> None:
    pw = PageWords.from_raw(0, [
        (10, 10, 5, 20, "inverted", 0, 0, 0), (10, 10, 40, 20, "  ", 0, 0, 1),
        (45, 10, 80, 20, "kept", 0, 0, 2),
    ])
    assert [w.text for w in pw.words] == ["kept"]


def test_words_a_column_gap_apart_are_two_lines() -> None:
    pw = PageWords.from_raw(0, [
        (10, 10, 40, 20, "Name", 0, 0, 0), (400, 10, 450, 20, "Smith", 0, 0, 1),
    ])
    assert pw.text() == "Name\nSmith"
    assert [ln.bbox for ln in pw.lines] == [(10.0, 10.0, 40.0, 20.0),
                                            (400.0, 10.0, 450.0, 20.0)]


def test_a_diagonal_watermark_is_skewed_and_yields_no_atoms() -> None:
    pw = PageWords.from_raw(0, [
        (100, 500, 160, 540, "DRAFT", 0, 0, 0), (170, 440, 230, 480, "COPY", 0, 0, 1),
        (240, 380, 300, 420, "ONLY", 0, 0, 2), (10, 10, 40, 20, "text", 1, 0, 0),
    ])
    assert [ln.skewed for ln in pw.lines] == [True, False]
    assert pw.atom_texts == ("text",)


def angled(texts: Sequence[str], *, size: float, degrees: float, block: int,
           at: tuple[float, float] = (100.0, 400.0)) -> list[Raw]:
    """The upright boxes of words set at ``degrees`` in type of ``size`` points."""
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    out: list[Raw] = []
    along = 0.0
    for k, text in enumerate(texts):
        length = 0.5 * size * len(text)
        x, y = at[0] + along * cos, at[1] - along * sin
        out.append((x, y - length * sin - size * cos, x + length * cos + size * sin, y,
                    text, block, 0, k))
        along += length + 0.25 * size
    return out


BODY = [(10.0, 10.0 + 14 * k, 200.0, 20.0 + 14 * k, f"line{k}", 10 + k, 0, 0) for k in range(5)]


def test_a_line_set_at_an_angle_in_body_type_is_text() -> None:
    # A rotated caption in the body's type size: text to be found, not a watermark.
    pw = PageWords.from_raw(0, [*angled(["Approved", "by", "the", "committee"], size=10,
                                        degrees=30, block=0), *BODY])
    assert pw.lines[0].skewed and not pw.lines[0].watermark
    assert pw.atom_texts[:4] == ("approved", "by", "the", "committee")


def test_large_type_across_the_page_is_a_watermark() -> None:
    pw = PageWords.from_raw(0, [*angled(["CONFIDENTIAL", "DRAFT", "COPY"], size=30, degrees=40,
                                        block=0), *BODY])
    assert pw.lines[0].skewed and pw.lines[0].watermark
    assert "copy" not in pw.atom_texts


def test_angled_text_printed_twice_is_a_watermark() -> None:
    stamp = "For internal use only and not for distribution".split()
    copy = angled(stamp, size=10, degrees=30, block=0)
    again = angled(stamp, size=10, degrees=30, block=1, at=(100, 700))
    pw = PageWords.from_raw(0, [*copy, *again, (10, 10, 40, 20, "text", 2, 0, 0)])
    assert [ln.watermark for ln in pw.lines] == [True, True, False]
    assert pw.atom_texts == ("text",)


def test_integer_boxes_become_floats() -> None:
    pw = PageWords.from_raw(0, [(10, 10, 40, 20, "ocr", 0, 0, 0)], source="ocr")
    assert pw.words[0].rect == (10.0, 10.0, 40.0, 20.0)
    assert all(type(v) is float for v in pw.words[0].rect)
