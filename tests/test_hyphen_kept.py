"""A line-end hyphen the quote keeps ("Ka- trina", "Peer-to- Peer-Kommunikation") is the
page's hyphenated word: placed on its two lines, one rectangle each, on its own page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from matcher.document import PdfSource
from matcher.locate import locate_quote
from tests.simplepdf import paragraph

OTHER = ["Hurricane Rita followed a month later and the insurer paid",
         "its claims in 2006, after the software update of the devices."]
HYPHENATED = ["The losses after Hurricane Ka-", "trina were paid by the insurer in 2006.",
              "Die Software nutzt Peer-to-", "Peer-Kommunikation zwischen den Geräten."]


@pytest.mark.parametrize("quote,lines", [
    ("after Hurricane Ka- trina were paid", (0, 1)),
    ("Hurricane Ka- trina", (0, 1)),
    ("Die Software nutzt Peer-to- Peer-Kommunikation zwischen den Geräten.", (2, 3)),
    ("nutzt Peer-to- Peer-Kommunikation", (2, 3)),
    ("Peer-to-Peer-Kommunikation zwischen", (2, 3)),
])
@pytest.mark.parametrize("hinted", [True, False])
def test_a_kept_line_end_hyphen_is_placed_on_its_two_lines(
        make_pdf: Callable[..., Path], quote: str, lines: tuple[int, int], hinted: bool) -> None:
    pdf = make_pdf([paragraph(OTHER), paragraph(HYPHENATED)])
    with PdfSource(pdf) as src:
        p = locate_quote(src, quote, hints=[2] if hinted else [])
        pw = src.page_words(1)
    assert p.status == "located", p.reason
    assert p.page == 1
    assert len(p.rects) == 2
    texts = [" ".join(pw.words[w].text for w in ln.words) for ln in pw.lines]
    assert sorted({pw.words[w].line for w in p.words}) == [texts.index(HYPHENATED[k])
                                                           for k in lines]
