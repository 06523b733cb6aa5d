"""The sidecar's minimal reader behind ``apply_review``: decisions matched by claim and
index, stale when the quote's or the document's hash no longer matches."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from viewer.export.sidecar import ReviewError, apply_review, default_review_path


def report(pdf: Path) -> dict[str, object]:
    ev = {"index": 0, "status": "located", "reason": "", "quote": "the quote",
          "document_path": str(pdf), "page": 1, "rects": [[1, 2, 3, 4]]}
    return {"summary": {}, "claims": [
        {"id": "c1", "evidence": [ev, {**ev, "index": 1, "quote": "another"}]},
        {"id": "c2", "evidence": []}]}


def sidecar(path: Path, **entry: object) -> Path:
    path.write_text(json.dumps({"version": 1, "citations": "a.cite", "history": [],
                                "evidence": [{"claim": "c1", "index": 0,
                                              "placement": "confirmed", **entry}],
                                "claims": [{"claim": "c2", "support": "uncitable",
                                            "note": "n"}]}), encoding="utf-8")
    return path


def test_decisions_land_on_their_items(tmp_path: Path) -> None:
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(b"%PDF-1.7 fake")
    before = report(pdf)
    kept = copy.deepcopy(before)
    got = apply_review(before, sidecar(tmp_path / "a.review.json", note="ok",
                                       reviewer="ana"))
    assert before == kept  # a copy is returned
    first, second = got["claims"][0]["evidence"]  # type: ignore[index]
    assert first["decision"]["placement"] == "confirmed" and first["decision"]["stale"] is False
    assert first["decision"]["reviewer"] == "ana" and second["decision"] is None
    assert got["claims"][0]["support"] is None  # type: ignore[index]
    assert got["claims"][1]["support"]["support"] == "uncitable"  # type: ignore[index]


@pytest.mark.parametrize(("quote", "document", "stale"), [
    ("the quote", b"%PDF-1.7 fake", False), ("the quote!", b"%PDF-1.7 fake", True),
    ("the quote", b"%PDF-1.7 changed", True)])
def test_a_changed_quote_or_document_makes_it_stale(tmp_path: Path, quote: str,
                                                   document: bytes, stale: bool) -> None:
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(b"%PDF-1.7 fake")
    review = sidecar(tmp_path / "a.review.json",
                     quote_sha256=hashlib.sha256(quote.encode()).hexdigest(),
                     document_sha256=hashlib.sha256(document).hexdigest())
    got = apply_review(report(pdf), review)
    assert got["claims"][0]["evidence"][0]["decision"]["stale"] is stale  # type: ignore[index]


def test_where_the_review_is_and_what_is_refused(tmp_path: Path) -> None:
    assert default_review_path(tmp_path / "answer.cite") == tmp_path / "answer.review.json"
    assert default_review_path(tmp_path / "x.json") == tmp_path / "x.review.json"
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "evidence": [{"claim": "c1", "index": 0}]}')
    with pytest.raises(ReviewError, match=r"bad.json: \$.evidence\[0\]: missing placement"):
        apply_review(report(tmp_path / "p.pdf"), bad)
    with pytest.raises(ReviewError, match="folder"):
        apply_review(report(tmp_path / "p.pdf"), tmp_path)
