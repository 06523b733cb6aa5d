"""Folding keeps a faithful index back to the raw text."""

from hypothesis import given
from hypothesis import strategies as st

from matcher.normalize import atoms, fold, fold_char, fold_text, join_line_hyphens

# Text rich in the characters folding treats specially.
TRICKY = ("aZ ß\u00a0\u2009\t\n\u00ad\u200b\ufeff\u2014\u2013-\u2019\u201c\u201d'\""
          "\ufb01\ufb02e\u0301é.,$1")
texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=80)


@given(texts)
def test_back_map_has_an_end_entry_and_is_monotonic(raw: str) -> None:
    f = fold(raw)
    assert len(f.back) == len(f.text) + 1
    assert f.back[-1] == len(raw)
    assert list(f.back) == sorted(f.back)


@given(texts)
def test_every_folded_char_comes_from_its_raw_char(raw: str) -> None:
    f = fold(raw)
    for i, c in enumerate(f.text):
        src = raw[f.back[i]]
        assert c in fold_char(src) or (c == " " and fold_char(src) == " ")


@given(texts, st.data())
def test_raw_span_is_inside_the_text_and_covers_the_folded_range(raw: str, data: st.DataObject
                                                                  ) -> None:
    f = fold(raw)
    if not f.text:
        return
    a = data.draw(st.integers(0, len(f.text) - 1))
    b = data.draw(st.integers(a + 1, len(f.text)))
    start, end = f.raw_span(a, b)
    assert 0 <= start < end <= len(raw)
    # The raw span covers the folded range: folding it again contains the folded slice
    # (it may hold more when the range cut a multi-character expansion such as ß → ss).
    assert f.text[a:b].strip() in fold(raw[start:end]).text


def test_typography_folds_to_plain_ascii() -> None:
    raw = "\u201cThe insured\u2019s\u00a0\u00a0 ﬁre co\u00adver \u2014 all\u200b risks\u201d"
    assert fold(raw).text == '"the insured\'s fire cover - all risks"'


def test_accents_fold_alike_whether_composed_or_not() -> None:
    assert fold("Re\u0301sume\u0301").text == fold("Résumé").text == "resume"


def test_hyphenation_is_joined_only_before_lowercase() -> None:
    assert join_line_hyphens("sub-\nscription and Smith-\nJones") == \
        "subscription and Smith-\nJones"


def test_atoms_split_on_punctuation_and_drop_soft_hyphens() -> None:
    assert atoms("Policy-holder’s $1,000 de\u00adductible") == \
        ["policy", "holder", "s", "1", "000", "deductible"]


def test_hyphenation_before_a_ligature_is_joined() -> None:
    assert join_line_hyphens("the of-\n\ufb01cer signed") == "the of\ufb01cer signed"


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_ascii_fast_path_agrees_with_full_folding(text: str) -> None:
    import re
    assert atoms(text) == re.findall(r"[^\W_]+", fold(text).text)


# Characters at and around the edges of the scripts written without spaces, with others.
EDGES = "".join(chr(c) for lo, hi in ((0x0E00, 0x0E7F), (0x3040, 0x30FF), (0x3400, 0x4DBF),
                                      (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F))
                for c in (lo - 1, lo, hi, hi + 1)) + "a1 ,\u2019\u00e9"
spaced = st.text(alphabet=st.sampled_from(EDGES) | st.characters(), max_size=40)


@given(spaced)
def test_spaceless_text_is_told_and_split_as_by_the_character_class(text: str) -> None:
    """The look-up among distinct characters answers as the regular expression it
    replaced (compiled here, in the test only), and atoms split alike."""
    import re

    from matcher.normalize import _SPACELESS, _has_spaceless, spaceless_words

    spaceless = re.compile(f"[{_SPACELESS}]")
    split = re.compile(f"[{_SPACELESS}]|[^{_SPACELESS}]+")
    assert _has_spaceless(text) == bool(spaceless.search(text))
    found = re.findall(r"[^\W_]+", fold(text).text)
    expected = [p for a in found for p in split.findall(a)] if spaceless.search(text) \
        else found
    assert atoms(text) == (re.findall(r"[^\W_]+", text.lower()) if text.isascii()
                           else expected)
    assert spaceless_words(text) == (split.findall(text) if spaceless.search(text)
                                     else [text])


def test_checking_latin_text_compiles_no_spaceless_pattern() -> None:
    """The spaceless split is compiled by the first text that holds such a character."""
    from matcher.normalize import _spaceless_split

    _spaceless_split.cache_clear()
    assert atoms("The Insured\u2019s \u20ac1,000 d\u00e9ductible") == [
        "the", "insured", "s", "1", "000", "deductible"]
    assert _spaceless_split.cache_info().currsize == 0
    assert atoms("\u4fdd\u9669 No.5") == ["保", "险", "no", "5"]
    assert _spaceless_split.cache_info().currsize == 1


@given(texts)
def test_folded_text_without_its_back_map_is_the_same_text(raw: str) -> None:
    assert fold_text(raw) == fold(raw).text


@given(st.lists(texts, min_size=2, max_size=4))
def test_folded_text_does_not_depend_on_what_was_folded_before(raws: list[str]) -> None:
    """fold_text keeps a table of the characters it has met: any order gives the same."""
    first = [fold_text(r) for r in raws]
    assert [fold_text(r) for r in reversed(raws)] == first[::-1]
    assert first == [fold(r).text for r in raws]
