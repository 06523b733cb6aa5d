"""matcher.diff: a quote against the found text, word by word.

Every quoted word must be in the found text (words dropped are fine); figures compare
whole and by their digit groups; a negation counts only where it stands in the quoted
order; known extraction variants are not differences.
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import matcher.alignment
import matcher.diff
import matcher.negation
import matcher.variants
from matcher.diff import Difference, describe, diff_quote, is_negation


def named(quote: str, found: str, **kw: bool) -> list[tuple[str, str | None, str | None]]:
    return [(d.kind, d.quote, d.page) for d in diff_quote(quote, found, **kw).differences]


@pytest.mark.parametrize(("quote", "found", "want"), [
    ("the premium is $952.18 a year", "The premium is $925.18 a year",
     [("number", "$952.18", "$925.18")]),
    ("signed on 06/19/2024", "signed on 06/19/2025", [("number", "06/19/2024", "06/19/2025")]),
    ("a shorter-term loan", "a longer-term loan", [("word", "shorter-term", "longer-term")]),
    ("The company will not pay for direct loss", "The company will pay for direct loss",
     [("negation", "not", None)]),
    ("It doesn't apply", "It does apply", [("negation", "doesn't", "does")]),
    # A negation the quote leaves out, inside its passage, also across a line break.
    ("The policy does cover flood", "The policy does not cover flood",
     [("negation", None, "not")]),
    # "16" is on the page, but as a page number: one figure must stand whole.
    ("Form CMS-1490S (version 01/16)", "16 / Form CMS-1490S (version 01/18)",
     [("number", "01/16", "01/18")]),
    # Digit groups: the glyph between them is typography, the grouping is not.
    ("paid $1650", "paid $1,650", [("number", "$1650", "$1,650")]),
    ("paid $16.50", "paid $1,650", [("number", "$16.50", "$1,650")]),
    # "below" said twice where the page says "above" the second time is a change.
    ("complete the form below and show what is shown below",
     "complete the form below and show what is shown above",
     [("word", "below", "above")]),
    ("nicht versichert ist das Haus", "versichert ist das Haus", [("negation", "nicht", None)]),
    ("Le contrat n'est pas valable", "Le contrat est valable",
     [("negation", "n'est", None), ("negation", "pas", None)]),
])
def test_a_changed_fact_is_named(quote: str, found: str,
                                 want: list[tuple[str, str | None, str | None]]) -> None:
    assert named(quote, found) == want


@pytest.mark.parametrize(("quote", "found"), [
    ("begins on the date of subscription", "begins on the date of sub- scription to"),
    ("begins on the date of sub- scription", "begins on the date of subscription to"),
    ("check-in time", "check- in time"),
    ("check- in", "checkin"),
    ("FAA- approved MEL", "FAA-approved MEL"),
    ("area 12 m2", "area 12 m 2"),
    ("area x\u00b2 here", "area x 2 here"),
    ("paid $1 650", "paid $1,650"),
    ("paid $1\u202f650", "paid $1.650"),
    ("\ufb01nal \u201cquoted\u201d rates \u2014 de\u00adductible",
     "final \"quoted\" rates - deductible"),
    ("Signature of Applicant Elena K. Lindqvist, Date 06/19/2025",
     "/s/ Elena K. Lindqvist / Elena K. Lindqvist / 06/19/2025 / Signature of Applicant / Date"),
    ("Relationship to applicant Son Relationship to applicant Spouse",
     "Relationship to applicant / Son / Spouse"),
])
def test_known_variants_are_not_differences(quote: str, found: str) -> None:
    assert named(quote, found) == []


@pytest.mark.parametrize(("quote", "found", "want"), [
    # The changed word stands on another highlighted line (a form's label), or the
    # changed figure on a line of its own (an item number): in order, the found text has
    # another word at its place.
    ("Your last name and initial", ["Your first name and initial", "Last name"],
     [("word", "last", "first")]),
    ("Amount from line 12a (adjusted gross income)",
     ["Amount from line 11a (adjusted gross income) .", "12a"], [("number", "12a", "11a")]),
    ("SECTION 8 — PROPERTY AND LOSS HISTORY",
     ["SECTION 5 — PROPERTY AND LOSS HISTORY", "Answer questions 7 through 10.", "8."],
     [("number", "8", "5")]),
    ("or some of the costs of this proposed AD",
     ["According to the manufacturer, some", "or all of the costs of this proposed AD"],
     [("word", "some", "all")]),
    # The quote says "1" twice; the page's second place says "6", its "1." is an item.
    ("answer questions 1 through 6 as shown below question 1, including dates, diagnoses "
     "and the name of each physician",
     ["answer questions 1 through 6 as shown below question 6, in-",
      "cluding dates, diagnoses and the name of each physician.", "1."],
     [("number", "1", "6")]),
])
def test_a_changed_word_that_stands_elsewhere_is_named(
        quote: str, found: list[str], want: list[tuple[str, str | None, str | None]]) -> None:
    assert named(quote, found) == want


@pytest.mark.parametrize(("quote", "found"), [
    # Figures swapped: each stands whole on the page, the digit group "18" they share
    # notwithstanding.
    ("$952.18 the the $925.18", "$925.18 the the $952.18"),
    ("item 18 costs $925.18", "item $925.18 costs 18"),
    # Words moved within the passage, or a line quoted before the one above it, with
    # words dropped: order-free, the same.
    ("the date the the premium is received", "the later of the date the first premium is "
                                              "received"),
    ("files an application of claim containing any information",
     ["statement of claim containing any materially false information",
      "Any person who files an application for insurance or"]),
])
def test_what_is_moved_or_repeated_is_not_a_difference(quote: str, found: str | list[str]
                                                       ) -> None:
    assert named(quote, found) == []


def test_an_ocr_misreading_is_the_word_only_on_ocr_pages() -> None:
    assert named("Fecha de Expiracion", "Fecha de Expiraci6n", ocr=True) == []
    assert named("Fecha de Expiracion", "Fecha de Expiraci6n") == \
        [("number", "Expiracion", "Expiraci6n")]
    # A figure is never a misreading, on any page.
    assert named("expires 2015", "expires 2016", ocr=True) == [("number", "2015", "2016")]


def test_a_negation_taken_from_another_clause_is_not_the_quotes() -> None:
    found = "the insurer will pay for the loss. Flood damage is not covered."
    assert named("the insurer will not pay for the loss", found) == [("negation", "not", None)]
    # The quote's own "not", in its place, is the same.
    assert named("Flood damage is not covered", found) == []


def test_tokens_mark_what_differs_and_what_was_dropped() -> None:
    d = diff_quote("premium $952.18 a year", ["Annual premium $925.18", "a year, due now"])
    assert [(t.text, t.op, t.against) for t in d.quote] == [
        ("premium", "same", None), ("$952.18", "differs", "$925.18"), ("a", "same", None),
        ("year", "same", None)]
    assert [(t.text, t.op, t.line) for t in d.found] == [
        ("Annual", "dropped", 0), ("premium", "same", 0), ("$925.18", "differs", 0),
        ("a", "same", 1), ("year,", "same", 1), ("due", "dropped", 1), ("now", "dropped", 1)]
    assert d.found[2].kind == "number" and not d.contained


def test_in_order_share_tells_a_rearranged_header_apart() -> None:
    assert diff_quote("Part 1, Section 2", "Part 1, Section 2").in_order == 1.0
    rearranged = diff_quote("Part 1, Section 2", "Part 2, Section 1")
    assert rearranged.in_order < 1.0
    # ...and its two numbers, exchanged, each stand against the other's: a passage read
    # with two figures swapped states what it does not hold (issue #21).
    assert [(d.quote, d.page) for d in rearranged.differences] == [("1", "2"), ("2", "1")]


def test_the_reason_says_it_in_words() -> None:
    diffs = [Difference("number", "$952.18", "$925.18"), Difference("negation", "not", None),
             Difference("negation", None, "never"), Difference("word", "a", "b"),
             Difference("word", "c", None)]
    text = describe(diffs)
    assert text.startswith("the quote says $952.18; the page says $925.18; the quote says "
                           "'not', which the page does not; the page says 'never', which "
                           "the quote leaves out")
    assert text.endswith("and 2 more differences")
    assert describe(diffs[:1], where="chunk") == "the quote says $952.18; the chunk says $925.18"


@pytest.mark.parametrize(("word", "negates"), [
    ("not", True), ("Never,", True), ("can't", True), ("doesn\u2019t", True), ("keinen", True),
    ("n'est", True), ("sans", True), ("sin", True), ("senza", True), ("não", True),
    ("non-smoker", True), ("不", True), ("note", False), ("nothingness", False),
    ("knot", False), ("mai", False),
])
def test_what_counts_as_a_negation(word: str, negates: bool) -> None:
    assert is_negation(word) is negates


def test_the_doctests_hold() -> None:
    for module in (matcher.diff, matcher.variants, matcher.alignment, matcher.negation):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


# --- Properties ---------------------------------------------------------------------------

VOCABULARY = ("policy insured premium coverage claim deductible dwelling liability "
              "endorsement beneficiary applicant underwriting renewal exclusion vehicle "
              "property damage limit occurrence notice period written company officer agent "
              "statement answer medical history physician flood theft fire water finance "
              "signature declaration effective office annual schedule rider").split()
words = st.lists(st.sampled_from(VOCABULARY), min_size=4, max_size=30)


@settings(max_examples=300, deadline=None)
@given(found=words, data=st.data())
def test_any_subsequence_of_the_found_words_is_contained(found: list[str],
                                                         data: st.DataObject) -> None:
    keep = data.draw(st.lists(st.booleans(), min_size=len(found), max_size=len(found)))
    quote = [w for w, k in zip(found, keep, strict=True) if k] or found[:1]
    d = diff_quote(" ".join(quote), " ".join(found))
    assert d.differences == () and all(t.op == "same" for t in d.quote)


@settings(max_examples=300, deadline=None)
@given(found=words, data=st.data())
def test_the_found_words_in_any_order_are_contained(found: list[str],
                                                    data: st.DataObject) -> None:
    quote = data.draw(st.permutations(found))
    # Two words exchanged (or three rotated), all else in order, is a change (the next
    # test's business).
    assume(not _one_swap(quote, found))
    assert diff_quote(" ".join(quote), " ".join(found)).differences == ()


def _one_swap(quote: list[str], found: list[str]) -> bool:
    """Whether exchanging two different words at least two apart turns ``quote`` into
    ``found``, or rotating three words each at least two from the next does."""
    n = len(quote)
    for i in range(n):
        for j in range(i + 2, n):
            if quote[i] != quote[j] and \
                    [*quote[:i], quote[j], *quote[i + 1:j], quote[i], *quote[j + 1:]] == found:
                return True
    off = [k for k in range(n) if quote[k] != found[k]]
    return len(off) == 3 and sorted(quote[k] for k in off) == sorted(found[k] for k in off) \
        and off[1] - off[0] >= 2 and off[2] - off[1] >= 2


SWAPPED = {"reached": 0}


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_two_words_swapped_with_each_other_are_both_named(data: st.DataObject) -> None:
    # "the last day … the first" for "the first day … the last": every word stands in
    # the found text, each of the two at the other's place.
    found = data.draw(st.lists(st.sampled_from(DISTINCT), min_size=4, max_size=20,
                               unique=True))
    i = data.draw(st.integers(0, len(found) - 3))
    j = data.draw(st.integers(i + 2, len(found) - 1))
    quote = list(found)
    quote[i], quote[j] = found[j], found[i]
    got = diff_quote(" ".join(quote), " ".join(found)).differences
    assert sorted((x.kind, x.quote, x.page) for x in got) == \
        sorted([("word", found[j], found[i]), ("word", found[i], found[j])])
    SWAPPED["reached"] += 1


def test_the_swap_property_reached_its_assertion() -> None:
    # Runs after the property (file order): it must have checked examples, not skipped.
    assert SWAPPED["reached"] >= 100


@settings(max_examples=300, deadline=None)
@given(found=words, data=st.data(),
       extra=st.one_of(st.sampled_from(["carport", "hailstorm", "surveyor"]),
                       st.integers(10, 99_999).map(str)))
def test_one_word_the_found_text_lacks_is_named(found: list[str], data: st.DataObject,
                                                extra: str) -> None:
    at = data.draw(st.integers(0, len(found)))
    quote = [*found[:at], extra, *found[at:]]
    d = diff_quote(" ".join(quote), " ".join(found))
    assert [x.quote for x in d.differences] == [extra]
    assert d.differences[0].kind == ("number" if extra.isdigit() else "word")


DISTINCT = sorted(set(VOCABULARY))


def _two_places(data: st.DataObject, n: int) -> tuple[int, int]:
    i, j = sorted(data.draw(st.lists(st.integers(0, n), min_size=2, max_size=2, unique=True)))
    return i, j


@settings(max_examples=200, deadline=None)
@given(found=words, data=st.data(), cents=st.integers(10, 99),
       amounts=st.lists(st.integers(100, 9999), min_size=2, max_size=2, unique=True))
def test_two_figures_swapped_in_order_are_both_contained(
        found: list[str], data: st.DataObject, cents: int, amounts: list[int]) -> None:
    # "$952.18 … $925.18" against "$925.18 … $952.18": the digit group the two share
    # must not tie one figure to the other.
    first, second = (f"${a}.{cents}" for a in amounts)
    i, j = _two_places(data, len(found))
    page = [*found[:i], first, *found[i:j], second, *found[j:]]
    quote = [*found[:i], second, *found[i:j], first, *found[j:]]
    assert diff_quote(" ".join(quote), " ".join(page)).differences == ()


@settings(max_examples=200, deadline=None)
@given(found=words, data=st.data(),
       groups=st.lists(st.integers(10, 99), min_size=4, max_size=4, unique=True))
def test_a_figure_whose_groups_stand_only_in_other_figures_is_named(
        found: list[str], data: st.DataObject, groups: list[int]) -> None:
    # The quote's "a/d": its "a" stands in the page's "a/b", its "d" in "c/d".
    a, b, c, d = groups
    i, j = _two_places(data, len(found))
    page = [*found[:i], f"{a}/{b}", *found[i:j], f"{c}/{d}", *found[j:]]
    quote = [*found[:i], f"{a}/{d}", *found[i:j], f"{c}/{d}", *found[j:]]
    got = diff_quote(" ".join(quote), " ".join(page)).differences
    assert [(x.kind, x.quote) for x in got] == [("number", f"{a}/{d}")]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), above=st.booleans())
def test_a_word_changed_to_one_on_another_line_is_named_against_the_word_it_replaced(
        data: st.DataObject, above: bool) -> None:
    # "Your last name and initial" against "Your first name and initial" / "Last name".
    vocab = data.draw(st.permutations(DISTINCT))
    n1, n2 = data.draw(st.integers(4, 12)), data.draw(st.integers(1, 6))
    line, other = vocab[:n1], vocab[n1:n1 + n2]
    at = data.draw(st.integers(1, n1 - 2))
    new = data.draw(st.sampled_from(other))
    quote = [*line[:at], new, *line[at + 1:]]
    lines = [" ".join(other), " ".join(line)] if above else [" ".join(line), " ".join(other)]
    got = diff_quote(" ".join(quote), lines).differences
    assert [(x.kind, x.quote, x.page) for x in got] == [("word", new, line[at])]


@settings(max_examples=200, deadline=None)
@given(found=words, data=st.data(), size=st.integers(1, 6))
def test_lines_quoted_in_another_order_are_contained(found: list[str], data: st.DataObject,
                                                     size: int) -> None:
    lines = [found[k:k + size] for k in range(0, len(found), size)]
    order = data.draw(st.permutations(range(len(lines))))
    quote = [w for k in order for w in lines[k]]
    assume(not _one_swap(quote, found))  # two one-word lines exchanged: two words swapped
    assert diff_quote(" ".join(quote), [" ".join(ln) for ln in lines]).differences == ()
