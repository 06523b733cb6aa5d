"""The HTML report: one file a colleague or an auditor opens in any browser, or prints.

Self-contained: the pictures are ``data:`` URIs and the style sheet is inline, so the
file refers to nothing outside itself and works from a mail attachment or a case file.
Everything that comes from the answer or the documents (claims, quotes, notes, file
names) is escaped, and a Content-Security-Policy forbids scripts and every load, so a
hostile quote shows as text. Printed, each claim starts on a new page. The report is
written as it is made, a piece at a time, so an export of thousands of items holds one
page picture in memory, not all of them.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from pathlib import Path

from ..state.presentation import (
    CLAIM_DIFFERS,
    DIFFERS_SHADE,
    OUTCOME_WORDS,
    PLACEMENT_WORDS,
    SUPPORT_WORDS,
    decision_counts_line,
    diff_marks,
    evidence_sentence,
    outcome_sentence,
    summary_line,
    timestamp_words,
)
from ..state.questions import extra as extra_questions
from ..state.records import WordDiff
from .annotate import HIGHLIGHT_COLORS
from .items import ClaimReview, DocumentFacts, Item, ReviewedReport
from .wording import (
    answer_line,
    consistency_line,
    differences,
    differences_line,
    outcome_words,
    placement_line,
    support_line,
)

# Nothing may be loaded from anywhere: no script, no style sheet or font from outside,
# images only from the file itself.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1b1b;
       margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; margin: 0 0 .4rem; }
h3 { font-size: 1.02rem; margin: 0 0 .5rem; }
table { border-collapse: collapse; } td, th { text-align: left; vertical-align: top;
  padding: .15rem .9rem .15rem 0; }
.docs td.hash { font-family: ui-monospace, monospace; font-size: .8rem; word-break: break-all; }
.claim { border-top: 2px solid #37474f; padding-top: 1rem; margin-top: 2rem; }
.evidence { border-left: 4px solid #b0bec5; padding: .4rem 0 .4rem 1rem; margin: 1rem 0; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: .25rem; color: #fff;
         font-size: .85rem; font-weight: 600; background: #546e7a; }
.b-located { background: #2e7d32; } .b-confirmed { background: #1b5e20; }
.b-review, .b-differs { background: #a15c00; }
.b-wrong_place, .b-not_located { background: #c62828; }
.b-relocated { background: #1565c0; } .b-absent, .b-rejected { background: #6a1b9a; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.compare p { margin: .2rem 0; padding: .4rem .6rem; background: #f4f6f8; }
.changed { color: #b71c1c; font-weight: 700; text-decoration: underline wavy; }
.dropped { color: #9e9e9e; }
figure { margin: .6rem 0 0; } figure img { max-width: 100%; border: 1px solid #cfd8dc; }
figcaption { font-size: .85rem; color: #546e7a; }
.swatch { display: inline-block; width: 1.6em; height: .9em; vertical-align: middle;
          border: 1px solid #999; margin: 0 .3em 0 .8em; }
.muted { color: #607d8b; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  .claim { break-before: page; page-break-before: always; border-top: none; }
  .evidence, figure { break-inside: avoid; page-break-inside: avoid; }
}
"""


def write_html_report(write: Callable[[str], object], review: ReviewedReport, *,
                      citations_path: Path, documents: Sequence[DocumentFacts],
                      picture: Callable[[ClaimReview, Item], bytes | None],
                      found: Mapping[str, str], exported_at: str) -> None:
    """Write the whole report as HTML text through ``write``, an item at a time:
    ``picture(claim, item)`` renders an item's PNG (None: no picture) when its turn comes,
    so no more than one picture is held at once, whatever the number of items; ``found``
    maps an item's key to the page words under its highlight (where it differs from the
    matcher's ``found_text``: a relocated item)."""
    names = {d.id: d.path.name for d in documents}
    title = f"citeview review of {citations_path.name}"
    write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          f"<title>{_e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n")
    write(_header(review, citations_path, documents, exported_at))
    for claim in review.claims:
        write("\n")
        _claim(write, claim, names, picture, found)
    write("\n</body>\n</html>\n")


def html_report(review: ReviewedReport, *, citations_path: Path,
                documents: Sequence[DocumentFacts], pictures: Mapping[str, bytes],
                found: Mapping[str, str], exported_at: str) -> str:
    """The whole report as one string, ``pictures`` mapping an item's key to its PNG (for
    a small report; an export streams it with :func:`write_html_report`)."""
    parts: list[str] = []
    write_html_report(parts.append, review, citations_path=citations_path,
                      documents=documents, picture=lambda _, item: pictures.get(item.key),
                      found=found, exported_at=exported_at)
    return "".join(parts)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _header(review: ReviewedReport, citations_path: Path,
            documents: Sequence[DocumentFacts], exported_at: str) -> str:
    reviewers = ", ".join(review.reviewers()) or "none yet"
    rows = "".join(
        f"<tr><td>{_e(d.id)}</td><td>{_e(d.path)}</td>"
        f"<td class=\"hash\">{_e(d.sha256 or d.problem or 'not readable')}</td></tr>"
        for d in documents)
    legend = "".join(f"<span class=\"swatch\" style=\"background:{color}\"></span>"
                     f"{_e(OUTCOME_WORDS.get(shade, DIFFERS_SHADE))}"
                     for shade, color in HIGHLIGHT_COLORS.items())
    problems = "".join(f"<li>{_e(p)}</li>" for p in review.problems)
    return (
        f"<header>\n<h1>Review of {_e(citations_path.name)}</h1>\n<table class=\"facts\">"
        f"<tr><th>Citations file</th><td>{_e(citations_path.absolute())}</td></tr>"
        f"<tr><th>Reviewers</th><td>{_e(reviewers)}</td></tr>"
        f"<tr><th>Exported</th><td>{_e(timestamp_words(exported_at))}</td></tr>"
        f"<tr><th>Evidence by status</th><td>{_e(summary_line(review.summary))}</td></tr>"
        f"<tr><th>By placement decision</th><td>"
        f"{_e(decision_counts_line(review.placement_counts(), PLACEMENT_WORDS))}</td></tr>"
        f"<tr><th>Claims by support</th><td>"
        f"{_e(decision_counts_line(review.support_counts(), SUPPORT_WORDS))}</td></tr>"
        "</table>\n<h2>Documents</h2>\n<table class=\"docs\"><tr><th>id</th><th>file</th>"
        f"<th>SHA-256</th></tr>{rows}</table>\n"
        + (f"<h2>Problems</h2><ul>{problems}</ul>\n" if problems else "")
        + f"<p class=\"muted\">Highlight colours: {legend}</p>\n</header>")


def _claim(write: Callable[[str], object], claim: ClaimReview, names: Mapping[str, str],
           picture: Callable[[ClaimReview, Item], bytes | None],
           found: Mapping[str, str]) -> None:
    write(f"<section class=\"claim\" id=\"claim-{_e(claim.id)}\">\n"
          f"<h2>{_e(claim.id)} — {_e(claim.text)}</h2>\n"
          f"<p><b>Support:</b> {_e(support_line(claim))}</p>")
    said = consistency_line(claim)
    if said:
        write(f"\n<table class=\"facts\"><tr><th>{_e(CLAIM_DIFFERS.capitalize())}</th>"
              f"<td>{_e(said)}</td></tr></table>")
    for q in extra_questions():  # each further review question asked per claim
        if q.scope == "claim":
            write(f"\n<p><b>{_e(q.title)}:</b> {_e(answer_line(q, claim.answer(q.id)))}</p>")
    if claim.uncited or not claim.items:
        write("\n<p class=\"muted\">This claim gives no evidence.</p>")
    for item in claim.items:
        write("\n")
        write(_evidence(item, len(claim.items), names, picture(claim, item),
                        found.get(item.key, item.evidence.found_text), claim))
    write("\n</section>")


def _evidence(item: Item, count: int, names: Mapping[str, str], png: bytes | None,
              found: str | None, claim: ClaimReview) -> str:
    ev = item.evidence
    name = names.get(ev.document or "") or (Path(ev.document_path).name
                                            if ev.document_path else None)
    head = f"Evidence {ev.index + 1} of {count}" if count > 1 else "Evidence"
    # What the picture shows: no highlight when the reviewer found the quote absent.
    shown = ev.status if item.marked or ev.status == "rejected" else "not_located"
    facts = [("Status", outcome_words(item)),
             ("Where", evidence_sentence(shown, page=item.page, lines=len(item.rects),
                                         document=name)),
             ("Differences", differences_line(item) or "none named"),
             ("Placement", placement_line(item)),
             *((q.title, answer_line(q, claim.answer(q.id, ev.index)))
               for q in extra_questions() if q.scope == "item")]
    if ev.reason:
        facts.append(("Reason", ev.reason))
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in facts)
    # The matcher's word diff is of its own highlight; relocated words are shown unmarked.
    quote_marked, found_marked = _compare(
        ev.quote, found, ev.word_diff if found == ev.found_text else None)
    out = [f"<article class=\"evidence\" id=\"evidence-{_e(item.key)}\">",
           f"<h3>{_e(head)} <span class=\"badge b-{item.shade}\">"
           f"{_e(outcome_sentence(item.outcome, differences(item)))}</span></h3>",
           f"<table class=\"facts\">{rows}</table>",
           "<div class=\"compare\"><div><b>Quote</b>"
           f"<p class=\"quote\">{quote_marked}</p></div><div><b>Found on the page</b>"
           f"<p class=\"found\">{found_marked}</p></div></div>"]
    if png is not None:
        where = f"page {item.page} of {name or 'the document'}"
        out.append(f"<figure><img src=\"data:image/png;base64,"
                   f"{base64.b64encode(png).decode('ascii')}\" alt=\"{_e(where)}, around "
                   f"the highlight\"><figcaption>{_e(where.capitalize())}</figcaption>"
                   "</figure>")
    out.append("</article>")
    return "\n".join(out)


def _compare(quote: str, found: str | None, word_diff: WordDiff | None) -> tuple[str, str]:
    """The quote and the found text with the words that differ marked (escaped)."""
    if not found:
        return _e(quote), "<span class=\"muted\">nothing found</span>"
    q, f = diff_marks(word_diff, quote, found)
    return _marked(q), _marked(f)


def _marked(words: Iterable[tuple[str, str]]) -> str:
    return " ".join(_e(w) if mark == "same" else f"<span class=\"{mark}\">{_e(w)}</span>"
                    for w, mark in words)
