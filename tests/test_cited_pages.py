"""``cited_pages`` and ``rejected`` on an evidence item (compatible additions to the
citations file): every cited page searched first, a quote found only elsewhere at most
review, and an item that cannot be checked reported rejected with its reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from matcher.check import check_citations
from matcher.citations import CitationsError, json_schema, parse_citations
from tests.simplepdf import paragraph, write_pdf

PAGES = [["Schedule of cover", "Buildings sum insured: $410,000"],
         ["Contents sum insured: $62,500", "Accidental damage is included for contents."],
         ["Endorsement 4", "Garden walls and fences are covered up to $5,000."]]


def check(tmp_path: Path, evidence: dict[str, Any]) -> dict[str, Any]:
    write_pdf(tmp_path / "p.pdf", [paragraph(p) for p in PAGES])
    cf = parse_citations({"documents": [{"id": "p", "path": "p.pdf"}],
                          "claims": [{"id": "c1", "evidence": [evidence]}]})
    report = check_citations(cf, tmp_path / "a.cite")
    out: dict[str, Any] = report.claims[0].evidence[0].model_dump()
    return out


@pytest.mark.parametrize("cited", [[1, 2], [2, 3], [2]])
def test_the_quote_on_any_cited_page_is_located(tmp_path: Path, cited: list[int]) -> None:
    ev = check(tmp_path, {"quote": "Accidental damage is included for contents.",
                          "cited_pages": cited})
    assert (ev["status"], ev["page"]) == ("located", 2)
    assert "outside" not in ev["reason"]


def test_a_quote_off_its_cited_pages_is_review(tmp_path: Path) -> None:
    ev = check(tmp_path, {"quote": "Garden walls and fences are covered up to $5,000.",
                          "cited_pages": [1, 2]})
    assert (ev["status"], ev["page"]) == ("review", 3)
    assert ev["reason"].startswith("outside the pages the answer cited (pages 1–2): ")
    # A page hint is not a promise: the same quote with `page` is located elsewhere.
    hinted = check(tmp_path, {"quote": "Garden walls and fences are covered up to $5,000.",
                              "page": 1})
    assert (hinted["status"], hinted["page"]) == ("located", 3)


def test_a_rejected_item_is_never_searched(tmp_path: Path) -> None:
    ev = check(tmp_path, {"quote": "Contents sum insured: $62,500",
                          "rejected": "cites a web page, not a document"})
    assert (ev["status"], ev["reason"], ev["page"]) == (
        "rejected", "cites a web page, not a document", None)


def test_cited_pages_count_from_one_and_are_in_the_schema() -> None:
    with pytest.raises(CitationsError) as err:
        parse_citations({"documents": [{"id": "p", "path": "p.pdf"}], "claims": [
            {"id": "c1", "evidence": [{"quote": "q", "cited_pages": [1, 0]}]}]})
    assert "$.claims[0].evidence[0].cited_pages[1]: pages are 1-based" in str(err.value)
    props = json_schema()["$defs"]["Evidence"]["properties"]
    assert "cited_pages" in props and "rejected" in props
    # A rejected item needs no document even when the file lists several.
    parse_citations({"documents": [{"id": "a", "path": "a.pdf"}, {"id": "b", "path": "b.pdf"}],
                     "claims": [{"id": "c1", "evidence": [{"quote": "q", "rejected": "web"}]}]})
