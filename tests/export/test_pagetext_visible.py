"""The text an export reads under a highlight (W3C quote and context, a relocated item's
"found") is what the page prints: no soft hyphen, zero-width or control character, a
line-end soft hyphen shown as "-", and the words in reading order with single spaces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.words import PageWords
from viewer.export.pagetext import select

INVISIBLE = "\u00ad\u200b\u200d\u2060\ufeff\u0007"
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
reached: list[bool] = []

word_text = st.text(st.sampled_from("abcXYZ19$" + INVISIBLE), min_size=1, max_size=6).filter(
    lambda t: any(c not in INVISIBLE for c in t))
lines = st.lists(st.lists(word_text, min_size=1, max_size=5), min_size=1, max_size=4)


def page_of(rows: list[list[str]]) -> PageWords:
    raw = [(20.0 + 40 * k, 20.0 + 20 * n, 55.0 + 40 * k, 32.0 + 20 * n, text, 0, n, k)
           for n, row in enumerate(rows) for k, text in enumerate(row)]
    return PageWords.from_raw(0, raw)


@settings(max_examples=150, deadline=None)
@given(lines, st.data())
def reads_as_printed(rows: list[list[str]], data: st.DataObject) -> None:
    page = page_of(rows)
    first = data.draw(st.integers(0, len(page.words) - 1))
    last = data.draw(st.integers(first, len(page.words) - 1))
    rects = [page.words[i].rect for i in range(first, last + 1)]
    got = select(page, rects, IDENTITY)
    for run in got.runs:
        for text in (run.exact, run.prefix, run.suffix):
            assert not any(c in INVISIBLE.replace("\u00ad", "") for c in text)
            assert "\u00ad" not in text and "  " not in text
    line_ends = {line.words[-1] for line in page.lines}
    expected = []
    for i in range(first, last + 1):
        t = page.words[i].text
        if i in line_ends and t.endswith("\u00ad"):
            t = t.rstrip("\u00ad") + "-"
        t = "".join(c for c in t if c not in INVISIBLE)
        if t:
            expected.append(t)
    assert got.found_text == " ".join(expected)
    reached.append(True)


def test_the_selection_reads_as_the_page_prints() -> None:
    reached.clear()
    reads_as_printed()
    assert len(reached) >= 100, "the property's examples reached its assertions"
