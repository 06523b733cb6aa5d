"""Write the bundled demo: ``policy.pdf`` and ``demo.cite``, whose claims hit every outcome.

Run ``python -m scripts.demo_gen.make_demo`` from the repository root: it rewrites them in
``resources/demo/``, byte for byte the same with the same PyMuPDF (the PDF names the MuPDF
that wrote it; its text is the same whatever the version). Each claim is built from what the
generator recorded, and the script checks the property each claim is meant to exercise (an
exact quote really is in its chunk, the invented quote really is not, the misattributed
quote lives in exactly one other chunk…) so a change to the form cannot silently turn the
demo into something else.

The claims, by what the viewer should report:

* ``c1``  exact quote, right chunk;
* ``c2``  typography altered (straight apostrophe, hyphen for the em dash, "fi" for ﬁ);
* ``c3``  the applicant's signature block quoted label → value, not in the printed order;
* ``c4``  a rate-table row read across its cells;
* ``c5``  the fraud warning of a later state (four other copies differ only in the name);
* ``c6``  a quote with words dropped;
* ``c7``  two evidence items from one page;
* ``c8``  one quote joining two passages of one page with "...";
* ``c9``  an invented quote: not located;
* ``c10`` no evidence at all: uncited;
* ``c11`` an unknown chunk id: rejected;
* ``c12`` the wrong chunk id, the quote in exactly one other chunk: repaired;
* ``c13`` the rate-table row of ``c4`` with one figure changed (the premium's digits
  swapped): shown for review, the difference named, never located;
* ``c15`` the rate-table row quoted right, the claim misstating its premium (the digits
  swapped): the evidence located, the claim differs from it, named;
* ``c16`` the rate-table row again, the claim stating its term in words ("twelve months"):
  consistent.

(``c14`` is left to the window tests, which add a claim of their own by that id.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pymupdf

from matcher.citations import parse_citations
from matcher.document import page_text
from matcher.normalize import fold

from .application import ApplicationTruth, write_application

# Where the demo is written: the package data the wheel ships (this generator stays out of it).
DEMO_DIR = Path(__file__).resolve().parents[2] / "resources" / "demo"
PDF_NAME = "policy.pdf"
CITE_NAME = "demo.cite"
DOC_ID = "policy"
# Seed whose applicant answered "Yes" to questions 1, 5 and 7 (the claims quote those details).
DEMO_SEED = 7
MAX_PDF_BYTES = 100_000
UNKNOWN_CHUNK = f"{DOC_ID}#tok:9"


class DemoError(RuntimeError):
    """The generated form no longer supports one of the demo's claims."""


def chunk_id(page: int) -> str:
    """The id of the chunk holding 0-based ``page``."""
    return f"{DOC_ID}#tok:{page}"


def build_citations(truth: ApplicationTruth, texts: list[str]) -> dict[str, Any]:
    """The demo citations file (as JSON data) for a generated form and its page texts."""
    p = truth.profile
    last = truth.page_count - 1
    chunks = [{"id": chunk_id(i), "document": DOC_ID, "text": t, "pages": [i + 1]}
              for i, t in enumerate(texts)]

    def in_chunk(page: int, quote: str) -> dict[str, Any]:
        return {"chunk_id": chunk_id(page), "quote": quote}

    def on_page(page: int, quote: str) -> dict[str, Any]:
        return {"document": DOC_ID, "page": page + 1, "quote": quote}

    hypertension = _detail(truth, "1.").split(" \u2013 ")[0].removeprefix("1. ")
    medication = truth.question("5").text.text
    statin = _detail(truth, "5.").split(",")[0].removeprefix("5. ")
    loss_question = truth.question("7").text.text
    water = _detail(truth, "7.").removeprefix("7. ")
    dwelling = next(row for row in truth.rate_rows if row[0].text.startswith("Dwelling"))
    row = " ".join(box.text for box in dwelling)
    premium = dwelling[3].text
    changed_row = row.replace(premium, _swap_digits(premium))
    later = truth.fraud_warnings[3]
    warning = later.paragraph.text.removeprefix(f"{later.state}: ")
    signature = truth.signature("applicant")
    waiver = ("No agent or broker may make, modify, or waive any of the Company's rights or "
              "requirements - only an officer of the Company may do so, in writing.")
    dropped = ("I declare that the statements in it are true, complete, and correctly recorded "
               "to the best of my knowledge and belief.")
    invented = ("The Proposed Insured qualifies for the Preferred Plus non-tobacco rate class, and "
                "the premium shown includes a 15% multi-policy discount.")
    authorization = ("This authorization is valid for twenty-four months from the date it is "
                     "signed; a photocopy is as valid as the original.")
    certification = "I certify that I personally met the applicant"

    claims = [
        _claim("c1", f"Applicant has treated hypertension (diagnosed {p.diagnosis_year}).",
               in_chunk(1, hypertension)),
        _claim("c2", "Agents cannot waive the Company\u2019s requirements; only an officer can, "
                     "in writing.", on_page(last, waiver)),
        _claim("c3", f"Who signed the application? {p.applicant}, on {p.signed_on}.",
               on_page(last, signature.meaning_order())),
        _claim("c4", f"Dwelling (Coverage A): {dwelling[1].text} limit, {dwelling[2].text} "
                     f"deductible, {dwelling[3].text} a year.",
               in_chunk(0, row)),
        _claim("c5", f"The {later.state} fraud warning is part of the application.",
               in_chunk(last, warning)),
        _claim("c6", "Applicant declared the answers true, complete and correctly recorded.",
               on_page(last, dropped)),
        _claim("c7", "Currently on prescription medication: atorvastatin for cholesterol.",
               in_chunk(1, medication), in_chunk(1, statin)),
        _claim("c8", f"Property loss in the last five years: burst-pipe water damage, claim paid "
                     f"{p.loss_paid}.",
               in_chunk(1, f"{_tail(loss_question, 'has the applicant')} ... {water}")),
        _claim("c9", "Qualifies for the Preferred Plus non-tobacco class with a multi-policy "
                     "discount.", in_chunk(0, invented)),
        _claim("c10", "The dwelling has a monitored central fire alarm."),
        _claim("c11", "The agent met the applicant in person.",
               {"chunk_id": UNKNOWN_CHUNK, "quote": certification}),
        _claim("c12", "The medical-records authorization runs for 24 months from signing.",
               in_chunk(0, authorization)),
        _claim("c13", f"The dwelling premium is {_swap_digits(premium)} a year.",
               in_chunk(0, changed_row)),
        _claim("c15", f"The dwelling premium is {_swap_digits(premium)} a year.",
               in_chunk(0, row)),
        _claim("c16", f"The dwelling coverage runs for {_in_words(dwelling[4].text)} at "
                      f"{premium}.", in_chunk(0, row)),
    ]
    data = {"version": 1, "documents": [{"id": DOC_ID, "path": PDF_NAME}], "chunks": chunks,
            "claims": claims}
    _check(data, texts, exact=[(1, hypertension)],
           present=[(0, row), (1, medication), (1, statin), (last, warning)],
           invented=invented, wrong=(0, authorization))
    if any(fold(changed_row).text in fold(t).text for t in texts) or changed_row == row:
        raise DemoError(f"the changed row is in the document: {changed_row!r}")
    return data


_WORDS = {6: "six", 12: "twelve", 24: "twenty-four", 36: "thirty-six"}


def _in_words(term: str) -> str:
    """A term of the rate table ("12 months") with its figure in words ("twelve months")."""
    figure, _, unit = term.partition(" ")
    if not figure.isdigit() or int(figure) not in _WORDS:
        raise DemoError(f"no words for the term {term!r}")
    return f"{_WORDS[int(figure)]} {unit}"


def _swap_digits(figure: str) -> str:
    """``figure`` with the last two digits before its decimal point swapped ("$925.18" →
    "$952.18"): a one-figure change a reader must be shown."""
    whole = figure.split(".")[0]
    at = max(i for i, c in enumerate(whole) if c.isdigit())
    if at < 1 or not whole[at - 1].isdigit():
        return figure
    return figure[:at - 1] + figure[at] + figure[at - 1] + figure[at + 1:]


def _claim(cid: str, text: str, *evidence: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "text": text, "evidence": list(evidence)}


def _detail(truth: ApplicationTruth, prefix: str) -> str:
    return next(d.text for d in truth.details if d.text.startswith(prefix))


def _tail(text: str, start: str) -> str:
    """``text`` from the first occurrence of ``start`` on."""
    return text[text.index(start):]


def _check(data: dict[str, Any], texts: list[str], *, exact: list[tuple[int, str]],
           present: list[tuple[int, str]], invented: str, wrong: tuple[int, str]) -> None:
    """Fail loudly if a claim no longer exercises what it was written for.

    ``exact`` quotes must be verbatim substrings of their page's chunk, ``present`` ones
    equal to a stretch of it once folded (whitespace, case, typography).
    """
    parse_citations(data)
    folded = [fold(t).text for t in texts]
    for page, quote in exact:
        if quote not in texts[page]:
            raise DemoError(f"exact quote not verbatim on page {page + 1}: {quote!r}")
    for page, quote in present:
        if fold(quote).text not in folded[page]:
            raise DemoError(f"quote not on page {page + 1}: {quote!r}")
    if any(fold(invented).text in f for f in folded):
        raise DemoError("the invented quote is in the document")
    page, quote = wrong
    holders = [i for i, f in enumerate(folded) if fold(quote).text in f]
    if page in holders or len(holders) != 1:
        raise DemoError(f"misattributed quote should be in exactly one other chunk: {holders}")


def make_demo(folder: Path = DEMO_DIR) -> tuple[Path, Path]:
    """Write ``policy.pdf`` and ``demo.cite`` into ``folder``; return both paths."""
    pdf = folder / PDF_NAME
    truth = write_application(pdf, seed=DEMO_SEED)
    if pdf.stat().st_size > MAX_PDF_BYTES:
        raise DemoError(f"{pdf.name} is {pdf.stat().st_size} bytes (limit {MAX_PDF_BYTES})")
    with pymupdf.open(pdf) as doc:
        texts = [page_text(page) for page in doc]
    cite = folder / CITE_NAME
    data = build_citations(truth, texts)
    cite.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return pdf, cite


def main() -> None:
    """Entry point of ``python -m scripts.demo_gen.make_demo``."""
    pdf, cite = make_demo()
    print(f"wrote {pdf} ({pdf.stat().st_size:,} bytes) and {cite}")


if __name__ == "__main__":
    main()
