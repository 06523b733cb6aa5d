"""The containment rule on a page: located means every quoted word is on the highlighted lines.

A quote that is a subset of the page (a stretch of it, words dropped) is located with no
difference; the same quote with one word the page lacks is shown for review, that word
named. Properties over generated pages, and the examples of the rule's reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.placement import place_on_page
from matcher.words import PageWords

BASES = ("policy insured premium coverage claim deductible dwelling liability endorsement "
         "beneficiary applicant underwriting renewal exclusion vehicle property damage limit "
         "occurrence notice period company officer agent statement answer physician flood "
         "theft water finance signature declaration office schedule rider tenant roof "
         "garage boiler").split()
# Distinct words, so that every stretch of a generated page stands on it once.
VOCABULARY = [b + s for b in BASES for s in ("", "s", "ed", "ing", "er")]
LINES, PER_LINE = 8, 9
ABSENT = ["carport", "hailstorm", "surveyor", "sprinkler"]  # never on a generated page


def page_of(words: Sequence[str]) -> PageWords:
    """A page of LINES lines of PER_LINE words, set in 10 pt type."""
    raw = []
    for k, w in enumerate(words):
        line, pos = divmod(k, PER_LINE)
        x = 72.0 + sum(6.0 * len(v) + 4.0 for v in words[line * PER_LINE:k])
        raw.append((x, 100.0 + 14 * line, x + 6.0 * len(w), 110.0 + 14 * line, w, line, 0,
                    pos))
    return PageWords.from_raw(0, raw)


@st.composite
def page_and_quote(draw: st.DrawFn, *, drop: bool = True) -> tuple[list[str], list[str]]:
    """A page's words and a quote: a stretch of them, up to 30 % dropped from inside."""
    words = draw(st.permutations(VOCABULARY))[:LINES * PER_LINE]
    n = draw(st.integers(6, 20))
    start = draw(st.integers(0, len(words) - n))
    stretch = words[start:start + n]
    inner = list(range(1, n - 1))
    most = int(0.3 * n) if drop else 0
    dropped = set(draw(st.lists(st.sampled_from(inner), max_size=most, unique=True)))
    # Never three dropped side by side: then the words left are separate places.
    for k in sorted(dropped):
        if {k - 1, k - 2} <= dropped:
            dropped.discard(k)
    return words, [w for k, w in enumerate(stretch) if k not in dropped]


@settings(max_examples=60, deadline=None)
@given(case=page_and_quote())
def test_a_quote_that_is_a_subset_of_the_page_is_located(
        case: tuple[list[str], list[str]]) -> None:
    words, quote = case
    pw = page_of(words)
    p = place_on_page(pw, " ".join(quote))
    assert p.status == "located", (quote, p.reason)
    assert p.differences == ()
    assert set(quote) <= {pw.words[w].text for w in p.words}


@settings(max_examples=60, deadline=None)
@given(case=page_and_quote(), data=st.data())
def test_one_word_the_page_lacks_makes_it_review_and_is_named(
        case: tuple[list[str], list[str]], data: st.DataObject) -> None:
    words, quote = case
    extra = data.draw(st.one_of(st.sampled_from(ABSENT), st.integers(100, 99_999).map(str)))
    at = data.draw(st.integers(0, len(quote)))
    changed = [*quote[:at], extra, *quote[at:]]
    p = place_on_page(page_of(words), " ".join(changed))
    assert p.status == "review", (changed, p.reason)
    # Named, and against a page word only where the quote dropped one beside it.
    assert [d.quote for d in p.differences] == [extra]
    assert p.differences[0].kind == ("number" if extra.isdigit() else "word")
    assert p.differences[0].page in (None, *words)
    assert f"the quote says {extra}" in p.reason.replace("'", "")


@settings(max_examples=40, deadline=None)
@given(case=page_and_quote(drop=False), data=st.data())
def test_one_word_changed_is_named_with_the_page_word_it_replaces(
        case: tuple[list[str], list[str]], data: st.DataObject) -> None:
    words, quote = case
    at = data.draw(st.integers(0, len(quote) - 1))
    extra = data.draw(st.sampled_from(ABSENT))
    changed = [*quote[:at], extra, *quote[at + 1:]]
    p = place_on_page(page_of(words), " ".join(changed))
    assert p.status == "review", (changed, p.reason)
    [d] = p.differences
    assert d.quote == extra
    # Against the page word it replaced; at either end of the quote that word may stand
    # on the line beyond the highlight, and then there is none to name.
    if 0 < at < len(quote) - 1:
        assert d.page == quote[at]
        assert f"the quote says {extra}; the page says {quote[at]}" in p.reason
    else:
        assert d.page in (quote[at], None)


@settings(max_examples=60, deadline=None)
@given(case=page_and_quote(drop=False), data=st.data())
def test_a_word_changed_to_another_word_of_the_page_is_review_and_named(
        case: tuple[list[str], list[str]], data: st.DataObject) -> None:
    # The changed word is on the page, elsewhere: "Your last name" on a form that also
    # says "Last name". Its being there does not make the quote the page's. (Not right
    # beside the quoted stretch: "policy policys …" quoted "policys policy …" is those
    # words moved, which the page holds.)
    words, quote = case
    at = data.draw(st.integers(1, len(quote) - 2))
    start = words.index(quote[0])
    near = set(words[max(0, start - 1):start + len(quote) + 1])
    elsewhere = data.draw(st.sampled_from([w for w in words if w not in near]))
    changed = [*quote[:at], elsewhere, *quote[at + 1:]]
    p = place_on_page(page_of(words), " ".join(changed))
    assert p.status == "review", (changed, p.reason)
    assert [(d.quote, d.page) for d in p.differences] == [(elsewhere, quote[at])]
    assert f"the quote says {elsewhere}; the page says {quote[at]}" in p.reason
