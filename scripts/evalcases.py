"""Shared pieces of the evaluation scripts: the corpus, seeded randomness, typography
variants, line runs on a page, and the geometric verdict (right / wrong / not located).

Nothing here imports the matcher's search code: cases are built from the PDF's own words
(through :class:`matcher.words.PageWords`, so word indices agree with ``Placement.words``)
and judged against their boxes, never against what the matcher returned elsewhere.
The reference normaliser :func:`ref_fold` is deliberately independent of
``matcher.normalize`` so that a folding bug in the matcher cannot hide its own cases.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import re
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"

Box = tuple[float, float, float, float]


# --------------------------------------------------------------------------- corpus


@dataclass(frozen=True)
class CorpusFile:
    """One PDF of the corpus and what its manifest says about it."""

    path: Path
    category: str
    text_layer: str  # "yes", "partial", "no"

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def family(self) -> str:
        """Documents sharing text on purpose (1040 of 2010 and 2025, NICS and its rotation)."""
        n = self.path.stem
        if "1040" in n:
            return "irs1040"
        if "nics" in n:
            return "nics"
        return n

    @property
    def lang(self) -> str:
        for tag, lang in (("_fr_", "fr"), ("_lu_", "fr"), ("_de_", "de"), ("_es_", "es"),
                          ("_it_", "it")):
            if tag in f"_{self.path.stem}_":
                return lang
        return "en"


def resolve_corpus(arg: str | None) -> Path | None:
    """The corpus folder (``--corpus`` or ``../shared/corpus`` beside the repo), if present."""
    p = Path(arg) if arg else DEFAULT_CORPUS
    return p if p.is_dir() and any(p.glob("*.pdf")) else None


def require_corpus(arg: str | None) -> Path:
    """The corpus folder, or exit with a message saying where it was looked for."""
    p = resolve_corpus(arg)
    if p is None:
        where = Path(arg) if arg else DEFAULT_CORPUS
        raise SystemExit(f"no corpus of PDFs at {where} — pass --corpus DIR "
                         "(the real-PDF corpus lives in ../shared/corpus beside the repo)")
    return p


def corpus_files(corpus: Path) -> list[CorpusFile]:
    """Every PDF of the corpus with a text layer (``bad/`` and scans excluded), sorted.

    Uses ``MANIFEST.tsv`` when there is one; otherwise every ``*.pdf`` in the folder, with
    the category taken from the file-name prefix and the text layer assumed present.
    """
    manifest = corpus / "MANIFEST.tsv"
    out: list[CorpusFile] = []
    if manifest.exists():
        with manifest.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                path = corpus / row["file"]
                if row["file"].startswith("bad/") or not path.exists():
                    continue
                out.append(CorpusFile(path, row["category"], row["has_text_layer"]))
    else:
        for path in corpus.glob("*.pdf"):
            out.append(CorpusFile(path, path.stem.split("_")[0], "yes"))
    return sorted((f for f in out if f.text_layer != "no" and f.category != "scanned"),
                  key=lambda f: f.name)


# --------------------------------------------------------------------------- randomness


def sub_rng(seed: int, *keys: object) -> random.Random:
    """A generator seeded by ``seed`` and ``keys`` (stable across runs: crc32, not hash())."""
    return random.Random(seed * 1_000_003 + zlib.crc32(repr(keys).encode()))


# --------------------------------------------------------------------------- typography

_REF_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                             "\u201a": "'", "\u201e": '"', "\u2032": "'", "\u2033": '"'})
_REF_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]")
_REF_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")


def ref_fold(text: str) -> str:
    """Reference comparison form: what "the same words up to typography" means here.

    Independent of ``matcher.normalize`` on purpose (see the module docstring).
    """
    t = _REF_INVISIBLE.sub("", text)
    t = unicodedata.normalize("NFKC", t).casefold()
    t = "".join(c for c in unicodedata.normalize("NFD", t) if not unicodedata.combining(c))
    t = _REF_DASHES.sub("-", t.translate(_REF_QUOTES))
    return " ".join(t.split())


@dataclass(frozen=True)
class Transform:
    """One typographic change a model or a re-extraction makes to copied text."""

    name: str
    applies: Callable[[str], bool]
    apply: Callable[[str, random.Random], str]


def _some(rng: random.Random, n: int, share: float = 0.6) -> set[int]:
    """A non-empty random subset of ``range(n)``."""
    picked = {i for i in range(n) if rng.random() < share}
    return picked or {rng.randrange(n)}


def _replace_some(text: str, pattern: str, repl: Callable[[str], str],
                  rng: random.Random) -> str:
    hits = list(re.finditer(pattern, text))
    if not hits:
        return text
    chosen = _some(rng, len(hits))
    out, last = [], 0
    for k, m in enumerate(hits):
        out.append(text[last:m.start()])
        out.append(repl(m.group()) if k in chosen else m.group())
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def _curly(text: str, rng: random.Random) -> str:
    out = []
    double_open = True
    for i, ch in enumerate(text):
        if ch == "'":
            opening = i == 0 or text[i - 1].isspace()
            out.append("\u2018" if opening else "\u2019")
        elif ch == '"':
            out.append("\u201c" if double_open else "\u201d")
            double_open = not double_open
        else:
            out.append(ch)
    return "".join(out)


def _soft_hyphens(text: str, rng: random.Random) -> str:
    def cut(w: str) -> str:
        k = rng.randrange(2, len(w) - 2)
        return w[:k] + "\u00ad" + w[k:]
    return _replace_some(text, r"[^\W\d_]{6,}", cut, rng)


def _ligate(text: str, rng: random.Random) -> str:
    table = {"fi": "\ufb01", "fl": "\ufb02", "ff": "\ufb00"}
    return _replace_some(text, "fi|fl|ff", lambda s: table[s], rng)


def _change_case(text: str, rng: random.Random) -> str:
    how = rng.choice(("upper", "lower", "swapfirst"))
    if how == "upper":
        return text.upper()
    if how == "lower":
        return text.lower()
    return re.sub(r"\b\w", lambda m: m.group().swapcase(), text)


def _spaces(text: str, rng: random.Random) -> str:
    return _replace_some(text, " ", lambda s: rng.choice(("\u00a0", "\u00a0\u00a0", "  ",
                                                          "\u2009", "\u202f")), rng)


TRANSFORMS: tuple[Transform, ...] = (
    Transform("curly-quotes", lambda t: "'" in t or '"' in t, _curly),
    Transform("straight-quotes", lambda t: bool(re.search("[\u2018\u2019\u201c\u201d]", t)),
              lambda t, r: t.translate(_REF_QUOTES)),
    Transform("dashes", lambda t: "-" in t,
              lambda t, r: _replace_some(t, "-", lambda s: r.choice("\u2013\u2014\u2010"), r)),
    Transform("hyphens", lambda t: bool(re.search("[\u2013\u2014]", t)),
              lambda t, r: re.sub("[\u2013\u2014]", "-", t)),
    Transform("nbsp", lambda t: " " in t, _spaces),
    Transform("newlines", lambda t: "\n" in t, lambda t, r: re.sub(r"\s*\n\s*", " ", t)),
    Transform("soft-hyphens", lambda t: bool(re.search(r"[^\W\d_]{6,}", t)), _soft_hyphens),
    Transform("drop-invisible", lambda t: bool(_REF_INVISIBLE.search(t)),
              lambda t, r: _REF_INVISIBLE.sub("", t)),
    Transform("ligatures", lambda t: bool(re.search("fi|fl|ff", t)), _ligate),
    Transform("unligature", lambda t: bool(re.search("[\ufb00-\ufb06]", t)),
              lambda t, r: re.sub("[\ufb00-\ufb06]",
                                  lambda m: unicodedata.normalize("NFKC", m.group()), t)),
    Transform("case", lambda t: any(c.isalpha() for c in t), _change_case),
)


_COMMON = frozenset({"nbsp", "soft-hyphens", "newlines", "case"})


def alter_typography(text: str, rng: random.Random, *,
                     exclude: Sequence[str] = ()) -> tuple[str, tuple[str, ...]] | None:
    """Apply one to three applicable transforms; ``None`` if none changes the text.

    The result is guaranteed to differ from ``text`` and to be equal to it under
    :func:`ref_fold` (a transform that would change the words is discarded).
    """
    usable = [t for t in TRANSFORMS if t.name not in exclude and t.applies(text)]
    # Spaces, soft hyphens, newlines and case apply to nearly every passage; try the
    # rarer changes first so that they are exercised whenever a passage allows them.
    rng.shuffle(usable)
    usable.sort(key=lambda t: t.name in _COMMON)
    want = rng.randint(1, 3)
    out, used = text, []
    for t in usable:
        if len(used) >= want:
            break
        changed = t.apply(out, rng)
        if changed != out and ref_fold(changed) == ref_fold(text):
            out = changed
            used.append(t.name)
    return (out, tuple(used)) if used else None


# --------------------------------------------------------------------------- page lines

_LETTER = re.compile(r"[^\W\d_]")


def word_texts(pw, line: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [pw.words[i].text for i in pw.lines[line].words]


def is_prose_line(pw, line: int, *, min_words: int = 4) -> bool:  # type: ignore[no-untyped-def]
    """At least ``min_words`` words, mostly words with letters, not a row of numbers."""
    ws = word_texts(pw, line)
    if len(ws) < min_words:
        return False
    lettered = sum(1 for w in ws if len(_LETTER.findall(w)) >= 2)
    return lettered >= 0.7 * len(ws) and sum(len(w) for w in ws) >= 16


def paragraphs(pw) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Runs of consecutive lines (reading order) that sit one under the other.

    Lines are paired along the text direction (``Line.across``/``along``), so on a page
    rotated 90° the "next line" is beside, not below.
    """
    out: list[list[int]] = []
    for i, ln in enumerate(pw.lines):
        if out and _follows(pw.lines[out[-1][-1]], ln):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _follows(a, b) -> bool:  # type: ignore[no-untyped-def]
    if a.vertical != b.vertical:
        return False
    ta, tb = a.thickness, b.thickness
    if ta <= 0 or tb <= 0 or not 0.7 <= ta / tb <= 1.4:
        return False
    (a0, a1), (b0, b1) = a.along(), b.along()
    overlap = min(a1, b1) - max(a0, b0)
    if overlap < 0.5 * min(a1 - a0, b1 - b0):
        return False
    (c0, c1), (d0, d1) = a.across(), b.across()
    gap = max(c0, d0) - min(c1, d1)  # distance between the two lines, < 0 if overlapping
    return -0.3 * ta <= gap <= 1.2 * ta


def separate_places(pw, a: Sequence[int], b: Sequence[int]) -> bool:  # type: ignore[no-untyped-def]
    """Two runs of lines that are separate places: no shared line, and either different
    paragraphs or at least two lines between them."""
    if set(a) & set(b):
        return False
    paras = {li: k for k, para in enumerate(paragraphs(pw)) for li in para}
    if paras[a[0]] != paras[b[0]]:
        return True
    return min(abs(x - y) for x in a for y in b) >= 3


def starts_mid_word(pw, line: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the line begins with the rest of a word hyphenated at the previous line's end.

    A quote starting there would start with half a word ("velopment of our culture").
    """
    if line == 0 or not pw.lines[line].words or not pw.lines[line - 1].words:
        return False
    prev = pw.words[pw.lines[line - 1].words[-1]].text
    first = pw.words[pw.lines[line].words[0]].text
    return prev.endswith(("-", "\u00ad", "\u2010")) and first[:1].islower()


def quote_tokens(pw, lines: Sequence[int]) -> tuple[list[str], list[tuple[int, ...]]]:  # type: ignore[no-untyped-def]
    """The words of consecutive lines as a reader would copy them, and their word indices.

    A line ending in ``sub-`` followed by a line starting in lowercase is read as one
    word (as ``page_text`` joins it), pointing at both page words.
    """
    toks: list[str] = []
    idx: list[tuple[int, ...]] = []
    for k, li in enumerate(lines):
        for pos, wi in enumerate(pw.lines[li].words):
            text = pw.words[wi].text
            if (pos == 0 and k > 0 and toks and toks[-1].endswith("-") and len(toks[-1]) > 1
                    and text[:1].islower()):
                toks[-1] = toks[-1][:-1] + text
                idx[-1] = idx[-1] + (wi,)
            else:
                toks.append(text)
                idx.append((wi,))
    return toks, idx


def split_hyphen_tokens(pw, lines: Sequence[int]) -> str | None:  # type: ignore[no-untyped-def]
    """The lines with a line-end hyphen kept as ``sub- scription`` (a raw copy), or None."""
    joined, _ = quote_tokens(pw, lines)
    raw = [pw.words[wi].text for li in lines for wi in pw.lines[li].words]
    return " ".join(raw) if len(raw) != len(joined) else None


# --------------------------------------------------------------------------- atom sequences


class AtomIndex:
    """Every page's atoms for one document, to find where a sequence of atoms occurs."""

    def __init__(self, pages: Sequence) -> None:  # type: ignore[type-arg]
        self.texts: list[list[str]] = [[a.text for a in pw.atoms] for pw in pages]
        self.words: list[list[tuple[int, ...]]] = [[a.words for a in pw.atoms] for pw in pages]
        self.first: dict[str, list[tuple[int, int]]] = {}
        for p, texts in enumerate(self.texts):
            for k, t in enumerate(texts):
                self.first.setdefault(t, []).append((p, k))
        self._ngrams: dict[int, set[tuple[str, ...]]] = {}

    def occurrences(self, seq: Sequence[str], *, page: int | None = None,
                    ) -> list[tuple[int, frozenset[int]]]:
        """``(page, word indices)`` of each contiguous occurrence of ``seq``."""
        if not seq:
            return []
        out = []
        n = len(seq)
        for p, k in self.first.get(seq[0], ()):
            if page is not None and p != page:
                continue
            if self.texts[p][k:k + n] == list(seq):
                out.append((p, frozenset(w for ws in self.words[p][k:k + n] for w in ws)))
        return out

    def stands_spread(self, seq: Sequence[str], max_gap: int) -> bool:
        """Whether ``seq`` stands on some page in order, at most ``max_gap`` atoms between
        each two of its atoms (the same words with a few others dropped between them)."""
        if not seq:
            return False
        for p, k in self.first.get(seq[0], ()):
            texts = self.texts[p]
            reach = {k}  # where the atoms so far may end
            for a in seq[1:]:
                reach = {j for r in reach for j in range(r + 1, min(len(texts), r + max_gap + 2))
                         if texts[j] == a}
                if not reach:
                    break
            if reach:
                return True
        return False

    def ngram_share(self, seq: Sequence[str], n: int = 3) -> float:
        """Share of ``seq``'s atom n-grams that occur anywhere in the document."""
        if n not in self._ngrams:
            self._ngrams[n] = {tuple(t[i:i + n]) for t in self.texts
                               for i in range(len(t) - n + 1)}
        grams = [tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)]
        if not grams:
            return 0.0
        return sum(g in self._ngrams[n] for g in grams) / len(grams)


# --------------------------------------------------------------------------- verdicts

RECALL_MIN = 0.6     # share of each truth part's words that must be highlighted
PRECISION_MIN = 0.6  # share of highlighted words that must be truth words
PARTIAL_PRECISION = 0.9  # a wrong placement this precise only highlighted too little


def centre_in(box: Box, rects: Sequence[Box], tol: float = 1.0) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(r[0] - tol <= cx <= r[2] + tol and r[1] - tol <= cy <= r[3] + tol for r in rects)


@dataclass(frozen=True)
class Truth:
    """Where a quote really is on one page.

    ``parts`` are the boxes of the words the quote contains, one part per place it was
    taken from (recall is required of each); ``area`` is the whole source passage,
    including words the quote left out (highlighting those is not a mistake). When
    ``area`` is empty it is the union of the parts.
    """

    page: int
    parts: tuple[tuple[Box, ...], ...]
    area: tuple[Box, ...] = ()

    @property
    def region(self) -> tuple[Box, ...]:
        return self.area or tuple(b for part in self.parts for b in part)


@dataclass(frozen=True)
class Verdict:
    outcome: str  # "right", "wrong", "none"
    detail: str   # why: "", "placed" (fabricated), "other page", "partial", "off"
    precision: float = 0.0
    recall: float = 0.0  # the smallest part recall


def judge(page: int | None, rects: Sequence[Box], page_boxes: Sequence[Box],
          truths: Sequence[Truth]) -> Verdict:
    """Right place, wrong place or not located, from what a reader would see highlighted.

    The highlighted words are the page words whose centre lies in a rectangle, so a rect
    that spans unrelated words counts them against precision. Right needs, for some
    truth on that page: precision ≥ ``PRECISION_MIN`` (highlighted words inside the
    source passage, ``Truth.region``) and recall ≥ ``RECALL_MIN`` in every part (the
    quote's own words; an assembled quote highlighted at one of its two places only is
    not right).
    """
    if not rects or page is None:
        return Verdict("none", "")
    if not truths:
        return Verdict("wrong", "placed")
    shown = [b for b in page_boxes if centre_in(b, rects)]
    best: Verdict | None = None
    for t in truths:
        if t.page != page:
            continue
        truth_boxes = t.region
        prec = (sum(centre_in(b, truth_boxes) for b in shown) / len(shown)) if shown else 0.0
        rec = min(sum(centre_in(b, rects) for b in part) / len(part) for part in t.parts)
        if prec >= PRECISION_MIN and rec >= RECALL_MIN:
            return Verdict("right", "", prec, rec)
        detail = "partial" if prec >= PARTIAL_PRECISION else "off"
        cand = Verdict("wrong", detail, prec, rec)
        if best is None or (cand.precision, cand.recall) > (best.precision, best.recall):
            best = cand
    return best or Verdict("wrong", "other page")


def rect_anomalies(rects: Sequence[Box], pw, words: Sequence[int]) -> list[str]:  # type: ignore[no-untyped-def]
    """Geometry the contract forbids: empty rects, a rect spanning separate lines, or
    declared words outside every rect."""
    out = []
    boxes = [w.rect for w in pw.words]
    for r in rects:
        inside = [i for i, b in enumerate(boxes) if centre_in(b, [r], tol=0.5)]
        if not inside:
            out.append(f"rect {tuple(round(v, 1) for v in r)} covers no word")
            continue
        lines = sorted({pw.words[i].line for i in inside})
        if len(lines) > 1:
            spans = [pw.lines[li].across() for li in lines]
            spans.sort()
            if any(b[0] >= a[1] for a, b in itertools.pairwise(spans)):
                out.append(f"rect {tuple(round(v, 1) for v in r)} spans {len(lines)} lines")
    stray = [i for i in words if not centre_in(boxes[i], rects)]
    if stray:
        out.append(f"{len(stray)} highlighted word(s) outside every rect")
    return out


def parse_kinds(ap: argparse.ArgumentParser, text: str, known: Sequence[str]) -> list[str]:
    """The ``--kinds`` list, or an argparse error naming the unknown ones."""
    kinds = [k for k in text.split(",") if k]
    unknown = set(kinds) - set(known)
    if unknown:
        ap.error(f"unknown kind(s) {sorted(unknown)}; choose from {', '.join(known)}")
    return kinds


# --------------------------------------------------------------------------- changed facts
#
# One fact changed in an otherwise verbatim copy: the quotes a matcher must never mark
# green. Each returns the changed text and what changed, or None when the text offers no
# place for that change.

_DIGIT = re.compile(r"\d")


def change_digit(text: str, rng: random.Random) -> tuple[str, str] | None:
    """One digit of one figure replaced by another digit ("$925.18" → "$952.18"-like)."""
    spots = [m.start() for m in _DIGIT.finditer(text)]
    if not spots:
        return None
    at = rng.choice(spots)
    new = rng.choice([d for d in "0123456789" if d != text[at]])
    changed = text[:at] + new + text[at + 1:]
    start = text.rfind(" ", 0, at) + 1
    end = len(text) if (e := text.find(" ", at)) < 0 else e
    return changed, f"{text[start:end]} → {changed[start:end]}"


# Where a negation goes in each language: after (en, de, fr) or before (es, it) one of
# these verbs. French gets "pas" after the verb, enough to change what is said.
_NEGATE: dict[str, tuple[str, frozenset[str], bool]] = {
    "en": ("not", frozenset("is are was were will shall may must can should would could does "
                            "do did has have had".split()), True),
    "de": ("nicht", frozenset("ist sind war waren wird werden kann können muss müssen darf "
                              "soll sollen".split()), True),
    "fr": ("pas", frozenset("est sont était sera peut doit doivent peuvent".split()), True),
    "es": ("no", frozenset("es son era será puede deben debe pueden está están".split()), False),
    "it": ("non", frozenset("è sono era sarà può deve devono possono".split()), False),
}


def insert_negation(text: str, lang: str, rng: random.Random) -> tuple[str, str] | None:
    """A negation inserted beside a verb ("will pay" → "will not pay")."""
    neg, verbs, after = _NEGATE.get(lang, _NEGATE["en"])
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if w.lower().strip(",.;:") in verbs
             and not (i + 1 < len(words) and words[i + 1].lower() == neg)]
    if not spots:
        return None
    i = rng.choice(spots)
    at = i + 1 if after else i
    out = [*words[:at], neg, *words[at:]]
    if not after and at == 0:
        out[0], out[1] = neg.capitalize(), out[1][:1].lower() + out[1][1:]
    return " ".join(out), f"{neg!r} {'after' if after else 'before'} {words[i]!r}"


_OPPOSITES = {
    # English
    "shorter": "longer", "short": "long", "before": "after", "increase": "decrease",
    "increased": "decreased", "increases": "decreases", "higher": "lower", "high": "low",
    "more": "less", "maximum": "minimum", "include": "exclude", "includes": "excludes",
    "included": "excluded", "including": "excluding", "accept": "reject",
    "accepted": "rejected", "first": "last", "early": "late", "earlier": "later",
    "above": "below", "inside": "outside", "minor": "major", "positive": "negative",
    "open": "closed", "true": "false", "same": "different", "allowed": "prohibited",
    "permitted": "prohibited", "required": "optional", "mandatory": "optional",
    "large": "small", "larger": "smaller", "largest": "smallest", "greater": "lesser",
    "start": "end", "begin": "end", "full": "partial", "internal": "external",
    "public": "private", "upper": "lower", "left": "right", "north": "south",
    "east": "west", "gain": "loss", "profit": "loss", "income": "expense", "buy": "sell",
    "import": "export", "add": "remove", "enable": "disable", "enabled": "disabled",
    "valid": "invalid", "legal": "illegal", "possible": "impossible", "likely": "unlikely",
    "able": "unable", "approve": "deny", "approved": "denied", "success": "failure",
    "strong": "weak", "fast": "slow", "hot": "cold", "light": "heavy", "easy": "difficult",
    "simple": "complex", "young": "old", "new": "old", "male": "female", "up": "down",
    "top": "bottom", "front": "back", "over": "under", "most": "least", "lowest": "highest",
    "best": "worst", "better": "worse", "good": "bad", "reduce": "raise", "win": "lose",
    "always": "rarely", "all": "some", "many": "few", "dependent": "independent",
    # German, French, Spanish, Italian
    "mehr": "weniger", "hoch": "niedrig", "vor": "nach", "erste": "letzte", "groß": "klein",
    "neu": "alt", "früh": "spät", "plus": "moins", "avant": "après", "premier": "dernier",
    "grand": "petit", "haut": "bas", "nouveau": "ancien", "más": "menos", "antes": "después",
    "primero": "último", "mayor": "menor", "alto": "bajo", "nuevo": "viejo", "più": "meno",
    "prima": "dopo", "primo": "ultimo", "grande": "piccolo", "basso": "alto",
    "nuovo": "vecchio",
}
_OPPOSITES.update({v: k for k, v in list(_OPPOSITES.items()) if v not in _OPPOSITES})
_LETTERS_RUN = re.compile(r"[^\W\d_]+")


def opposite_word(text: str, rng: random.Random) -> tuple[str, str] | None:
    """One word replaced by its opposite ("shorter-term" → "longer-term"), case kept."""
    spots = [m for m in _LETTERS_RUN.finditer(text) if m.group().lower() in _OPPOSITES]
    if not spots:
        return None
    m = rng.choice(spots)
    old = m.group()
    new = _OPPOSITES[old.lower()]
    if old.isupper() and len(old) > 1:
        new = new.upper()
    elif old[:1].isupper():
        new = new.capitalize()
    return text[:m.start()] + new + text[m.end():], f"{old} → {new}"

