"""Find in the check process: the matcher's folding, hits as word boxes (across line breaks
too), streamed before the reply, cancellable; and the results' order and wording. No Qt.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.words import PageWords
from viewer.checker.client import CheckClient
from viewer.checker.find import find_on_page, fold_page, fold_query, search_order
from viewer.state.find import FindHit, FindResults

from .helpers import text_pdf


@pytest.fixture
def client() -> Iterator[CheckClient]:
    c = CheckClient()
    yield c
    c.stop()


def typeset(path: Path, lines: list[str]) -> Path:
    """A one-page PDF of these lines, set as a typesetter sets them: curly quotes, dashes and
    ligature characters in the text layer (a TextWriter with Times keeps them)."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    for i, line in enumerate(lines):
        writer.append((72, 90 + i * 18), line, font=pymupdf.Font("tiro"), fontsize=11)
    writer.write_text(page)
    doc.save(path)
    doc.close()
    return path


def word_boxes(pdf: Path, page: int, words: list[str]) -> list[tuple[float, ...]]:
    """PyMuPDF's own boxes of these words (the first of each), to compare hits with."""
    with pymupdf.open(pdf) as doc:
        found = doc[page].get_text("words")
    return [next(w[:4] for w in found if w[4] == text) for text in words]


def union(boxes: list[tuple[float, ...]]) -> tuple[float, ...]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def test_typography_and_case_do_not_matter(client: CheckClient, tmp_path: Path) -> None:
    pdf = typeset(tmp_path / "t.pdf", ["The insured\u2019s \ufb01nal premium \u2014 due in June",
                                       "is \u201cpayable\u201d at the ofﬁce."])
    found: list[FindHit] = []
    client.find(pdf, "INSURED'S FINAL premium - due", found=found.extend)
    assert [h.text for h in found] == ["insured\u2019s \ufb01nal premium \u2014 due"]
    assert found[0].rects == (union(word_boxes(pdf, 0, ["insured\u2019s", "due"])),)
    found.clear()
    client.find(pdf, '"payable" at the office', found=found.extend)
    assert len(found) == 1 and found[0].text.startswith("\u201cpayable")


def test_a_hit_may_span_a_line_break_and_a_hyphenated_word(client: CheckClient,
                                                         tmp_path: Path) -> None:
    pdf = typeset(tmp_path / "h.pdf", ["The applicant must sign the sub-",
                                       "scription page within thirty days."])
    found: list[FindHit] = []
    client.find(pdf, "sign the subscription page", found=found.extend)
    assert len(found) == 1
    top, bottom = found[0].rects  # one rectangle per line
    assert top == union(word_boxes(pdf, 0, ["sign", "sub-"]))
    assert bottom == union(word_boxes(pdf, 0, ["scription", "page"]))


def test_hits_stream_before_the_reply_and_a_search_can_be_cancelled(
        client: CheckClient, tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "long.pdf", pages=250)
    batches: list[int] = []
    arrived = threading.Event()

    def found(hits: tuple[FindHit, ...]) -> None:
        batches.append(len(hits))
        arrived.set()

    read = client.find(pdf, "heading", found=found, cancel=arrived.is_set)
    assert batches and batches[0] >= 1  # heard before the reply came
    assert 0 < read < 250  # it stopped part way
    batches.clear()
    assert client.find(pdf, "heading", start=240, found=found) == 250  # the whole document
    pages = [h.page for h in _all(client, pdf, "heading", start=240)]
    assert pages[:10] == list(range(240, 250)) and pages[10] == 0  # from the start page on


def _all(client: CheckClient, pdf: Path, query: str, start: int = 0) -> list[FindHit]:
    out: list[FindHit] = []
    client.find(pdf, query, start=start, found=out.extend)
    return out


def test_a_document_that_cannot_be_opened_fails_in_words(client: CheckClient,
                                                         tmp_path: Path) -> None:
    from viewer.checker.protocol import CheckerError

    with pytest.raises(CheckerError, match="file not found"):
        client.find(tmp_path / "gone.pdf", "anything")


def test_search_order_reads_every_page_once_from_the_start() -> None:
    assert list(search_order(5, 3)) == [3, 4, 0, 1, 2]
    assert list(search_order(5, 99)) == [4, 0, 1, 2, 3]
    assert list(search_order(0, 0)) == []


WORD = st.text(alphabet="abcdefgh", min_size=1, max_size=6)
CURLY = str.maketrans({"'": "\u2019", "-": "\u2013"})


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.lists(WORD, min_size=1, max_size=6), min_size=1, max_size=6),
       data=st.data())
def test_any_run_of_words_is_found_as_exactly_those_words(lines: list[list[str]],
                                                          data: st.DataObject) -> None:
    # Words laid out on lines, as PyMuPDF reports them; a run of consecutive words (it may
    # cross lines) typed in capitals with curly typography must be found, and its hit must
    # cover exactly its words, one rectangle per line.
    raw, y = [], 0.0
    for li, line in enumerate(lines):
        x = 0.0
        for wi, word in enumerate(line):
            # An apostrophe and a hyphen inside words, to be typed curly and as a dash
            # (never a hyphen at a line's end: that joins the next line's first word).
            text = {0: f"{word}'s", 1: f"well-{word}"}.get(wi, word)
            raw.append((x, y, x + 6 * len(text), y + 10, text, 0, li, wi))
            x += 6 * len(text) + 4
        y += 14
    page = PageWords.from_raw(0, raw)
    flat = [(i, w[6]) for i, w in enumerate(raw)]
    first = data.draw(st.integers(0, len(flat) - 1))
    last = data.draw(st.integers(first, min(len(flat) - 1, first + 8)))
    typed = " ".join(raw[i][4] for i in range(first, last + 1)).upper().translate(CURLY)
    hits = find_on_page(fold_page(page), 0, fold_query(typed))
    chosen = range(first, last + 1)
    by_line: dict[int, list[tuple[float, ...]]] = {}
    for i in chosen:
        by_line.setdefault(raw[i][6], []).append(raw[i][:4])
    expected = tuple(union(boxes) for boxes in by_line.values())
    # The same words may stand twice on the page: one of the hits is exactly these words.
    assert expected in [h.rects for h in hits], (typed, [h.text for h in hits])
    assert all(h.text.lower() == " ".join(raw[i][4] for i in chosen).lower()
               for h in hits if h.rects == expected)


def hit(page: int) -> FindHit:
    return FindHit(page, ((0.0, 0.0, 1.0, 1.0),), "", "x", "")


def test_results_keep_page_order_and_start_where_the_reader_is() -> None:
    results = FindResults()
    results.start("x", document="a.pdf", pages=10, start_page=6)
    results.add([hit(7), hit(7)])
    assert results.current == 0 and results.status_text().startswith("Searching… 2 matches")
    results.add([hit(2)])  # the search wrapped round: earlier pages come last
    assert [h.page for h in results.hits] == [2, 7, 7]
    assert results.current_hit() is results.hits[1]  # still the first on page 7
    results.finish()
    assert results.status_text() == "2 of 3 matches"
    assert results.step(1) is results.hits[2]
    assert results.step(1) is results.hits[0]  # wraps
    assert results.step(-1) is results.hits[2]


def test_results_say_when_nothing_was_found_or_the_search_stopped() -> None:
    results = FindResults()
    results.start("x", document="a.pdf", pages=10, start_page=8)
    results.progress(4, 10)
    results.add([hit(0)])  # before the start page: current only once all is read
    assert results.current == -1
    results.stop()
    assert results.status_text() == "1 match (stopped after 4 of 10 pages)"
    results.start("y", document="a.pdf", pages=10)
    results.finish()
    assert results.status_text() == "No matches" and results.step(1) is None
