"""A plain-text document set as a PDF, so the quotes an answer took from it can be
highlighted on its words like any other document's.

An answer may cite a plain-text document (a Citations API ``text`` or ``content``
source). citeview shows and highlights PDFs only, so such a text is typeset once, by
MuPDF's own layout (:class:`pymupdf.Story`), into a Letter-sized PDF whose text layer
holds the text's words in order; the text itself stays the chunk the quotes are
checked against. The same text always gives the same bytes, so importing twice writes
the same file (and the review's document hash stays valid).

>>> pdf = text_pdf(["Cover: the vehicle.", "Excess: $500."])
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence

import pymupdf

# Letter with one-inch margins, ten-point type: a page reads like a printed letter and
# holds some 500 words, so a long text makes a few dozen pages rather than hundreds.
PAGE = "letter"
MARGIN = 72.0
# Monospace, as plain text is read: MuPDF's proportional fonts are shaped with ligatures
# ("ﬁve"), which the text layer would then hold, and copy and found text with it.
CSS = "body {font-family: monospace; font-size: 10pt; line-height: 1.3;}"


def text_pdf(paragraphs: Sequence[str], *, title: str = "") -> bytes:
    """The PDF of ``paragraphs`` (each a block; its line breaks kept), optionally headed
    by ``title``, as bytes."""
    body = "".join(f"<p>{_lines(p)}</p>" for p in paragraphs)
    if title:
        body = f"<h3>{html.escape(title)}</h3>" + body
    story = pymupdf.Story(html=body or "<p></p>", user_css=CSS)
    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    box = pymupdf.paper_rect(PAGE)
    where = pymupdf.Rect(box.x0 + MARGIN, box.y0 + MARGIN, box.x1 - MARGIN, box.y1 - MARGIN)
    more = True
    while more:
        device = writer.begin_page(box)
        more, _ = story.place(where)
        story.draw(device)
        writer.end_page()
    writer.close()
    return out.getvalue()


def _lines(paragraph: str) -> str:
    return "<br/>".join(html.escape(line) for line in paragraph.splitlines())
