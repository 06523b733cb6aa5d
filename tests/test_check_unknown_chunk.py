"""A quote citing a chunk id the file does not have stays rejected, without a highlight, and
its reason says whether the quote's words stand in the document anyway."""

from __future__ import annotations

import json
from pathlib import Path

from matcher.check import check_citations
from matcher.citations import load_citations
from tests.viewer.helpers import paragraph_lines, text_pdf


def test_an_unknown_chunk_id_says_whether_the_words_exist(tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=2)
    real = paragraph_lines(1, 40)[3]  # a line of page 2
    cite = tmp_path / "c.cite"
    cite.write_text(json.dumps({
        "version": 1, "documents": [{"id": "policy", "path": "policy.pdf"}],
        "chunks": [{"id": "policy#1", "text": "something else entirely"}],
        "claims": [
            {"id": "there", "evidence": [{"chunk_id": "policy#99", "quote": real}]},
            {"id": "invented", "evidence": [{"chunk_id": "policy#98",
                                             "quote": "a purple submarine in Lake Geneva"}]},
        ]}))
    report = check_citations(load_citations(cite), cite)
    there, invented = (c.evidence[0] for c in report.claims)
    for ev in (there, invented):  # the rejection stands: no page, no rectangles
        assert ev.status == "rejected" and ev.page is None and ev.rects == []
        assert ev.reason.startswith("unknown chunk id")
    assert "the quote's words do stand in document 'policy' on page 2" in there.reason
    assert "no highlight is placed" in there.reason
    assert invented.reason.endswith("the quote's words are not in document 'policy' either")
