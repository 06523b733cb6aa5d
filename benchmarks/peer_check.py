#!/usr/bin/env python3
"""A plain PyMuPDF + rapidfuzz citation checker: the peer ``bench_check.py`` measures against.

It does the job of ``citeview check`` the obvious way, with no index:

* chunk repair: the quote (lowered, whitespace and typography folded) looked for in its
  cited chunk, then in every chunk of the file; exactly one other holder repairs the id,
  none leaves the cited chunk to a fuzzy comparison (``rapidfuzz.fuzz.partial_ratio``);
* words per page: ``page.get_text("words")`` once per page, kept for the run;
* order-free window scoring: on the hinted pages first, then (the quote not found there, or
  no hint) on every page of the document, a window of the quote's length slides over the
  page's words and the multiset overlap with the quote's words scores it; the best window
  over ``LOCATE_SHARE`` of the quote is located, its words' boxes merged line by line.

It prints one JSON line per evidence item (status, page, rectangles count) and a summary.
Usage: ``python benchmarks/peer_check.py FILE.cite``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
from rapidfuzz import fuzz

# A window holding this share of the quote's words (as a multiset) is the quote.
LOCATE_SHARE = 0.8
# A page sharing less than this share of the quote's distinct words is not scanned.
PAGE_SHARE = 0.45
# rapidfuzz partial_ratio at or above this: the chunk holds the quote, near enough.
CHUNK_RATIO = 90.0

_WORD = re.compile(r"[^\W_]+")
_TYPO = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                       "\u2013": "-", "\u2014": "-", "\u00a0": " ", "\u00ad": "",
                       "\ufb01": "fi", "\ufb02": "fl"})


def fold(text: str) -> str:
    return " ".join(text.translate(_TYPO).lower().split())


def atoms(text: str) -> list[str]:
    return _WORD.findall(text.translate(_TYPO).lower())


class Pages:
    """Each document's pages' words, read once per page and kept."""

    def __init__(self) -> None:
        self.docs: dict[str, pymupdf.Document] = {}
        self.words: dict[tuple[str, int], tuple[list[Any], list[str], set[str]]] = {}

    def count(self, path: str) -> int:
        return self.doc(path).page_count

    def doc(self, path: str) -> pymupdf.Document:
        if path not in self.docs:
            self.docs[path] = pymupdf.open(path)
        return self.docs[path]

    def page(self, path: str, n: int) -> tuple[list[Any], list[str], set[str]]:
        key = (path, n)
        got = self.words.get(key)
        if got is None:
            raw = self.doc(path).load_page(n).get_text("words")
            words = [w for w in raw if _WORD.search(w[4])]
            texts = [" ".join(atoms(w[4])) for w in words]
            got = self.words[key] = (words, texts, set(" ".join(texts).split()))
        return got


def best_window(page: tuple[list[Any], list[str], set[str]], quote: list[str]
                ) -> tuple[float, list[Any]]:
    """The window of the page's words sharing most of the quote's words (order-free)."""
    words, texts, vocab = page
    want = Counter(quote)
    if not quote or len(set(quote) & vocab) < PAGE_SHARE * len(want):
        return 0.0, []
    size = len(quote)
    flat: list[tuple[int, str]] = [(i, a) for i, t in enumerate(texts) for a in t.split()]
    best, where = 0.0, (0, 0)
    have: Counter[str] = Counter()
    overlap = 0  # sum over the quote's words of min(wanted, held in the window)
    for end, (_i, a) in enumerate(flat):
        if have[a] < want.get(a, 0):
            overlap += 1
        have[a] += 1
        if end >= size:
            gone = flat[end - size][1]
            have[gone] -= 1
            if have[gone] < want.get(gone, 0):
                overlap -= 1
        if overlap / size > best:
            best, where = overlap / size, (max(0, end - size + 1), end + 1)
    picked = sorted({flat[k][0] for k in range(*where)})
    return best, [words[i] for i in picked]


def rects(words: list[Any]) -> list[list[float]]:
    """One rectangle per line (block, line) of the picked words."""
    lines: dict[tuple[int, int], list[float]] = {}
    for x0, y0, x1, y1, _t, b, ln, _w in words:
        r = lines.get((b, ln))
        lines[(b, ln)] = [x0, y0, x1, y1] if r is None else \
            [min(r[0], x0), min(r[1], y0), max(r[2], x1), max(r[3], y1)]
    return list(lines.values())


def repair(chunks: dict[str, dict[str, Any]], folded: dict[str, str], cited: str,
           quote: str) -> tuple[str, str | None]:
    """(outcome, chunk id): the quote in its chunk, in exactly one other, or not."""
    needle = fold(quote)
    if cited in chunks and needle in folded[cited]:
        return "located", cited
    holders = [cid for cid, text in folded.items() if cid != cited and needle in text]
    if len(holders) == 1:
        return "located", holders[0]
    if holders:
        return "rejected", None
    if cited not in chunks:
        return "rejected", None
    if fuzz.partial_ratio(needle, folded[cited]) >= CHUNK_RATIO:
        return "review", cited
    return "not_located", cited


def check(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    docs = {d["id"]: str((path.parent / d["path"]).resolve()) for d in data["documents"]}
    chunks = {c["id"]: c for c in data.get("chunks", [])}
    folded = {cid: fold(c["text"]) for cid, c in chunks.items()}
    pages = Pages()
    out: list[dict[str, Any]] = []
    for claim in data["claims"]:
        for ev in claim.get("evidence", []):
            quote, hints, doc = ev["quote"], [], ev.get("document")
            text_outcome = None
            if ev.get("chunk_id"):
                text_outcome, cid = repair(chunks, folded, ev["chunk_id"], quote)
                if cid is None:
                    out.append({"status": "rejected"})
                    continue
                doc = chunks[cid].get("document")
                hints = [p - 1 for p in chunks[cid].get("pages") or []]
            if ev.get("page"):
                hints.insert(0, ev["page"] - 1)
            if doc not in docs:
                out.append({"status": "rejected"})
                continue
            q = atoms(quote)
            found = max(((best_window(pages.page(docs[doc], h), q), h) for h in hints),
                        default=((0.0, []), -1), key=lambda r: r[0][0])
            if found[0][0] < LOCATE_SHARE:
                everywhere = ((best_window(pages.page(docs[doc], n), q), n)
                              for n in range(pages.count(docs[doc])))
                found = max([found, *everywhere], key=lambda r: r[0][0])
            (score, words), page = found
            placed = score >= LOCATE_SHARE
            status = "located" if placed and text_outcome in (None, "located") else (
                "review" if placed else "not_located")
            out.append({"status": status, "page": page + 1 if placed else None,
                        "rects": rects(words) if placed else []})
    return out


def main(argv: list[str]) -> int:
    results = check(Path(argv[0]))
    summary = Counter(r["status"] for r in results)
    print(json.dumps({"summary": dict(summary),
                      "pages": [r.get("page") for r in results]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
