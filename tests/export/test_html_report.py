"""The HTML report, parsed: every claim and evidence item is there, nothing is loaded from
outside the file, each placed item has its picture, and hostile text stays text."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pymupdf

from .conftest import HOSTILE, Exported
from .helpers import drawn

# Attributes that make a browser load or go somewhere.
URL_ATTRIBUTES = {"src", "href", "srcset", "action", "formaction", "data", "poster",
                  "background", "xlink:href", "ping", "cite", "manifest"}


@dataclass
class Page(HTMLParser):
    """What the report holds, as a browser's parser sees it."""

    ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    urls: list[tuple[str, str]] = field(default_factory=list)
    images: dict[str, list[bytes]] = field(default_factory=dict)  # article id → PNGs
    text: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    _article: str | None = None
    _in_style: bool = False

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "article":
            self._article = a.get("id")
        self._in_style = tag == "style"
        for k, v in a.items():
            if k in URL_ATTRIBUTES or k.startswith("on"):
                self.urls.append((k, v))
        if tag == "img" and self._article is not None:
            src = a["src"]
            assert src.startswith("data:image/png;base64,")
            self.images.setdefault(self._article, []).append(
                base64.b64decode(src.split(",", 1)[1]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article = None
        self._in_style = False

    def handle_data(self, data: str) -> None:
        (self.styles if self._in_style else self.text).append(data)


def parsed(export: Exported) -> Page:
    page = Page()
    page.feed(export.html.read_text(encoding="utf-8"))
    page.close()
    return page


def test_every_claim_and_evidence_item_is_there(demo_export: Exported) -> None:
    page = parsed(demo_export)
    for claim in demo_export.report["claims"]:
        assert f"claim-{claim['id']}" in page.ids
        for ev in claim["evidence"]:
            assert f"evidence-{claim['id']}#{ev['index']}" in page.ids
    text = " ".join(page.text)
    assert "demo.cite" in text and "SHA-256" in text


def test_nothing_outside_the_file(demo_export: Exported) -> None:
    page = parsed(demo_export)
    assert "script" not in page.tags and "link" not in page.tags and "iframe" not in page.tags
    assert page.urls and all(k == "src" and v.startswith("data:image/png;base64,")
                             for k, v in page.urls)
    css = " ".join(page.styles)
    assert "url(" not in css and "@import" not in css


def test_a_picture_per_placed_item(demo_export: Exported) -> None:
    page = parsed(demo_export)
    placed = {f"evidence-{c['id']}#{e['index']}" for c in demo_export.report["claims"]
              for e in c["evidence"] if drawn(e)}
    assert set(page.images) == placed
    for pngs in page.images.values():
        [png] = pngs
        pix = pymupdf.Pixmap(png)
        assert pix.width > 300 and pix.height > 40


def test_hostile_text_is_text(reviewed_export: Exported) -> None:
    page = parsed(reviewed_export)
    assert "script" not in page.tags and "img" in page.tags
    assert HOSTILE in "".join(page.text)  # the note, shown exactly as written
    assert not any("evil" in v for _, v in page.urls)


def test_print_puts_each_claim_on_its_own_page(demo_export: Exported) -> None:
    css = " ".join(parsed(demo_export).styles)
    media = css[css.index("@media print"):]
    assert ".claim" in media and "break-before: page" in media


def test_decisions_are_shown(reviewed_export: Exported) -> None:
    text = " ".join(parsed(reviewed_export).text)
    for words in ("confirmed by jdoe", "wrong place", "not in the document",
                  "supported by jdoe", "not supported by jdoe", "matches the medical section",
                  "1 confirmed · 1 wrong place · 0 relocated · 1 absent"):
        assert words in text


def test_a_confirmed_quote_that_differs_says_both_and_is_not_green(tmp_path: Path) -> None:
    """The badge of a confirmation over a changed figure names the confirmation and the
    difference side by side, in the colour of a difference, never the confirmed green."""
    from tests.simplepdf import write_pdf
    from viewer.export.run import export
    from viewer.state.exports import ExportTargets

    from .helpers import checked, decide, write_cite

    line = "Mould, fungus and wet rot are covered up to five thousand dollars."
    write_pdf(tmp_path / "doc.pdf", [[(line, 72, 120)], [(line.replace("Mould", "Mold"),
                                                          72, 120)]], fontsize=12)
    cite = write_cite(tmp_path / "a.cite", {"doc": tmp_path / "doc.pdf"}, [
        ("c0", "doc", 1, line.replace("five thousand", "fifty thousand")),
        ("c1", "doc", 1, line)])
    report, citations = checked(cite)
    report = decide(report, {"c0#0": {"placement": "confirmed"},
                             "c1#0": {"placement": "confirmed"}})
    out = tmp_path / "r.html"
    export(report, citations_path=cite, citations=citations,
           targets=ExportTargets(html=out))
    html = out.read_text(encoding="utf-8")
    c0 = html[html.index('id="evidence-c0#0"'):html.index('id="evidence-c1#0"')]
    c1 = html[html.index('id="evidence-c1#0"'):]
    assert 'class="badge b-differs"' in c0 and "b-confirmed" not in c0
    assert "confirmed by the reviewer · the quote differs: " in c0
    assert 'class="badge b-confirmed"' in c1 and "differs" not in c1.split("</h3>")[0]
