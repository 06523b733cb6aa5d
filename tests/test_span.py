"""Quote → raw character span: exact, typography-folded, fuzzy, and refusals."""

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from matcher.span import ACCEPT_SCORE, MAX_LENGTH_RATIO, MIN_LENGTH_RATIO, locate_span

CHUNK = ("Section 4 \u2014 Claims. The insured\u2019s deductible is $500\u00a0per claim. "
         "Notice of loss must be given within thirty days; late notice may void co\u00adver"
         "age. The \u201cPolicy Period\u201d runs twelve months from the effective date.")

words = st.lists(st.sampled_from(
    "flood fire theft policy insured claim notice cover loss premium rider term".split()),
    min_size=3, max_size=40)


@given(words, st.data())
def test_exact_substring_gives_its_own_slice(ws: list[str], data: st.DataObject) -> None:
    text = " ".join(ws)
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    quote = text[a:b]
    assume(quote.strip())
    m = locate_span(text, quote)
    assert m is not None and m.kind == "exact"
    assert text[m.start:m.end] == quote


@given(st.text(max_size=120), st.text(max_size=60))
def test_spans_are_always_inside_the_text(text: str, quote: str) -> None:
    m = locate_span(text, quote)
    if m is not None:
        assert 0 <= m.start < m.end <= len(text)


VOCABULARY = ("insured deductible premium coverage dwelling liability schedule warranty "
              "exclusion endorsement applicant signature statement property").split()


@st.composite
def near_copies(draw: st.DrawFn, *, change_a_letter: bool) -> tuple[str, str, str]:
    """A chunk of words, a run of at least six of them quoted, and the word changed.

    Either punctuation is put between two quoted words (a comma, a semicolon, a dash —
    the typography a model adds; the quote keeps every word, so the alignment is accepted
    as fuzzy with a score just under 100), or one letter inside a word is changed (a word
    the chunk does not hold: never an accepted span). The third item is the changed word.
    """
    ws = draw(st.lists(st.sampled_from(VOCABULARY), min_size=8, max_size=30))
    first = draw(st.integers(0, len(ws) - 6))
    last = draw(st.integers(first + 6, len(ws)))
    quoted = ws[first:last]
    k = draw(st.integers(0, len(quoted) - 2))
    if change_a_letter:
        at = draw(st.integers(1, len(quoted[k]) - 2))  # inside the word, never its ends
        letter = draw(st.sampled_from([c for c in "xqzjkv" if c != quoted[k][at]]))
        quoted[k] = quoted[k][:at] + letter + quoted[k][at + 1:]
    else:
        quoted[k] += draw(st.sampled_from([",", ";", ":", " -"]))
    return " ".join(ws), " ".join(quoted), quoted[k]


def test_accepted_fuzzy_spans_respect_score_and_length_ratio() -> None:
    reached: list[float] = []

    @settings(max_examples=300, deadline=None)
    @given(near_copies(change_a_letter=False))
    def accepted_spans_keep_the_rules(case: tuple[str, str, str]) -> None:
        text, quote, _ = case
        m = locate_span(text, quote)
        if m is not None and m.kind == "fuzzy" and m.score < 100:
            n = len(" ".join(quote.split()))
            ratio = (m.end - m.start) / n
            reached.append(ratio)
            event("accepted fuzzy span")
            assert m.score >= ACCEPT_SCORE
            assert MIN_LENGTH_RATIO <= ratio <= MAX_LENGTH_RATIO

    accepted_spans_keep_the_rules()
    # The rules were exercised, not skipped: most near-copies are accepted fuzzy spans.
    assert len(reached) >= 150, len(reached)


def test_a_quoted_word_the_chunk_lacks_is_never_an_accepted_span() -> None:
    reached = 0

    @settings(max_examples=200, deadline=None)
    @given(near_copies(change_a_letter=True))
    def changed_words_go_to_review(case: tuple[str, str, str]) -> None:
        nonlocal reached
        text, quote, changed = case
        m = locate_span(text, quote)
        if m is not None:  # aligned: at most review, and the changed word is named
            reached += 1
            assert not m.accepted and m.kind == "review"
            assert changed in [d.quote for d in m.differences]

    changed_words_go_to_review()
    assert reached >= 150, reached


def test_typography_variants_give_exactly_the_raw_words() -> None:
    cases = {
        "The insured's deductible is $500 per claim.":
            "The insured\u2019s deductible is $500\u00a0per claim.",
        "Section 4 - Claims.": "Section 4 \u2014 Claims.",
        "Section 4 – Claims.": "Section 4 \u2014 Claims.",
        "late notice may void coverage.": "late notice may void co\u00adverage.",
        'The "Policy Period" runs': "The \u201cPolicy Period\u201d runs",
        "THE INSURED’S DEDUCTIBLE": "The insured\u2019s deductible",
    }
    for quote, expected in cases.items():
        m = locate_span(CHUNK, quote)
        assert m is not None, quote
        assert CHUNK[m.start:m.end] == expected, quote
        assert m.kind in ("exact", "fuzzy") and m.accepted


def test_ligatures_in_the_chunk_match_plain_letters() -> None:
    chunk = "The \ufb01re and \ufb02ood bene\ufb01ts apply."
    m = locate_span(chunk, "fire and flood benefits")
    assert m is not None and chunk[m.start:m.end] == "\ufb01re and \ufb02ood bene\ufb01ts"


def test_quote_at_the_very_end_of_the_chunk() -> None:
    chunk = "Renewal is automatic unless cancelled in writ\u00ading\u00a0"
    m = locate_span(chunk, "cancelled in writing")
    assert m is not None and chunk[m.start:m.end] == "cancelled in writ\u00ading"


def test_reworded_quote_goes_to_review_not_exact() -> None:
    m = locate_span(CHUNK, "Notice of loss has to be given within thirty days")
    assert m is not None and m.kind == "review"
    assert "Notice of loss" in CHUNK[m.start:m.end]


def test_short_chunk_inside_long_quote_fails_the_length_ratio() -> None:
    # The whole chunk aligns perfectly inside the quote (score 100), yet the span is far
    # shorter than the quote: storing it would claim the chunk holds the whole quote.
    chunk = "Claims must be reported promptly."
    quote = "Claims must be reported promptly. Late reports void all cover under this policy."
    m = locate_span(chunk, quote)
    assert m is not None and m.kind == "review" and "length" in m.reason


def test_invented_and_empty_quotes_get_no_span() -> None:
    assert locate_span(CHUNK, "Earthquake damage is excluded in all territories") is None
    assert locate_span(CHUNK, "   ") is None
    assert locate_span(CHUNK, "") is None


def test_worse_quotes_score_strictly_lower() -> None:
    good = locate_span(CHUNK, "Notice of loss must be given within thirty day")
    worse = locate_span(CHUNK, "Notice of loss must be given within thirty weeks")
    assert good is not None and worse is not None
    assert good.score > worse.score
