"""Find the page a quote is on: hinted pages first, then the document through an index.

The index is built once per document (atom → pages) so a quote with no usable hint
costs a dictionary look-up per distinct word plus full placement on a handful of
pages, not a scan of every page.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace

from .document import PdfSource
from .normalize import atoms as split_atoms
from .placement import (
    LOCATE_COVERAGE,
    MIN_CHANGED_QUOTE_ATOMS,
    TIE_EPSILON,
    Placement,
    not_located,
    place_on_page,
)
from .variants import may_join

# At most this many unhinted pages get full placement, best index score first.
MAX_CANDIDATE_PAGES = 6
# A page must hold at least this share of the quote's (document-weighted) atoms to be
# worth placing on; an absent page cannot reach LOCATE_COVERAGE anyway.
MIN_PAGE_SHARE = 0.45


class DocumentIndex:
    """Which pages hold which atoms; built once from every page's words."""

    def __init__(self, source: PdfSource, *, progress: Callable[[int, int], None] | None = None
                 ) -> None:
        self.page_count = source.page_count
        self.pages_of: dict[str, dict[int, int]] = {}
        self.wordless: list[int] = []  # pages with no text layer and no stored OCR words
        for n in range(source.page_count):
            words = source.page_words(n)
            if not words.words:
                self.wordless.append(n)
            for atom, k in words.atom_counts.items():
                self.pages_of.setdefault(atom, {})[n] = k
            if progress is not None:
                progress(n + 1, source.page_count)

    def candidate_pages(self, quote_atoms: Sequence[str], *, exclude: Sequence[int] = ()
                        ) -> list[int]:
        """Pages most likely to hold the quote, best first (weighted by document rarity).

        One atom the document lacks is left out of the share (a changed figure must still
        lead to the page it was changed on, to be shown there with the difference named);
        so are atoms a hyphen split that the document holds joined ("Entde- ckung").
        """
        n = max(self.page_count, 1)
        scores: dict[int, float] = {}
        total = 0.0
        distinct = set(self._respell(quote_atoms))
        absent = 0.0
        for atom in distinct:
            pages = self.pages_of.get(atom, {})
            w = math.log((n + 1) / (len(pages) + 0.5))
            total += w
            if not pages:
                absent = w
            for p in pages:
                scores[p] = scores.get(p, 0.0) + w
        if len(distinct) >= MIN_CHANGED_QUOTE_ATOMS:
            total -= absent
        if total <= 0:
            return []
        skip = set(exclude)
        ranked = sorted((p for p in scores if p not in skip), key=lambda p: -scores[p])
        return [p for p in ranked if scores[p] / total >= MIN_PAGE_SHARE][:MAX_CANDIDATE_PAGES]


    def _respell(self, quote_atoms: Sequence[str]) -> list[str]:
        """Neighbouring quote atoms the document lacks but holds joined, joined."""
        out: list[str] = []
        i = 0
        have = self.pages_of
        while i < len(quote_atoms):
            a = quote_atoms[i]
            b = quote_atoms[i + 1] if i + 1 < len(quote_atoms) else ""
            if b and (a not in have or b not in have) and may_join(a, b) and a + b in have:
                out.append(a + b)
                i += 2
            else:
                out.append(a)
                i += 1
        return out


_INDEXES: weakref.WeakKeyDictionary[PdfSource, DocumentIndex] = weakref.WeakKeyDictionary()


def document_index(source: PdfSource) -> DocumentIndex:
    """The source's index, built on first use and kept as long as the source lives."""
    idx = _INDEXES.get(source)
    if idx is None:
        idx = _INDEXES[source] = DocumentIndex(source)
    return idx


def locate_quote(
    source: PdfSource,
    quote: str,
    *,
    hints: Sequence[int] = (),
    index: DocumentIndex | Callable[[], DocumentIndex] | None = None,
) -> Placement:
    """Locate ``quote`` in the document: hinted pages (0-based) first, then everywhere.

    A hint is not a promise: when the hinted pages do not hold the quote, the rest of
    the document is searched and the reason says where it was found instead. ``index``
    may be a factory, so the index is only built when some quote needs it.
    """
    if not quote.strip():
        return not_located("the quote is empty")
    quote_atoms = split_atoms(quote)
    if not quote_atoms:
        return not_located("the quote has no words to look for (punctuation only)")
    valid_hints = [h for h in dict.fromkeys(hints) if 0 <= h < source.page_count]
    bad_hints = [h for h in hints if not 0 <= h < source.page_count]
    note = (f"; page hint {bad_hints[0] + 1} is outside the document "
            f"(1–{source.page_count})") if bad_hints else ""

    hinted = [place_on_page(source.page_words(h), quote) for h in valid_hints]
    best = _best(hinted)
    if best is not None and best.status == "located":
        return _with_note(best, note)

    if index is None:
        idx = document_index(source)
    elif isinstance(index, DocumentIndex):
        idx = index
    else:
        idx = index()
    others = [place_on_page(source.page_words(p), quote)
              for p in idx.candidate_pages(quote_atoms, exclude=valid_hints)]
    elsewhere = _best(others)
    if elsewhere is not None and (best is None or elsewhere.score > best.score):
        if valid_hints and elsewhere.placed:
            hint_names = ", ".join(str(h + 1) for h in valid_hints)
            note += f"; not on hinted page {hint_names}"
        twins = [o for o in others if o is not elsewhere and o.placed
                 and elsewhere.score - o.score < TIE_EPSILON * 100
                 and o.score >= LOCATE_COVERAGE * 100]
        if twins and elsewhere.status == "located" and not valid_hints:
            pages = ", ".join(_page_label(t) for t in twins)
            return replace(elsewhere, status="review",
                           reason=f"the quote fits page {_page_label(elsewhere)} and page "
                                  f"{pages} equally well; give a page hint to choose" + note,
                           other_pages=tuple(t.page for t in twins if t.page is not None))
        best = elsewhere
    if (best is None or not best.placed) and idx.wordless:
        note += "; " + _wordless_note(idx.wordless, source.page_count)
    if best is None:
        return not_located("no page of the document holds the quote's words" + note)
    return _with_note(best, note)


def _wordless_note(pages: Sequence[int], page_count: int) -> str:
    """Tell the reader that scanned pages were not searched, and how to fix it."""
    if len(pages) == page_count:
        where = "no page has"
    else:
        shown = ", ".join(str(p + 1) for p in pages[:5]) + ("…" if len(pages) > 5 else "")
        where = f"page{'s' if len(pages) > 1 else ''} {shown} {'have' if len(pages) > 1 else 'has'}"
    return (f"{where} a text layer or OCR words (a scan?); run 'citeview prepare' on its "
            "folder, or OCR the page in the viewer")


def _best(placements: Sequence[Placement]) -> Placement | None:
    """The strongest placement; placed beats unplaced, then higher score, then order."""
    if not placements:
        return None
    return max(placements, key=lambda p: (p.placed, p.status == "located", p.score))


def _with_note(p: Placement, note: str) -> Placement:
    return replace(p, reason=p.reason + note) if note else p


def _page_label(p: Placement) -> str:
    return "?" if p.page is None else str(p.page + 1)
