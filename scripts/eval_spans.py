#!/usr/bin/env python3
"""Evaluate quote → character span (issue 2) over chunks cut from the real corpus PDFs.

Chunks are page texts (line-end hyphens joined, as ``matcher.document.page_text`` gives
them) cut into pieces of about 1,500 characters. Each case hands a quote and a claimed
chunk id to ``matcher.attribution.attribute`` over a small context window of chunks (the
true chunk, its neighbours in the same document, two chunks of other documents) and
checks the answer against what the case was built from:

* ``exact`` — a sentence or 1–3 lines copied verbatim: must be an exact span with
  ``text[start:end] == quote``;
* ``typography`` — the same with curly/straight quotes, dashes, NBSP, soft hyphens,
  ligatures, case or newlines changed: the span must be the original's raw range;
* ``repair-one`` — a verbatim or typography copy, claimed id = a neighbour chunk that does
  not hold it: re-attributed to the only holder, with the right span;
* ``repair-two`` — the quote is in two chunks (overlapping chunking), claimed id = a
  third: rejected;
* ``unknown-id`` — an id that is not in the window: rejected;
* ``rewrite`` — word substitutions, swaps, a moved clause: never ``exact`` (how it ends
  is reported);
* ``merged`` — two non-adjacent sentences of the chunk joined: never ``exact``;
* ``invented`` — a sentence from another document: no accepted span;
* ``changed-number`` — a verbatim copy with one digit of one figure changed: never an
  ``exact`` or ``fuzzy`` span (a changed figure is not the chunk's text).

Deterministic for a given ``--seed``. Usage::

    python scripts/eval_spans.py [--corpus DIR] [--seed 1] [--limit 120] [--show-fail] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalcases import (
    CorpusFile,
    alter_typography,
    change_digit,
    corpus_files,
    parse_kinds,
    ref_fold,
    require_corpus,
    sub_rng,
)

from matcher.attribution import attribute
from matcher.citations import Chunk
from matcher.document import open_pdf, page_text

CHUNK_SIZE = 1500
PAGES_PER_DOC = 6
KINDS = ("exact", "typography", "repair-one", "repair-two", "unknown-id",
         "rewrite", "merged", "invented", "changed-number")
# Share of the per-kind limit for the kinds that need special circumstances.
KIND_SHARE = {"repair-two": 0.5, "unknown-id": 0.25}


# --------------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class Piece:
    """A chunk and where it came from (so an overlapping chunk can be cut beside it)."""

    chunk: Chunk
    page_text: str
    offset: int


def cut(text: str, size: int = CHUNK_SIZE) -> list[tuple[int, int]]:
    """Half-open ranges of about ``size`` characters, each ending at whitespace."""
    out, a = [], 0
    while a < len(text):
        b = min(len(text), a + size)
        if b < len(text):
            ws = max(text.rfind(" ", a + size // 2, b), text.rfind("\n", a + size // 2, b))
            if ws > a:
                b = ws + 1
        out.append((a, b))
        a = b
    return out


def doc_pieces(cf: CorpusFile, seed: int, pages: int = PAGES_PER_DOC) -> list[Piece]:
    """Chunks of up to ``pages`` seeded pages of one document."""
    doc = open_pdf(cf.path)
    try:
        rng = sub_rng(seed, "pages", cf.name)
        order = list(range(doc.page_count))
        rng.shuffle(order)
        out: list[Piece] = []
        for p in sorted(order[:pages * 3]):
            if len({pc.chunk.pages[0] for pc in out if pc.chunk.pages}) >= pages:
                break
            text = page_text(doc.load_page(p))
            if len(text.strip()) < 200:
                continue
            for a, b in cut(text):
                if text[a:b].strip():
                    out.append(Piece(Chunk(id=f"{cf.path.stem}#p{p + 1}:{a}",
                                           document=cf.path.stem, text=text[a:b],
                                           pages=[p + 1]), text, a))
        return out
    finally:
        doc.close()


# --------------------------------------------------------------------------- passages

_SENTENCE = re.compile(r"[A-ZÀ-Ý0-9\"'“‘(][^.!?]*?[.!?](?=[\s\"'”’)]|$)", re.S)
_LETTERS = re.compile(r"[^\W\d_]")
_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")


def _prose(s: str, min_words: int) -> bool:
    words = s.split()
    return (len(words) >= min_words and 40 <= len(s) <= 320
            and len(_LETTERS.findall(s)) >= 0.6 * len(s.replace(" ", "")))


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    """Shrink ``[a, b)`` past whitespace and invisible characters at either end.

    A passage is the words a reader sees; an edge soft hyphen is not part of them (the
    matcher may rightly leave it out of the span).
    """
    while a < b and (text[a].isspace() or text[a] in _INVISIBLE):
        a += 1
    while b > a and (text[b - 1].isspace() or text[b - 1] in _INVISIBLE):
        b -= 1
    return a, b


def sentences(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _SENTENCE.finditer(text):
        a, b = _trim(text, m.start(), m.end())
        if _prose(text[a:b], 6):
            out.append((a, b))
    return out


def line_runs(text: str, rng) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out = []
    for i in range(len(starts)):
        n = rng.randint(1, 3)
        if i + n >= len(starts):
            continue
        a, b = _trim(text, starts[i], starts[i + n] - 1)
        if a < b and _prose(text[a:b], 5):
            out.append((a, b))
    return out


def unique_in(text: str, quote: str) -> bool:
    return text.count(quote) == 1 and ref_fold(text).count(ref_fold(quote)) == 1


def holders(window: Sequence[Chunk], quote: str) -> list[str]:
    """Ids of the chunks holding the whole quote, up to typography."""
    key = ref_fold(quote)
    return [c.id for c in window if key in ref_fold(c.text)]


def shares_half(chunk: Chunk, quote: str) -> bool:
    """Whether the chunk holds the first or the second half of the quote.

    A chunk cut mid-sentence can hold 90% of a quote, which a fuzzy match rightly
    accepts; such a chunk is a holder too, so it cannot serve as the "wrong" chunk of a
    repair case.
    """
    key, text = ref_fold(quote), ref_fold(chunk.text)
    half = len(key) // 2
    return key[:half] in text or key[half:] in text


# --------------------------------------------------------------------------- rewrites

_SYNONYMS = {
    "shall": "will", "must": "has to", "may": "can", "and": "as well as", "the": "this",
    "is": "remains", "are": "remain", "of": "for", "in": "within", "to": "towards",
    "with": "alongside", "for": "regarding", "not": "never", "all": "every", "any": "each",
    "be": "get", "by": "through", "on": "upon", "or": "and/or", "that": "which",
    "this": "that", "will": "would", "can": "could", "should": "ought to", "from": "out of",
    "at": "near", "as": "like", "but": "yet", "if": "when", "which": "that", "was": "had been",
    "were": "had been", "has": "holds", "have": "hold", "also": "too", "more": "further",
    "le": "ce", "la": "cette", "les": "ces", "et": "ainsi que", "der": "dieser",
    "die": "diese", "und": "sowie",
}


def rewrite(quote: str, rng) -> str | None:  # type: ignore[no-untyped-def]
    """Paraphrase lightly: synonym substitutions, word swaps, a moved clause, a dropped word.

    At least two edits; ``None`` if the sentence offers too little to edit.
    """
    words = " ".join(quote.split()).split(" ")
    if len(words) < 8:
        return None
    edits = 0
    subs = [i for i, w in enumerate(words) if w.lower() in _SYNONYMS]
    rng.shuffle(subs)
    for i in subs[:3]:
        new = _SYNONYMS[words[i].lower()]
        words[i] = new.capitalize() if words[i][:1].isupper() else new
        edits += 1
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
        edits += 1
    text = " ".join(words)
    if "," in text[5:-5] and rng.random() < 0.5:
        head, tail = text.split(",", 1)
        text = tail.strip().rstrip(".") + ", " + head[:1].lower() + head[1:] + "."
        edits += 1
    if edits < 3:
        ws = text.split(" ")
        del ws[rng.randrange(1, len(ws) - 1)]
        text = " ".join(ws)
    return text if ref_fold(text) != ref_fold(quote) else None


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class SpanCase:
    kind: str
    doc: str
    window: tuple[Chunk, ...]
    claimed_id: str
    quote: str
    true_id: str | None = None
    truth: tuple[int, int] | None = None
    note: str = ""


def _window(pieces: Sequence[Piece], i: int, others: Sequence[Piece], rng) -> list[Chunk]:  # type: ignore[no-untyped-def]
    """The true chunk, up to two neighbours each side (same document), two foreign chunks."""
    near = [pieces[j].chunk for j in range(max(0, i - 2), min(len(pieces), i + 3))]
    foreign = rng.sample(list(others), min(2, len(others)))
    return near + [p.chunk for p in foreign]


def build_cases(files: Sequence[CorpusFile], seed: int, limit: int,
                kinds: Sequence[str] = KINDS) -> list[SpanCase]:
    """Up to ``limit`` cases per kind, taken round-robin over the documents."""
    docs = [(cf, doc_pieces(cf, seed)) for cf in files]
    docs = [(cf, ps) for cf, ps in docs if ps]
    gens = {cf.name: _doc_cases(cf, ps, docs, seed) for cf, ps in docs}
    cases: list[SpanCase] = []
    want = {k: max(1, round(limit * KIND_SHARE.get(k, 1.0))) for k in kinds}
    have: Counter[str] = Counter()
    pending = {k: list(gens) for k in kinds}
    # Round-robin: each document offers its next case of a kind until the quota is met.
    while any(pending[k] and have[k] < want[k] for k in kinds):
        for k in kinds:
            for name in list(pending[k]):
                if have[k] >= want[k]:
                    break
                case = gens[name].get(k)
                if case is None:
                    pending[k].remove(name)
                else:
                    cases.append(case)
                    have[k] += 1
    return cases


class _doc_cases:
    """Lazily produces a document's cases kind by kind (each kind has its own stream)."""

    def __init__(self, cf: CorpusFile, pieces: list[Piece],
                 docs: Sequence[tuple[CorpusFile, list[Piece]]], seed: int) -> None:
        self.cf, self.pieces, self.seed = cf, pieces, seed
        self.others = [p for ocf, ps in docs if ocf.family != cf.family for p in ps]
        donors = [(ocf, ps) for ocf, ps in docs if ocf.family != cf.family]
        same_lang = [d for d in donors if d[0].lang == cf.lang]
        self.donors = same_lang if len(same_lang) >= 2 else donors
        self.streams = {k: getattr(self, "_" + k.replace("-", "_"))(sub_rng(seed, k, cf.name))
                        for k in KINDS}

    def get(self, kind: str) -> SpanCase | None:
        return next(self.streams[kind], None)

    def _passages(self, rng, *, sentences_only: bool = False):  # type: ignore[no-untyped-def]
        order = list(range(len(self.pieces)))
        rng.shuffle(order)
        for i in order:
            text = self.pieces[i].chunk.text
            cands = sentences(text) + ([] if sentences_only else line_runs(text, rng))
            rng.shuffle(cands)
            for s, e in cands[:4]:
                if unique_in(text, text[s:e]):
                    yield i, s, e

    def _case(self, kind: str, i: int, quote: str, rng, *, claimed: str | None = None,  # type: ignore[no-untyped-def]
              truth: tuple[int, int] | None = None, note: str = "",
              window: list[Chunk] | None = None) -> SpanCase:
        own = self.pieces[i].chunk
        win = window if window is not None else _window(self.pieces, i, self.others, rng)
        return SpanCase(kind, self.cf.name, tuple(win), claimed or own.id, quote, own.id,
                        truth, note)

    def _exact(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng):
            yield self._case("exact", i, self.pieces[i].chunk.text[s:e], rng, truth=(s, e))

    def _typography(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng):
            alt = alter_typography(self.pieces[i].chunk.text[s:e], rng)
            if alt is not None:
                yield self._case("typography", i, alt[0], rng, truth=(s, e), note="+".join(alt[1]))

    def _repair_one(self, rng):  # type: ignore[no-untyped-def]
        for n, (i, s, e) in enumerate(self._passages(rng)):
            own = self.pieces[i].chunk
            win = _window(self.pieces, i, self.others, rng)
            quote, note = own.text[s:e], "verbatim"
            if n % 2:
                alt = alter_typography(quote, rng)
                if alt is None:
                    continue
                quote, note = alt[0], "+".join(alt[1])
            if holders(win, quote) != [own.id]:
                continue
            wrong = [c.id for c in win if c.id != own.id and c.document == own.document
                     and not shares_half(c, quote)]
            if wrong:
                yield self._case("repair-one", i, quote, rng, claimed=rng.choice(wrong),
                                 truth=(s, e), note=note, window=win)

    def _repair_two(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng):
            piece = self.pieces[i]
            own = piece.chunk
            # A second chunking of the same page that starts 300–700 characters before the
            # quote: the quote then sits in two chunks (overlapping chunk windows).
            o2 = max(0, piece.offset + s - rng.randint(300, 700))
            if o2 == piece.offset:
                continue
            twin = Chunk(id=f"{self.cf.path.stem}#p{own.pages[0]}:{o2}", document=own.document,
                         text=piece.page_text[o2:o2 + CHUNK_SIZE], pages=own.pages)
            quote = own.text[s:e]
            if quote not in twin.text:
                continue
            win = [*_window(self.pieces, i, self.others, rng), twin]
            if any(c.id == twin.id for c in win[:-1]):
                continue
            if sorted(holders(win, quote)) != sorted([own.id, twin.id]):
                continue
            third = [c.id for c in win if c.id not in (own.id, twin.id)
                     and not shares_half(c, quote)]
            if third:
                yield self._case("repair-two", i, quote, rng, claimed=rng.choice(third),
                                 note=f"holders {own.id} and {twin.id}", window=win)

    def _unknown_id(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng):
            quote = self.pieces[i].chunk.text[s:e]
            yield self._case("unknown-id", i, quote, rng,
                             claimed=f"{self.cf.path.stem}#p{9999}:{rng.randrange(10**6)}",
                             note="the quote is in the window under another id")

    def _rewrite(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng, sentences_only=True):
            text = rewrite(self.pieces[i].chunk.text[s:e], rng)
            if text is not None:
                yield self._case("rewrite", i, text, rng, truth=(s, e))

    def _merged(self, rng):  # type: ignore[no-untyped-def]
        order = list(range(len(self.pieces)))
        rng.shuffle(order)
        for i in order:
            text = self.pieces[i].chunk.text
            sents = sentences(text)
            pairs = [(a, b) for a in range(len(sents)) for b in range(a + 2, len(sents))]
            rng.shuffle(pairs)
            for a, b in pairs[:2]:
                (s1, e1), (s2, e2) = sents[a], sents[b]
                first = " ".join(text[s1:e1].split()).rstrip(".!?")
                second = " ".join(text[s2:e2].split())
                joiner = rng.choice(("; ", ", and ", " "))
                second = second if joiner == " " else second[:1].lower() + second[1:]
                yield self._case("merged", i, first + joiner + second, rng,
                                 truth=(s1, e2), note=f"sentences {a} and {b}")

    def _invented(self, rng):  # type: ignore[no-untyped-def]
        if not self.donors:
            return
        order = list(range(len(self.pieces)))
        rng.shuffle(order)
        for i in order:
            ocf, ops = rng.choice(self.donors)
            donor = rng.choice(ops).chunk.text
            cands = sentences(donor)
            if not cands:
                continue
            s, e = rng.choice(cands)
            quote = " ".join(donor[s:e].split())
            win = _window(self.pieces, i, self.others, rng)
            win = [c for c in win if c.document == self.cf.path.stem]
            if holders(win, quote):
                continue
            yield self._case("invented", i, quote, rng, window=win, note=f"from {ocf.name}")


    def _changed_number(self, rng):  # type: ignore[no-untyped-def]
        for i, s, e in self._passages(rng):
            text = self.pieces[i].chunk.text
            changed = change_digit(text[s:e], rng)
            if changed is None:
                continue
            win = _window(self.pieces, i, self.others, rng)
            if holders(win, changed[0]):
                continue  # the changed text is in the window too: it says that
            yield self._case("changed-number", i, changed[0], rng, truth=(s, e),
                             note=changed[1], window=win)


# --------------------------------------------------------------------------- running


@dataclass
class SpanResult:
    kind: str
    doc: str
    claimed_id: str
    quote: str
    outcome: str
    chunk_id: str | None
    repaired_from: str | None
    text_match: str | None
    span: tuple[int, int] | None
    score: float | None
    reason: str
    ok: bool
    problem: str = ""
    true_id: str | None = None
    truth: tuple[int, int] | None = None
    found: str | None = None
    note: str = ""
    seconds: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)


def run_case(case: SpanCase) -> SpanResult:
    t0 = time.perf_counter()
    at = attribute(case.window, case.claimed_id, case.quote)
    dt = time.perf_counter() - t0
    sp = at.span
    by_id = {c.id: c for c in case.window}
    found = None
    if sp is not None and at.chunk_id in by_id:
        found = by_id[at.chunk_id].text[sp.start:sp.end]
    res = SpanResult(case.kind, case.doc, case.claimed_id, case.quote, at.outcome, at.chunk_id,
                     at.repaired_from, sp.kind if sp else None,
                     (sp.start, sp.end) if sp else None, sp.score if sp else None, at.reason,
                     ok=False, true_id=case.true_id, truth=case.truth, found=found,
                     note=case.note, seconds=dt)
    res.ok, res.problem = check(case, res)
    return res


def check(case: SpanCase, r: SpanResult) -> tuple[bool, str]:
    """Whether the result is what this kind must end as, and if not, what went wrong."""
    if case.kind == "exact":
        if r.outcome != "located" or r.text_match != "exact":
            return False, f"{r.outcome}/{r.text_match}, wanted located/exact"
        if r.found != case.quote or r.chunk_id != case.true_id:
            return False, "span text differs from the quote"
        return True, ""
    if case.kind in ("typography", "repair-one"):
        if r.outcome != "located":
            return False, f"{r.outcome}, wanted located"
        if r.chunk_id != case.true_id:
            return False, f"attributed to {r.chunk_id}, wanted {case.true_id}"
        if case.kind == "repair-one" and r.repaired_from != case.claimed_id:
            return False, "not reported as repaired"
        if r.span != case.truth:
            return False, f"span {r.span} != raw range {case.truth}"
        return True, ""
    if case.kind in ("repair-two", "unknown-id"):
        return (r.outcome == "rejected"), ("" if r.outcome == "rejected"
                                           else f"{r.outcome}, wanted rejected")
    if case.kind == "changed-number" and r.text_match in ("exact", "fuzzy"):
        return False, f"a changed figure ended as an accepted {r.text_match} span"
    if r.text_match == "exact":
        return False, "ended as an exact span"
    if case.kind == "invented" and r.outcome == "located":
        return False, "invented quote got an accepted span"
    return True, ""


# --------------------------------------------------------------------------- report

TARGETS = {
    "exact": "100% exact span", "typography": "100% raw range", "repair-one": "100% repaired",
    "repair-two": "100% rejected", "unknown-id": "100% rejected",
    "rewrite": "never exact", "merged": "never exact", "invented": "no accepted span",
    "changed-number": "never exact/fuzzy",
}
COLUMNS = ("located", "repaired", "review", "not_located", "rejected",
           "m:exact", "m:fuzzy", "m:review", "m:none")


def summarise(results: Sequence[SpanResult]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for r in results:
        row = table.setdefault(r.kind, dict.fromkeys(("n", *COLUMNS, "ok"), 0))
        row["n"] += 1
        row[r.outcome] += 1
        row["repaired"] += r.repaired_from is not None
        row[f"m:{r.text_match or 'none'}"] += 1
        row["ok"] += r.ok
    return table


def case_lines(results: Sequence[SpanResult]) -> list[str]:
    """One line per case, without timings: two runs of the same matcher give equal files."""
    return [f"{k}\t{r.kind}\t{r.doc}\t{r.claimed_id}\t{r.outcome}\t{r.chunk_id}\t"
            f"{r.repaired_from}\t{r.text_match}\t{r.span}\t{r.score}\t{r.ok}\t"
            f"{r.problem}\t{r.quote!r}\t{r.reason!r}\n" for k, r in enumerate(results)]


def print_report(results: Sequence[SpanResult], seconds: float, *, show_fail: bool) -> None:
    table = summarise(results)
    head = f"{'kind':<12}{'n':>5}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'ok':>6}  target"
    print("outcome = attribute(); m: = span kind (text_match)")
    print(head)
    print("-" * len(head))
    for k in KINDS:
        if k not in table:
            continue
        row = table[k]
        print(f"{k:<12}{row['n']:>5}" + "".join(f"{row[c]:>12}" for c in COLUMNS)
              + f"{row['ok']:>6}  {TARGETS[k]}")
    print()

    def rate(kind: str, label: str) -> None:
        if kind in table:
            n, ok = table[kind]["n"], table[kind]["ok"]
            print(f"{label:<52}{ok:>5} / {n:<5} {100 * ok / n:6.1f}%")

    rate("exact", "exact-span accuracy (verbatim quotes)")
    rate("typography", "exact raw range (typography-altered quotes)")
    rate("repair-one", "wrong id, one other holder → repaired, right span")
    rate("repair-two", "wrong id, two holders → rejected")
    rate("unknown-id", "unknown id → rejected")
    bad_exact = sum(1 for r in results if r.kind in ("rewrite", "merged", "invented")
                    and r.text_match == "exact")
    invented_ok = sum(1 for r in results if r.kind == "invented" and r.outcome == "located")
    print(f"{'rewrites / merged / invented ending as exact':<52}{bad_exact:>5}   (target 0)")
    print(f"{'invented quotes with an accepted span':<52}{invented_ok:>5}   (target 0)")
    changed_ok = sum(1 for r in results if r.kind == "changed-number"
                     and r.text_match in ("exact", "fuzzy"))
    print(f"{'changed figures with an accepted span':<52}{changed_ok:>5}   (target 0)")
    for kind in ("rewrite", "merged"):
        acc = [r for r in results if r.kind == kind and r.outcome == "located"]
        on_src = sum(1 for r in acc if r.span and r.truth and r.chunk_id == r.true_id
                     and r.span[0] < r.truth[1] and r.truth[0] < r.span[1])
        print(f"{kind + ' accepted as fuzzy (span on the source text)':<52}{len(acc):>5}"
              f"   ({on_src} on the source)")
    used = Counter(t for r in results if r.kind in ("typography", "repair-one")
                   for t in r.note.split("+") if t and t != "verbatim")
    print("typography transforms exercised: "
          + ", ".join(f"{k} {v}" for k, v in sorted(used.items())))
    times = sorted(r.seconds for r in results)
    if times:
        print(f"\n{len(results)} cases in {seconds:.1f} s; attribute() median "
              f"{1e3 * times[len(times) // 2]:.2f} ms, max {1e3 * times[-1]:.1f} ms")
    fails = [r for r in results if not r.ok]
    if show_fail and fails:
        print(f"\n{len(fails)} failing case(s):")
        for r in fails:
            print(f"- [{r.kind}] {r.doc}  claimed {r.claimed_id}  → {r.outcome} "
                  f"{r.text_match} {r.span} in {r.chunk_id}: {r.problem}")
            print(f"    quote: {r.quote!r}")
            if r.found is not None:
                print(f"    found: {r.found!r}")
            print(f"    reason: {r.reason}  note: {r.note}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="folder of PDFs (default: ../shared/corpus)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=120, help="cases per kind (default 120)")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    ap.add_argument("--show-fail", action="store_true", help="print every failing case")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--cases", metavar="FILE",
                    help="also write one line per case to FILE (diff two runs)")
    args = ap.parse_args(argv)
    kinds = parse_kinds(ap, args.kinds, KINDS)
    corpus = require_corpus(args.corpus)
    t0 = time.perf_counter()
    cases = build_cases(corpus_files(corpus), args.seed, args.limit, kinds)
    results = [run_case(c) for c in cases]
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"seed": args.seed, "seconds": round(seconds, 2),
                          "table": summarise(results),
                          "cases": [asdict(r) for r in results]}, ensure_ascii=False, indent=1))
    else:
        print_report(results, seconds, show_fail=args.show_fail)
    if args.cases:
        Path(args.cases).write_text("".join(case_lines(results)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
