"""Find the page a quote is on: hinted pages first, then the document through an index.

The index is built once per document (atom → pages) so a quote with no usable hint
costs a dictionary look-up per distinct word plus full placement on a handful of
pages, not a scan of every page.
"""

from __future__ import annotations

import math
import weakref
from array import array
from collections.abc import Callable, Sequence
from dataclasses import replace

from .context import QuoteContext
from .document import PdfSource
from .normalize import atoms as split_atoms
from .placement import (
    LOCATE_COVERAGE,
    SHORT_QUOTE_WORDS,
    TIE_EPSILON,
    Placement,
    not_located,
    place_on_page,
)
from .stretches import MIN_CHANGED_QUOTE_ATOMS
from .variants import may_join

# At most this many unhinted pages get full placement, best index score first.
MAX_CANDIDATE_PAGES = 6
# A page must hold at least this share of the quote's (document-weighted) atoms to be
# worth placing on; an absent page cannot reach LOCATE_COVERAGE anyway.
MIN_PAGE_SHARE = 0.45
# A short quote is looked for word for word on every page holding all its atoms, up to
# this many: it is located only when it stands once in the whole document.
MAX_SHORT_PAGES = 60
# When the hinted page shows the quote for review, another page replaces it only if it
# locates the quote or accounts for this many more points of its weight: a changed
# figure is flagged where it was quoted from, not where a look-alike scores a little more.
HINT_MARGIN = 10.0


class DocumentIndex:
    """Which pages hold which atoms; built once from every page's atoms.

    Each page is read once, through :meth:`PdfSource.page_atoms` (MuPDF's word array and
    a regular expression, no word model unless the page needs one), and only the pages
    of each atom are kept, ascending, in a compact array: the index of a 350-page book
    is a few megabytes, and no page model stays in memory because of it.
    """

    def __init__(self, source: PdfSource, *, progress: Callable[[int, int], None] | None = None
                 ) -> None:
        self.page_count = source.page_count
        self.pages_of: dict[str, array[int]] = {}
        self.wordless: list[int] = []  # pages with no text layer and no stored OCR words
        code = "H" if source.page_count < 1 << 16 else "L"
        pages_of = self.pages_of
        for n in range(source.page_count):
            found, has_words = source.page_atoms(n)
            if not has_words:
                self.wordless.append(n)
            for atom in found:
                pages = pages_of.get(atom)
                if pages is None:
                    pages_of[atom] = array(code, (n,))
                else:
                    pages.append(n)
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
            pages = self.pages_of.get(atom, ())
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


    def pages_with_all(self, quote_atoms: Sequence[str], *, exclude: Sequence[int] = ()
                       ) -> list[int]:
        """Pages holding every one of the quote's atoms (where a short quote may stand)."""
        distinct = sorted(set(self._respell(quote_atoms)),
                          key=lambda a: len(self.pages_of.get(a, ())))
        if not distinct:
            return []
        pages = set(self.pages_of.get(distinct[0], ()))
        for atom in distinct[1:]:
            pages &= set(self.pages_of.get(atom, ()))
        return sorted(pages - set(exclude))

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
    context: QuoteContext | None = None,
) -> Placement:
    """Locate ``quote`` in the document: hinted pages (0-based) first, then everywhere.

    A hint is not a promise: when the hinted pages do not hold the quote, the rest of
    the document is searched and the reason says where it was found instead. ``index``
    may be a factory, so the index is only built when some quote needs it. ``context``
    (the chunk text around the quote) chooses among identical copies, on a page and
    across pages.
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

    hinted = [place_on_page(source.page_words(h), quote, context=context)
              for h in valid_hints]
    best = _best(hinted)
    # A short quote standing word for word on a hinted page (once, a few times, or too
    # often to show) has its answer there: one copy elsewhere would not make it unique.
    if best is not None and (best.status == "located" or any(p.copies for p in hinted)):
        return _with_note(best, note)

    if index is None:
        idx = document_index(source)
    elif isinstance(index, DocumentIndex):
        idx = index
    else:
        idx = index()
    others = _place_elsewhere(source, idx, quote, quote_atoms, valid_hints, context)
    exact = [o for o in others if o.copies]
    if exact:
        # A short quote stands word for word somewhere: the answer is among those pages.
        return _with_note(_short_answer(exact, hinted=bool(valid_hints)), note)
    elsewhere = _best(others)
    if elsewhere is not None and _prefer_elsewhere(elsewhere, best):
        if valid_hints and elsewhere.placed:
            hint_names = ", ".join(str(h + 1) for h in valid_hints)
            note += f"; not on hinted page {hint_names}"
        chosen = _among_equals(source, elsewhere, others, context, hinted=bool(valid_hints))
        if chosen is not None:
            return _with_note(chosen, note)
        best = elsewhere
    if best is not None and best.status == "review" and best.differences and not valid_hints:
        best = _name_alike(best, others)
    if (best is None or not best.placed) and idx.wordless:
        note += "; " + _wordless_note(idx.wordless, source.page_count)
    if best is None:
        return not_located("no page of the document holds the quote's words" + note)
    return _with_note(best, note)


def _place_elsewhere(source: PdfSource, idx: DocumentIndex, quote: str,
                     quote_atoms: Sequence[str], hinted: Sequence[int],
                     context: QuoteContext | None) -> list[Placement]:
    """The quote placed on the pages off the hinted ones that may hold it.

    A short quote is looked for word for word on every page holding all its atoms (up to
    MAX_SHORT_PAGES); found on none, it goes the usual way (a label and its value quoted
    out of the printed order) on the candidate pages, as a longer quote does.
    """
    short = sum(1 for w in quote.split() if split_atoms(w)) <= SHORT_QUOTE_WORDS
    pages = idx.pages_with_all(quote_atoms, exclude=hinted)[:MAX_SHORT_PAGES] if short else []
    placed = [place_on_page(source.page_words(p), quote, context=context) for p in pages]
    if any(p.copies for p in placed):
        return placed
    done = set(pages)
    return placed + [place_on_page(source.page_words(p), quote, context=context)
                     for p in idx.candidate_pages(quote_atoms, exclude=hinted) if p not in done]


def _among_equals(source: PdfSource, best: Placement, others: Sequence[Placement],
                  context: QuoteContext | None, *, hinted: bool) -> Placement | None:
    """When other pages hold the quote as well as ``best``'s: the one the chunk's context
    picks (located), or, with no hint, ``best`` for review naming the others; else None.
    """
    twins = [o for o in others if o is not best and _holds_as_well(o, best)]
    if not twins or best.status != "located":
        return None
    alike = [best, *twins]
    if context is not None:
        k = context.choose_among([(source.page_words(a.page or 0), a.words) for a in alike])
        if k is not None:
            return replace(alike[k], reason=alike[k].reason + "; its chunk's words around it "
                                            f"pick this page among {len(alike)}")
    if hinted:
        return None
    names = ", ".join(_page_label(t) for t in twins)
    return replace(best, status="review",
                   reason=f"the quote fits page {_page_label(best)} and page {names} "
                          "equally well; give a page hint to choose",
                   other_pages=tuple(t.page for t in twins if t.page is not None))


def _name_alike(best: Placement, others: Sequence[Placement]) -> Placement:
    """``best``, a changed quote for review, naming the pages it fits as well.

    (A figure changed in a line printed on each of them: the reader chooses.)
    """
    alike = [o for o in others if o is not best and o.placed and o.differences
             and best.score - o.score < TIE_EPSILON * 100
             and best.in_order - o.in_order < TIE_EPSILON and o.page is not None]
    if not alike:
        return best
    names = ", ".join(_page_label(o) for o in alike)
    return replace(best, reason=best.reason + f"; page {names} fits as well",
                   other_pages=tuple(o.page for o in alike if o.page is not None))


def _prefer_elsewhere(elsewhere: Placement, hinted: Placement | None) -> bool:
    """Whether the best placement off the hinted pages should replace the hinted one."""
    if hinted is None or (elsewhere.placed and not hinted.placed):
        return True
    if not elsewhere.placed:
        return not hinted.placed and elsewhere.score > hinted.score
    return elsewhere.status == "located" or elsewhere.score - hinted.score >= HINT_MARGIN


def _short_answer(exact: Sequence[Placement], *, hinted: bool) -> Placement:
    """The answer for a short quote standing word for word on the pages of ``exact``.

    Once in the document: located. On several pages: the first copy shown for review,
    the other pages named. Too often on every page: not located.
    """
    shown = [p for p in exact if p.placed]
    if not shown:
        return exact[0]
    first = max(shown, key=lambda p: p.status == "located")
    where = "; not on the hinted page" if hinted else ""
    if len(exact) == 1:
        return replace(first, reason=first.reason + where)
    others = [p.page for p in exact if p is not first and p.page is not None]
    names = ", ".join(str(n + 1) for n in others)
    return replace(first, status="review", other_pages=tuple(others),
                   reason=f"the quoted words stand word for word on page "
                          f"{_page_label(first)} and page {names}; give a page hint to "
                          f"choose{where}")


def _holds_as_well(other: Placement, best: Placement) -> bool:
    """Whether page ``other`` holds the quote as well as ``best``'s page does.

    As well: placed without a difference, about as much of the quote's weight, and as
    much of it in the quoted order ("Part 1, Section 2" is not held as well by a page
    header reading "Part 2, Section 1"). A short quote is held by every page where it
    stands word for word, however often.
    """
    if best.copies and other.copies:
        return True
    return other.placed and not other.differences and \
        best.score - other.score < TIE_EPSILON * 100 and \
        other.score >= LOCATE_COVERAGE * 100 and best.in_order - other.in_order < TIE_EPSILON


def _wordless_note(pages: Sequence[int], page_count: int) -> str:
    """Tell the reader that scanned pages were not searched, and how to fix it."""
    if len(pages) == page_count:
        where = "no page has"
    else:
        shown = ", ".join(str(p + 1) for p in pages[:5]) + ("…" if len(pages) > 5 else "")
        plural = len(pages) > 1
        where = f"page{'s' if plural else ''} {shown} {'have' if plural else 'has'} no"
    return (f"{where} text layer or OCR words (a scan?); run 'citeview prepare' on its "
            "folder, or OCR the page in the viewer")


def _best(placements: Sequence[Placement]) -> Placement | None:
    """The strongest placement: placed beats unplaced, located beats review; then among
    scores within TIE_EPSILON of the top, the most in-order evidence (the same words
    rearranged on another page lose), then the higher score, then order.
    """
    if not placements:
        return None
    key = max((p.placed, p.status == "located") for p in placements)
    group = [p for p in placements if (p.placed, p.status == "located") == key]
    top = max(p.score for p in group)
    return max((p for p in group if top - p.score < TIE_EPSILON * 100),
               key=lambda p: (p.in_order, p.score))


def _with_note(p: Placement, note: str) -> Placement:
    return replace(p, reason=p.reason + note) if note else p


def _page_label(p: Placement) -> str:
    return "?" if p.page is None else str(p.page + 1)
