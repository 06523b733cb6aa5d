"""W3C Web Annotations (JSON-LD): one Annotation per highlighted evidence item.

An ``AnnotationCollection`` (Web Annotation Data Model §5) whose first page holds every
annotation. Each annotation targets the PDF (its path relative to the collection's file,
or on request its absolute ``file:`` URI; its SHA-256 as the ``canonical`` IRI of the
source, an RFC 6920 ``ni:`` name, so a reader can tell it is the very file reviewed) with
two selectors that name the same words: a ``FragmentSelector`` conforming to RFC 3778
(``page=N&viewrect=left,top,width,height``, points on the page as displayed) and a page
fragment refined by a ``TextQuoteSelector`` (the words, and 32 characters of the page
text before and after them). A highlight assembled from places apart on the page has a
target per place. The bodies are the claim (``describing``), the placement and support
decisions and the answers to the further questions (``assessing``; one per question
asked, :mod:`viewer.state.questions`), and their notes (``commenting``).
"""

from __future__ import annotations

import base64
import os
import urllib.parse
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..state.presentation import (
    CLAIM_DIFFERS,
    UNDECIDED,
    decision_sentence,
    placement_word,
    support_word,
)
from ..state.questions import extra as extra_questions
from .items import ClaimReview, DocumentFacts, Item, ReviewedReport
from .pagetext import Selection
from .wording import consistency_line, outcome_words

CONTEXT = "http://www.w3.org/ns/anno.jsonld"
RFC3778 = "http://tools.ietf.org/rfc/rfc3778"
PDF_FORMAT = "application/pdf"


def ni_uri(sha256_hex: str) -> str:
    """The RFC 6920 name of content with this SHA-256.

    >>> ni_uri("00" * 32)
    'ni:///sha-256;AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    """
    raw = bytes.fromhex(sha256_hex)
    return "ni:///sha-256;" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def viewrect(page: int, rect: Sequence[float]) -> str:
    """An RFC 3778 fragment for a region of a page (points, page as displayed).

    >>> viewrect(3, (72.0, 100.04, 310.4, 112.0))
    'page=3&viewrect=72.0,100.0,238.4,12.0'
    """
    x0, y0, x1, y1 = rect
    return f"page={page}&viewrect={x0:.1f},{y0:.1f},{x1 - x0:.1f},{y1 - y0:.1f}"


def web_annotations(review: ReviewedReport, *, citations_path: Path,
                    documents: Sequence[DocumentFacts], selections: Mapping[str, Selection],
                    generated: str, generator: str, output: Path | None = None,
                    absolute: bool = False) -> dict[str, Any]:
    """The collection for every highlighted item that has a ``selections`` entry. Each
    PDF is named relative to ``output`` (the file the collection is written to), so the
    file reveals no absolute path and still resolves beside the PDFs; ``absolute`` (or
    no ``output``) names it by its absolute ``file:`` URI instead."""
    docs = {d.id: d for d in documents}
    sources = {d.id: source_iri(d.path, None if absolute else output) for d in documents}
    base = citations_path.absolute().as_uri()
    items = []
    for claim in review.claims:
        for item in claim.items:
            sel = selections.get(item.key)
            doc = docs.get(item.document or "")
            if item.marked and sel is not None and sel.runs and doc is not None:
                items.append(_annotation(item, claim, sel, doc, sources[doc.id], base,
                                         generated, generator))
    collection_id = f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{base}@{generated}')}"
    label = f"citeview review of {citations_path.name}"
    # The page is embedded, but carries what the model asks of a page on its own (its
    # context, an IRI, the collection it is part of, described as in the model's §5.2
    # example), so it can be served as one.
    page = {"@context": CONTEXT,
            "id": f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{collection_id}/1')}",
            "type": "AnnotationPage",
            "partOf": {"id": collection_id, "label": label, "total": len(items)},
            "startIndex": 0, "items": items}
    return {
        "@context": CONTEXT,
        "id": collection_id,
        "type": "AnnotationCollection",
        "label": label,
        "total": len(items),
        "generator": {"type": "Software", "name": generator},
        "generated": generated,
        "first": page,
    }


def source_iri(pdf: Path, output: Path | None) -> str:
    """The PDF's IRI: relative to the folder of ``output`` (a relative reference, which
    JSON-LD resolves against the file's own location), else its absolute ``file:`` URI.

    >>> source_iri(Path("/cases/17/policy #2.pdf"), Path("/cases/17/out/review.jsonld"))
    '../policy%20%232.pdf'
    """
    if output is not None:
        try:
            rel = os.path.relpath(pdf.absolute(), output.absolute().parent)
        except ValueError:  # another drive (Windows): no relative path leads there
            return pdf.absolute().as_uri()
        return urllib.parse.quote(rel.replace(os.sep, "/"), safe="/")
    return pdf.absolute().as_uri()


def _annotation(item: Item, claim: ClaimReview, sel: Selection, doc: DocumentFacts,
                source_id: str, base: str, generated: str, generator: str) -> dict[str, Any]:
    page = item.page or 1
    source: dict[str, Any] = {"id": source_id, "format": PDF_FORMAT}
    if doc.sha256:
        source["canonical"] = ni_uri(doc.sha256)
    targets = [{
        "type": "SpecificResource",
        "source": source,
        "selector": [
            {"type": "FragmentSelector", "conformsTo": RFC3778, "value": viewrect(page, box)},
            {"type": "FragmentSelector", "conformsTo": RFC3778, "value": f"page={page}",
             "refinedBy": {"type": "TextQuoteSelector", "exact": run.exact,
                           "prefix": run.prefix, "suffix": run.suffix}},
        ]} for run, box in zip(sel.runs, sel.shown, strict=True)]
    annotation: dict[str, Any] = {
        "@context": CONTEXT,
        "id": f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{base}#{item.key}')}",
        "type": "Annotation",
        "motivation": "highlighting",
        "body": _bodies(item, claim),
        "target": targets[0] if len(targets) == 1 else targets,
        "generator": {"type": "Software", "name": generator},
        "generated": generated,
    }
    d = item.decision
    if d is not None and d.reviewer:
        annotation["creator"] = {"type": "Person", "name": d.reviewer}
    if d is not None and d.at:
        annotation["created"] = d.at
    return annotation


def _bodies(item: Item, claim: ClaimReview) -> list[dict[str, str]]:
    out = [_body("describing", f"Claim {claim.id}: {claim.text}" if claim.text
                else f"Claim {claim.id}")]
    said = consistency_line(claim)
    if said:
        out.append(_body("assessing", f"{CLAIM_DIFFERS.capitalize()}: {said}."))
    d = item.decision
    decided = "undecided" if d is None else decision_sentence(
        placement_word(d.placement), reviewer=d.reviewer, at=d.at, stale=bool(item.stale))
    out.append(_body("assessing", f"Placement: {decided}. Check: {outcome_words(item)}."))
    if d is not None and d.note:
        out.append(_body("commenting", d.note))
    out += _answer_bodies(claim, item.evidence.index, "item")
    s = claim.support
    if s is not None:
        out.append(_body("assessing", "Support: " + decision_sentence(
            support_word(s.support), reviewer=s.reviewer, at=s.at,
            stale=bool(claim.support_stale)) + "."))
        if s.note:
            out.append(_body("commenting", s.note))
    return out + _answer_bodies(claim, item.evidence.index, "claim")


def _answer_bodies(claim: ClaimReview, index: int, scope: str) -> list[dict[str, str]]:
    """The further questions asked about the item (or its claim): each answer in words
    (``undecided`` without one, as the other exports say it), then its note."""
    out = []
    for q in extra_questions():
        if q.scope != scope:
            continue
        said = claim.answer(q.id, index if scope == "item" else None)
        a = said.answer if said is not None else None
        words = UNDECIDED if said is None or a is None else decision_sentence(
            q.words.get(a.value, a.value), reviewer=a.reviewer, at=a.at,
            stale=bool(said.stale))
        out.append(_body("assessing", f"{q.title}: {words}."))
        if a is not None and a.note:
            out.append(_body("commenting", a.note))
    return out


def _body(purpose: str, value: str) -> dict[str, str]:
    return {"type": "TextualBody", "purpose": purpose, "value": value, "format": "text/plain"}
