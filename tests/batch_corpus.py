"""Citations files over the shared corpus, for the batch tests and benchmark.

Each file answers a few questions about one or two corpus PDFs with quotes taken from
their own text layer: some word for word, some with a figure changed, some invented.
Deterministic for its arguments. Document paths are absolute, so the files can live
anywhere.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pymupdf

# Small text-layer PDFs of several kinds (forms, columns, tables, rotated pages, cropbox):
# enough variety for the matcher, small enough that a test checks dozens of files.
DOCUMENTS = (
    "form_irs_7004.pdf", "form_irs_940b.pdf", "form_de_membership_application.pdf",
    "table_nics_background_checks.pdf", "rotated_nics_table_rot90.pdf",
    "text_acta_acustica_cropbox.pdf", "text_fr_meeting_minutes.pdf",
    "form_va_21_0966_intent_to_file.pdf",
)
QUOTE_WORDS = (6, 12)


@cache
def _lines(pdf: Path) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(1-based page, words) of every line of at least 6 words."""
    out: list[tuple[int, tuple[str, ...]]] = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            lines: dict[tuple[int, int], list[str]] = {}
            for w in page.get_text("words", sort=True):
                lines.setdefault((w[5], w[6]), []).append(w[4])
            out += [((page.number or 0) + 1, tuple(ws)) for ws in lines.values()
                    if len(ws) >= QUOTE_WORDS[0]]
    return tuple(out)


def _quote(rng: random.Random, pdf: Path) -> tuple[int, str]:
    page, words = rng.choice(_lines(pdf))
    n = rng.randint(*QUOTE_WORDS)
    start = rng.randint(0, max(0, len(words) - n))
    quote = list(words[start:start + n])
    kind = rng.random()
    if kind < 0.15:  # a figure changed, or a word where the page has another
        i = rng.randrange(len(quote))
        quote[i] = "1987" if any(c.isdigit() for c in quote[i]) else "premium"
    elif kind < 0.25:  # invented
        quote = rng.sample(["the", "insurer", "shall", "refund", "every", "claim", "within",
                            "thirty", "days", "of", "notice"], k=8)
    return page, " ".join(quote)


def citations(rng: random.Random, corpus: Path, docs: list[str], claims: int) -> dict[str, object]:
    """One citations file's content over ``docs`` (corpus file names)."""
    refs = [{"id": f"d{k}", "path": str(corpus / name)} for k, name in enumerate(docs)]
    out_claims = []
    for c in range(claims):
        evidence = []
        for _ in range(rng.randint(1, 2)):
            k = rng.randrange(len(docs))
            page, quote = _quote(rng, corpus / docs[k])
            evidence.append({"document": f"d{k}", "page": page, "quote": quote})
        out_claims.append({"id": f"c{c + 1}", "text": f"claim {c + 1}", "evidence": evidence})
    return {"version": 1, "documents": refs, "claims": out_claims}


def write_citations_files(folder: Path, corpus: Path, count: int, *, seed: int,
                          documents: tuple[str, ...] = DOCUMENTS, claims: int = 3
                          ) -> list[Path]:
    """``count`` citations files in ``folder``, each over one or two of ``documents``
    (document sets repeat, as a day's answers repeat a few policies)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    sets = [[d] for d in documents] + [[documents[k], documents[k + 1]]
                                       for k in range(0, len(documents) - 1, 2)]
    paths = []
    for i in range(count):
        docs = sets[rng.randrange(len(sets))]
        path = folder / f"answer-{i:04d}.cite"
        path.write_text(json.dumps(citations(rng, corpus, docs, claims), indent=1))
        paths.append(path)
    return paths
