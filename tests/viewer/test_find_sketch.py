"""The first search's page filter (viewer.checker.find_sketch) over real PDFs: searching
with it finds exactly the hits a search folding every page finds, and a page it rules out
never holds the query (pieces of each page's own folded text, across words, lines and
hyphen joins, are always let through). No timing here: bench_find.py measures the speed."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from matcher.document import PdfSource
from viewer.checker.find import KeptDocument, find_on_page, fold_page, search
from viewer.checker.find_sketch import may_hold, sketch_page

BOOK = "text_free_culture_book.pdf"


def _all_hits(path: Path, query: str, *, sketch: bool) -> list[tuple[int, object]]:
    with PdfSource(path) as source:
        kept = KeptDocument()
        found = list(search(kept, source.page_count,
                            lambda n, raw: source.page_words(n, raw=raw), query,
                            raw=source.text_layer if sketch else None, start=3))
    return [(done, hits) for done, hits in found]


def lines_pdf(path: Path, lines: list[str]) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(lines):
        page.insert_text((72, 90 + i * 16), line, fontsize=11, fontname="helv")
    doc.save(path)
    doc.close()
    return path


def _corpus_pdfs(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.glob("*.pdf") if not p.name.startswith("scanned_"))


@pytest.mark.parametrize("query", ["insurance", "the public"])
def test_the_book_gives_the_same_hits_with_the_filter(corpus: Path, query: str) -> None:
    book = corpus / BOOK
    with_filter = _all_hits(book, query, sketch=True)
    without = _all_hits(book, query, sketch=False)
    assert with_filter == without
    assert sum(len(h) for _, h in with_filter) > 0  # the comparison saw hits


def test_a_page_ruled_out_never_holds_a_piece_of_its_own_text(corpus: Path) -> None:
    """Substrings of each page's folded text (any start and length: inside a word, across
    words, across a line break joined at a hyphen) are never ruled out on that page."""
    rng = random.Random(26)
    checked = joined = 0
    for path in _corpus_pdfs(corpus):
        with pymupdf.open(path) as doc, PdfSource(path) as source:
            numbers = range(doc.page_count) if doc.page_count <= 40 else \
                rng.sample(range(doc.page_count), 40)
            for n in numbers:
                layer = source.text_layer(n)
                sketch = sketch_page(None if layer is None else layer.text)
                if sketch is None:
                    continue
                folded = fold_page(source.page_words(n))
                text = folded.text
                heads = [i for i, w in enumerate(folded.words) if w.endswith("-")]
                for _ in range(30):
                    if len(text) < 2:
                        break
                    a = rng.randrange(len(text) - 1)
                    needle = text[a:a + rng.randint(1, 40)].strip()
                    if not needle or not find_on_page(folded, n, needle):
                        continue
                    assert may_hold(sketch, needle), (path.name, n, needle)
                    checked += 1
                owners = folded.owner.tolist()
                for wi in heads:  # a piece across each hyphen-joined line break
                    at = owners.index(wi) if wi in owners else -1
                    end = at + len(folded.words[wi]) - 1
                    needle = text[max(0, end - 4):end + 3].strip()
                    if at >= 0 and needle and find_on_page(folded, n, needle):
                        assert may_hold(sketch, needle), (path.name, n, needle)
                        joined += 1
    assert checked > 1000
    assert joined > 0


def test_the_filter_rules_out_pages_without_the_query(tmp_path: Path) -> None:
    pdf = lines_pdf(tmp_path / "t.pdf", ["Premium due on the first of May", "Excess fifty"])
    with PdfSource(pdf) as source:
        layer = source.text_layer(0)
        assert layer is not None
        sketch = sketch_page(layer.text)
    assert sketch is not None
    assert may_hold(sketch, "premium due") and may_hold(sketch, "ess fif")
    assert not may_hold(sketch, "deductible") and not may_hold(sketch, "due june")
    assert may_hold(sketch, "due may")  # each piece on its own: order is left to the fold


def test_a_word_hyphenated_at_a_line_end_is_found_whole(tmp_path: Path) -> None:
    pdf = lines_pdf(tmp_path / "h.pdf", ["the annual sub-", "scription is due"])
    hits = _all_hits(pdf, "subscription", sketch=True)
    assert hits == _all_hits(pdf, "subscription", sketch=False)
    assert sum(len(h) for _, h in hits) == 1
