"""Quote → character range inside a chunk's raw text, or an honest refusal.

Exact ``str.find`` first; then the same search on folded text; then a fuzzy alignment
of folded text. Every folded offset goes back to raw offsets through the fold's
back-map, so the span always indexes the bytes stored for the chunk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .diff import Difference, describe, diff_quote
from .normalize import fold
from .vocabulary import TextMatch

SpanKind = TextMatch  # how the span was found: the report's ``text_match``

# A fuzzy alignment at or above ACCEPT is a typographic or near-verbatim copy; between
# REVIEW and ACCEPT it is recognisably the passage but reworded, so a person decides;
# below REVIEW it is not a copy of anything in the chunk. (The seed's measured cut-offs.)
ACCEPT_SCORE = 95.0
REVIEW_SCORE = 85.0
# The alignment score ignores how much of the chunk was skipped; the length ratio sees
# only lengths. An accepted span must be 0.85–1.20 times the quote's length, else a
# short window that happens to align (a fragment) would be stored as the whole quote.
MIN_LENGTH_RATIO = 0.85
MAX_LENGTH_RATIO = 1.20
# A plain word the alignment window cut off (it has the quote's length, so a quote that
# dropped words ends inside the passage) is looked for up to this share of the quote's
# length beyond the window on each side; a figure or negation never is (fuzzy_verdict).
CONTEXT_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class SpanMatch:
    """A half-open raw range ``[start, end)`` of the chunk, how it was found, and why."""

    start: int
    end: int
    score: float
    kind: SpanKind
    reason: str
    # The quote's words the matched text lacks (matcher.diff); a span with any is review.
    differences: tuple[Difference, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.kind != "review"


class FoldedText(Protocol):
    """Folded text with its back-map (:class:`matcher.normalize.Folded` or a cached fold)."""

    @property
    def text(self) -> str: ...

    def raw_span(self, start: int, end: int) -> tuple[int, int]: ...


def locate_span(chunk_text: str, quote: str, *, chunk_fold: FoldedText | None = None,
                quote_fold: str | None = None) -> SpanMatch | None:
    """Find ``quote`` in ``chunk_text``; ``None`` when nothing resembles it.

    ``chunk_fold`` and ``quote_fold`` are ``fold(chunk_text)`` and ``fold(quote).text``
    when the caller already has them (a check folds each chunk once, not once per quote).

    >>> m = locate_span("Deductible \u2014 $500 per claim.", "deductible - $500")
    >>> m.kind, "Deductible \u2014 $500 per claim."[m.start:m.end]
    ('fuzzy', 'Deductible — $500')

    Exact and folded-exact searches are linear; the fuzzy step is rapidfuzz's
    ``partial_ratio_alignment``, roughly O(len(quote) × len(chunk)) in the worst case.
    """
    if not quote.strip():
        return None
    hit = chunk_text.find(quote)
    if hit >= 0:
        return SpanMatch(hit, hit + len(quote), 100.0, "exact", "the quote occurs verbatim")

    hay = chunk_fold if chunk_fold is not None else fold(chunk_text)
    needle = quote_fold if quote_fold is not None else fold(quote).text
    if not needle or not hay.text:
        return None
    at = hay.text.find(needle)
    if at >= 0:
        start, end = hay.raw_span(at, at + len(needle))
        return SpanMatch(start, end, 100.0, "fuzzy",
                         "identical after normalising typography (quotes, dashes, spaces, case)")

    from rapidfuzz import fuzz  # only now: exact quotes, the usual case, never need it

    al = fuzz.partial_ratio_alignment(needle, hay.text, score_cutoff=REVIEW_SCORE)
    if al is None or al.dest_end <= al.dest_start:
        return None
    a, b = _snap_to_words(hay.text, al.dest_start, al.dest_end)
    start, end = hay.raw_span(a, b)
    # The window has the quote's length, so a quote that dropped words ends inside the
    # passage: its last words may stand just beyond the window.
    reach = int(CONTEXT_SHARE * len(needle))
    ca, cb = _snap_to_words(hay.text, max(0, a - reach), min(len(hay.text), b + reach))
    around = chunk_text[slice(*hay.raw_span(ca, cb))] if cb > ca else None
    kind, reason, differences = fuzzy_verdict(quote, chunk_text[start:end], al.score,
                                              (b - a) / len(needle), around=around)
    return SpanMatch(start, end, al.score, kind, reason, differences)


def fuzzy_verdict(quote: str, matched: str, score: float, ratio: float, *,
                  around: str | None = None) -> tuple[SpanKind, str, tuple[Difference, ...]]:
    """Accept a fuzzy alignment as the quote's span, or send it to review, and say why.

    ``matched`` is the chunk's raw text under the alignment, ``ratio`` its folded length
    over the quote's. Accepted only when the score and the length agree that this is a
    near-verbatim copy, and every word of the quote is in the matched text: a copy that
    changes a figure or adds a "not" scores high, yet it is not the chunk's text. A plain
    word the window cut off may stand in ``around`` (the text a little beyond it); a
    figure or a negation must stand in the window itself. The differences are named
    whatever the verdict.

    >>> fuzzy_verdict("premium $952.18 per year", "premium $925.18 per year", 96.0, 1.0)[:2]
    ('review', 'similar, but the quote says $952.18; the chunk says $925.18 (score 96.0)')
    """
    differences = diff_quote(quote, matched).differences
    if differences and around is not None:
        beyond = {(d.kind, d.quote) for d in diff_quote(quote, around).differences}
        differences = tuple(d for d in differences
                            if d.kind != "word" or (d.kind, d.quote) in beyond)
    said = f": {describe(differences, where='chunk')}" if differences else ""
    if score < ACCEPT_SCORE:
        return "review", (f"similar but not a copy (score {score:.1f} < {ACCEPT_SCORE:g})"
                          f"{said}"), differences
    if not MIN_LENGTH_RATIO <= ratio <= MAX_LENGTH_RATIO:
        return "review", (f"matched text is {ratio:.2f}× the quote's length "
                          f"(accepted: {MIN_LENGTH_RATIO}–{MAX_LENGTH_RATIO}){said}"), differences
    if differences:
        return "review", (f"similar, but {describe(differences, where='chunk')} "
                          f"(score {score:.1f})"), differences
    return "fuzzy", f"near-verbatim (score {score:.1f})", ()


def _snap_to_words(text: str, a: int, b: int) -> tuple[int, int]:
    """Widen ``[a, b)`` so it neither starts nor ends inside a word, then trim spaces.

    The alignment window has the quote's length, so it can cut a word in two; a
    highlight that starts mid-word reads as a bug.
    """
    while a > 0 and text[a - 1].isalnum() and text[a].isalnum():
        a -= 1
    while b < len(text) and text[b - 1].isalnum() and text[b].isalnum():
        b += 1
    while a < b and text[a] == " ":
        a += 1
    while b > a and text[b - 1] == " ":
        b -= 1
    return a, b

