"""Place a quote on one page: per-line rectangles over the page's own words, or a refusal.

The quote is compared with the page as a bag of *atoms* (folded alphanumeric runs), each
weighted by how rare it is on that page, so common words help draw the box but cannot
carry a match alone. Two kinds of evidence decide which lines belong to the citation:

* **runs** — quote atoms found on the page in the quoted order, possibly stepping over
  words the quote dropped (never over words the quote holds elsewhere). They pin down
  which of several similar places is meant, and which lines belong to which half of a
  quote assembled from two places;
* **dense lines** — lines made mostly of quote atoms, with a distinctive atom or most of
  the quote's weight. They cover shuffled quotes and forms read out of order (values
  printed above their labels).

This module holds the decision; the machinery lives beside it: the page model and its
runs (:mod:`matcher.pagemodel`), filling a band (:mod:`matcher.filling`), and grouping,
growing and drawing bands (:mod:`matcher.bands`). :func:`place_on_page` runs the steps in
order — refuse what cannot be a citation, find candidate bands, choose the best, grow it
into a citation, judge it — and :func:`explain_placement` runs the same steps and keeps
what each one saw. The band accounting for most of the quote's weight wins, in-order
evidence breaking ties; identical places are all shown and flagged; places told apart by
word order alone must differ clearly (or by a rare word one holds), or nothing is shown.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .bands import (
    TIE_EPSILON,
    add_places,
    found_text_of,
    group_bands,
    lines_text_of,
    rects_of,
    rects_over,
    refine,
    row_copies,
    stands_elsewhere,
)
from .context import QuoteContext
from .diff import Difference, QuoteDiff, describe, diff_quote
from .normalize import atoms as split_atoms
from .ownrun import figure_replaced
from .pagemodel import Band, PageModel
from .reading import tokens_under, under_highlight, visible
from .rows import exact_row, figure_off_row, one_row_as_read
from .stretches import (
    MIN_CHANGED_QUOTE_ATOMS,
    exact_copies,
    exact_pieces,
    one_word_off,
    part_of_a_word,
    swapped_stretch,
    words_in,
)
from .trace import PlacementTrace, Recorder
from .variants import hyphen_breaks, respell
from .vocabulary import PlacementStatus, Rect
from .words import PageWords

# --- Thresholds (one place; scripts/eval_placement.py is the evidence for them) --------
# Share of the quote's weight the chosen band(s) must account for. At 0.80 a quote with
# a third of its words dropped still places (the quote is a subset of the page), while a
# sentence from another document, whose rare words are absent, does not.
LOCATE_COVERAGE = 0.80
# Between REVIEW_COVERAGE and LOCATE_COVERAGE the place is shown but flagged for review.
REVIEW_COVERAGE = 0.60
# When less than ORDER_FREE_SHARE of the quote's weight was found in quoted order, the
# best place must beat every other by AMBIGUITY_MARGIN of coverage, or nothing is shown.
ORDER_FREE_SHARE = 0.5
AMBIGUITY_MARGIN = 0.10
# An assembled citation is also grown from this many runner-up places, to compare.
RUNNER_UPS = 2
# Quotes longer than this many atoms are not citations (a pasted page, a runaway model).
MAX_QUOTE_ATOMS = 1500
# A quote of at most this many words (a name, a policy number, a date) is too short for
# rarity weights to tell its place: it is placed where it stands exactly, word for word
# after folding, and only there; found nowhere so, it goes the usual way (a label and
# its value quoted out of the printed order).
SHORT_QUOTE_WORDS = 4
# A short quote standing more often than this on one page is too common to show.
MAX_SHORT_COPIES = 8
# A quote found whole and in the quoted order but for this many atoms (a changed figure,
# a swapped word) is shown for review however little weight is left: the absent atom
# weighs the most of all, so a short quote with one digit changed falls below
# REVIEW_COVERAGE, yet it is plainly that passage, and the reader must see what differs.
MAX_CHANGED_ATOMS = 1
# ...provided the quote has at least MIN_CHANGED_QUOTE_ATOMS (matcher.stretches) atoms.

__all__ = ["LOCATE_COVERAGE", "REVIEW_COVERAGE", "TIE_EPSILON", "Placement", "PlacementStatus",
           "PlacementTrace", "explain_placement", "not_located", "place_on_page"]


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a quote is on a page (0-based ``page``), how sure we are, and why."""

    status: PlacementStatus
    page: int | None
    score: float
    reason: str
    rects: tuple[Rect, ...] = ()
    words: tuple[int, ...] = ()
    found_text: str = ""
    alternatives: tuple[tuple[Rect, ...], ...] = field(default=(), compare=False)
    # Other pages (0-based) that hold the quote equally well, when no hint chose.
    other_pages: tuple[int, ...] = field(default=(), compare=False)
    # The quote compared word by word with the highlighted lines (matcher.diff); a
    # placement whose quote has a word those lines lack is never "located".
    diff: QuoteDiff | None = field(default=None, compare=False)
    # The share of the quote's weight found in the quoted order (in-order evidence, which
    # breaks ties between pages as it does within a page).
    ordered: float = field(default=0.0, compare=False)
    # How many times a short quote stands word for word on the page (0: not looked for).
    copies: int = field(default=0, compare=False)

    @property
    def differences(self) -> tuple[Difference, ...]:
        """The quote's words the highlighted lines lack (and negations the quote drops)."""
        return () if self.diff is None else self.diff.differences

    @property
    def in_order(self) -> float:
        """The share of the quote's atoms the highlighted lines hold in the quoted order."""
        return self.ordered if self.diff is None else self.diff.in_order

    @property
    def placed(self) -> bool:
        return bool(self.rects)


def not_located(reason: str, page: int | None = None, score: float = 0.0) -> Placement:
    """A refusal: no rectangles, and the reason a person will read."""
    return Placement("not_located", page, score, reason)


# --- The steps ---------------------------------------------------------------------------


def place_on_page(page: PageWords, quote: str, *, context: QuoteContext | None = None
                  ) -> Placement:
    """Place ``quote`` on ``page``: one rectangle per matched line, or ``not_located``.

    Order-free and rarity-weighted; never returns a rectangle that is not the union of
    the page's own word boxes. ``context`` (the chunk text around the quote) chooses among
    identical copies. Roughly linear in the page's word count plus the quote's.
    """
    return _place(page, quote, None, context)


def explain_placement(page: PageWords, quote: str, *, context: QuoteContext | None = None
                      ) -> PlacementTrace:
    """Place ``quote`` on ``page`` as :func:`place_on_page` does, keeping every step's view.

    The trace names the runs, the candidate lines, the bands compared with their shares,
    the band chosen and the final citation, beside the :class:`Placement` itself (which is
    the one :func:`place_on_page` returns).
    """
    recorder = Recorder()
    placement = _place(page, quote, recorder, context)
    return recorder.trace(split_atoms(quote), placement)


def _place(page: PageWords, quote: str, rec: Recorder | None,
           context: QuoteContext | None) -> Placement:
    placed = _place_steps(page, quote, rec, context)
    if placed.status != "review" or placed.alternatives or \
            any(d.kind == "number" and d.page for d in placed.differences):
        return placed
    # Shown for review without a figure named against the page's own: read along its
    # row, which may name it (a table read column by column, look-alike rows), keeping
    # the share of the quote found.
    spelled = respell(split_atoms(quote), page, hyphens=hyphen_breaks(quote))
    row = figure_off_row(page, spelled, placed.words, one_row=True)
    return placed if row is None else replace(
        _run_placement(page, quote, row, "reads along one row of the page",
                       "; its figure stands in another row"), score=placed.score)


def _place_steps(page: PageWords, quote: str, rec: Recorder | None,
                 context: QuoteContext | None) -> Placement:
    quote_atoms = split_atoms(quote)
    refusal = _refusal(page, quote_atoms)
    if refusal is not None:
        return refusal
    spelled = respell(quote_atoms, page, hyphens=hyphen_breaks(quote))
    # Three or four words are too little to say a word was changed where they were taken
    # from: a short quote is placed as written, and once located only its figure is judged.
    short = sum(1 for w in quote.split() if split_atoms(w)) <= SHORT_QUOTE_WORDS
    if short:
        exact = _short_quote(page, spelled, context)
        if exact is not None:
            return _contained(exact, quote, page)
    placement = _place_order_free(page, quote, spelled, rec, context)
    if short and placement.status == "not_located" and (why := part_of_a_word(page, spelled)):
        return not_located(why, page.number)
    located = placement.status == "located"
    if not located and placement.alternatives:
        return placement  # copies the order-free way saw and showed: a stretch read on
        # across them would be a guess
    # A passage quoted with one word changed: the one stretch of the page the quote reads
    # along but for that word. It is the passage quoted even where the quote's words also
    # stand elsewhere, assembled from other lines or with words dropped ("approved
    # software part number is [not] installed", whose "not" stands four lines up), and
    # where too little of it is on any line to be found the order-free way.
    if located and placement.diff is not None and placement.diff.verbatim and \
            _one_stretch(page, placement.words):
        return placement  # the quote stands word for word on lines that follow each other
    if placement.placed and (off := _along_its_run(page, quote, spelled, placement)):
        return off
    if located:
        swap = swapped_stretch(page, spelled)  # two words exchanged along one passage
        if swap is not None and (sw := _edited_placement(page, quote, swap, spelled,
                                                         edges=False)
                                 ).status == "review":
            return sw
    edited = None if short and not (located and not one_row_as_read(page, placement)) \
        else one_word_off(page, spelled, figures_only=short)
    changed = None if edited is None else _edited_placement(page, quote, edited, spelled)
    if changed is not None and changed.status == "located":
        return placement if located else changed  # the word off was a variant after all
    whole = placement if located else None
    if whole is None:
        # Perhaps an assembled quote whose parts are a few words inside long lines, each
        # plainly there word for word.
        pieces = exact_pieces(page, spelled)
        if pieces:
            whole = _contained(_pieces_placement(page, pieces), quote, page)
            # ...but pieces from two rows may be one row read with another row's figure
            # (a contents line "2.1.4. Archival …" quoted with the next line's "2.1.5.").
            off = _along_its_run(page, quote, spelled, whole) \
                if whole.status == "located" else None
            if off is not None:
                return off
    if changed is None:
        return whole or placement
    return changed if whole is None or not whole.placed else _both_readings(changed, whole)


def _place_order_free(page: PageWords, quote: str, spelled: Sequence[str],
                      rec: Recorder | None, context: QuoteContext | None) -> Placement:
    """The order-free, rarity-weighted placement: candidate bands, choose, grow, judge."""
    model = PageModel(page, list(spelled))
    bands = _candidate_bands(model, rec)
    if not bands:
        return not_located("no passage on this page resembles the quote", page.number)
    chosen = _choose(model, bands)
    if isinstance(chosen, Placement):
        return chosen
    best, twins = chosen
    if twins and context is not None:
        # Identical places: the one with the chunk's words around it is the one quoted.
        alike = [best, *twins]
        k = context.choose(page, [(min(b.taken), max(b.taken)) for b in alike])
        if k is not None:
            best, twins = alike[k], []
    final, places, copies = _grow(model, bands, best, twins)
    if rec is not None:
        rec.best, rec.citation = best, final
    judged = _judge(model, final, places, copies, twins)
    return _contained(replace(judged, ordered=final.ordered), quote, page)


def _refusal(page: PageWords, quote_atoms: Sequence[str]) -> Placement | None:
    """Refuse what cannot be placed at all: no words, a runaway quote, a wordless page."""
    if not quote_atoms:
        return not_located("the quote has no words to look for", page.number)
    if len(quote_atoms) > MAX_QUOTE_ATOMS:
        return not_located(f"the quote is {len(quote_atoms)} words long, too long to be a "
                           "citation", page.number)
    if not page.words:
        return not_located("the page has no text layer and no stored OCR words", page.number)
    return None


def _short_quote(page: PageWords, quote_atoms: Sequence[str],
                 context: QuoteContext | None) -> Placement | None:
    """A short quote where it stands exactly: once → located; a few times → every copy
    shown for review (unless the chunk's context picks one); None where it stands nowhere.
    """
    stretches = exact_copies(page, quote_atoms)
    if not stretches:
        return None
    if len(stretches) > MAX_SHORT_COPIES:
        return replace(not_located(f"the quoted words stand {len(stretches)} times on this "
                                   "page, too often to show", page.number),
                       copies=len(stretches))
    copies = [words_in(page, a, b) for a, b in stretches]
    pick = None if context is None else context.choose(page, [(a, b - 1) for a, b in stretches])
    if len(copies) == 1 or pick is not None:
        rects, words = rects_over(page, copies[pick or 0])
        why = "the quote stands word for word on this page" if len(copies) == 1 else \
            f"the quote stands {len(copies)} times on this page; its chunk's words around it " \
            "pick this one"
        return Placement("located", page.number, 100.0, why, rects, words,
                         found_text_of(page, words), ordered=1.0, copies=len(copies))
    rects, words = rects_over(page, copies[0])
    alts = tuple(rects_over(page, c)[0] for c in copies[1:])
    extra = tuple(dict.fromkeys(r for alt in alts for r in alt if r not in rects))
    return Placement("review", page.number, 100.0,
                     f"the quoted words stand {len(copies)} times on this page; all "
                     f"{len(copies)} are shown", rects + extra, words,
                     found_text_of(page, words), alts, ordered=1.0, copies=len(copies))


def _edited_placement(page: PageWords, quote: str, stretch: tuple[int, int],
                      spelled: Sequence[str], *, edges: bool = True) -> Placement:
    """The stretch a quote stands in but for one word: shown for review, the word named.

    The quote is compared with the stretch itself, not its whole lines: the quote read
    along it has a word the page has not there, though the word may stand a little
    further on ("the first day … the last" for "the last day"). At an edge where the
    stretch differs from the quote, the page word beside it is compared too: it is the
    one the quote's word stands against. (If the word is a known variant after all, or
    said twice, it is located.) Without ``edges`` (a stretch read with two words
    exchanged, each of the quote's atoms standing in it) nothing beside it is compared:
    the next line's "e-cigarettes" is no copy of the quote's last word "cigarettes".
    """
    start, end = stretch
    texts = page.atom_texts
    rects, ordered_words = rects_over(page, words_in(page, start, end))
    lo = start - 1 if edges and start > 0 and texts[start] != spelled[0] else start
    hi = end + 1 if edges and end < len(texts) and texts[end - 1] != spelled[-1] else end
    compared: dict[int, list[str]] = {}
    for w in words_in(page, lo, hi):
        compared.setdefault(page.words[w].line, []).append(visible(page.words[w].text))
    n_atoms = len(spelled)
    score = round(100.0 * (n_atoms - 1) / n_atoms, 1)
    stands = Placement("located", page.number, score,
                       "the quote stands word for word on this page", rects, ordered_words,
                       found_text_of(page, ordered_words), ordered=1.0)
    placed = _contained(stands, quote, page,
                        found=[" ".join(ws) for _, ws in sorted(compared.items())])
    if placed.status == "located":
        return replace(placed, score=100.0)
    return replace(placed, reason=f"{describe(placed.differences)} (the quote stands on this "
                                  "page as written but for that)")


def _along_its_run(page: PageWords, quote: str, spelled: Sequence[str], placed: Placement
                   ) -> Placement | None:
    """A placement read again along its own run, where that tells more: a table row
    that is the quote word for word (located there, not on cells gathered from two rows,
    :func:`matcher.rows.exact_row`), or one with the quote's figure where the row has
    another (the next row's premium for this row's, :func:`matcher.rows.figure_off_row`);
    for a located quote, also a passage read with words dropped whose figure stands a
    line away (:func:`matcher.ownrun.figure_replaced`). None if none of these."""
    row = exact_row(page, spelled, placed.words)
    if row is not None and set(row) != set(placed.words):
        return _run_placement(page, quote, row, "stands word for word along one row of "
                              "the page", "")
    if placed.status != "located":
        return None
    row = figure_off_row(page, spelled, placed.words)
    if row is not None:
        return _run_placement(page, quote, row, "reads along one row of the page",
                              "; its figure stands in another row")
    run = figure_replaced(page, quote, spelled, placed.words)
    if run is None:
        return None
    return _run_placement(page, quote, run, "reads along one passage of the page, words "
                          "dropped,", "; its figure stands elsewhere on the page", dropped=True)


def _run_placement(page: PageWords, quote: str, run: Sequence[int], how: str, where: str,
                   *, dropped: bool = False) -> Placement:
    """The run a quote reads along but for one figure (a table row, its cells in the
    row's order, or a passage with words dropped): shown for review, the figure named
    against the run's own."""
    rects, words = rects_over(page, run)
    cells: dict[int, list[str]] = {}  # the run's lines (cells), in the run's order
    for w in run:
        cells.setdefault(page.words[w].line, []).append(visible(page.words[w].text))
    found = [" ".join(ws) for ws in cells.values()]
    stands = Placement("located", page.number, 100.0, f"the quote {how}", rects, words,
                       " / ".join(found), ordered=1.0)
    placed = _contained(stands, quote, page, found=[" ".join(found)])
    if placed.status == "located":
        return placed
    if dropped:
        # The share of the quote the passage holds, its figure not counted: a page that
        # reads the quote but for its figure, and holds that figure a line up, must not
        # outscore the page the quote was taken from (where the figure was changed).
        n = len(split_atoms(quote))
        off = sum(len(split_atoms(d.quote or "")) for d in placed.differences)
        placed = replace(placed, score=round(100.0 * max(0, n - off) / n, 1))
    return replace(placed, reason=f"{describe(placed.differences)} (the quote {how} but "
                                  f"for that{where})")


def _one_stretch(page: PageWords, words: Sequence[int]) -> bool:
    """Whether the lines holding ``words`` follow each other in the page's reading order."""
    lines = sorted({page.words[w].line for w in words})
    return bool(lines) and lines[-1] - lines[0] == len(lines) - 1


def _both_readings(changed: Placement, whole: Placement) -> Placement:
    """A quote that reads along one passage but for a word, and also stands whole.

    Which was meant is open: a passage with one word changed, or the quote assembled
    from places (or with words dropped) where every word stands — a list of options
    "… für 42€ pro Monat" / "… für 35€ pro Monat" / "… für 23€ pro Monat" quoted as its
    first and third lines reads along the first two with 23€ for 35€. Green would be a
    guess, so both are shown for review, the changed reading first with its difference
    named, the other as the alternative.
    """
    extra = tuple(dict.fromkeys(r for r in whole.rects if r not in changed.rects))
    return replace(changed, rects=changed.rects + extra, alternatives=(whole.rects,),
                   reason=f"{changed.reason}; yet every quoted word stands on this page "
                          f"the other way shown ({whole.reason})")


def _pieces_placement(page: PageWords, pieces: Sequence[tuple[int, int]]) -> Placement:
    """The placement over the exact pieces of the page a quote is made of."""
    rects, words_in_order = rects_over(page, [w for a, b in pieces for w in words_in(page, a, b)])
    parts = f" (assembled from {len(pieces)} places)" if len(pieces) > 1 else ""
    return Placement("located", page.number, 100.0,
                     f"the quote stands word for word on this page{parts}", rects,
                     words_in_order, found_text_of(page, words_in_order), ordered=1.0)


def _candidate_bands(model: PageModel, rec: Recorder | None) -> list[Band]:
    """Candidate lines grouped into bands holding a strong line, filled and split."""
    flags = {ln: model.line_is_candidate(ln) for ln in model.touched}
    candidates = [ln for ln, (cand, _) in flags.items() if cand]
    bands = [b for b in group_bands(model.page.lines, candidates)
             if any(flags[ln][1] for ln in b.lines)]
    if rec is not None:
        rec.model, rec.flags = model, flags
    if not bands:
        return []
    bands = refine(model, bands)
    if rec is not None:
        rec.bands = bands
    return bands


def _choose(model: PageModel, bands: Sequence[Band]) -> tuple[Band, list[Band]] | Placement:
    """The best band and its twins (places equal in every respect), or a refusal.

    Among bands that account for the quote equally well, the one that holds it in order
    wins: the same words rearranged elsewhere (a label printed twice, an index entry, a
    heading) are not the passage quoted. Only places equal in both are twins.
    """
    top = max(b.coverage for b in bands)
    contenders = [b for b in bands if top - b.coverage < TIE_EPSILON]
    best = max(contenders, key=lambda b: (b.ordered, b.coverage))
    twins = [b for b in contenders if b is not best and b.used == best.used
             and best.ordered - b.ordered < TIE_EPSILON]
    if best.ordered < ORDER_FREE_SHARE and not twins:
        # Order-free evidence alone cannot tell apart two places that hold the quote's
        # words about equally (a shuffled quote of boilerplate repeated down a column).
        # A place lacking a rare word the best one holds ("Ohio." closing one of five
        # state warnings) is not a rival: that word is what tells the places apart.
        marks = {a for a in best.used if a in model.distinct}
        rivals = [b for b in bands if b is not best
                  and best.coverage - b.coverage < AMBIGUITY_MARGIN
                  and marks <= set(b.used)]
        if rivals:
            return not_located(f"{len(rivals) + 1} places on this page hold the quote's words "
                               "about equally, none in the quoted order", model.page.number,
                               round(100.0 * best.coverage, 1))
    return best, twins


def _grow(model: PageModel, bands: Sequence[Band], best: Band, twins: Sequence[Band]
          ) -> tuple[Band, int, list[Band]]:
    """The citation grown from ``best``: the joint band, how many places, copies of a part.

    The best single place can be a near miss that borrows the other half's words
    ("Dirección de la Empresa u Organización del Empleador (… Nombre de la …)" for
    "Nombre de la Empresa u Organización del Empleador"). Growing the citation from the
    runner-up places too, the one that explains the quote as well with a longer in-order
    run is the passage quoted.
    """
    final, places, copies = add_places(model, bands, best, twins)
    if places > 1 and not twins:
        for start in heapq.nlargest(RUNNER_UPS, (b for b in bands if b is not best),
                                    key=lambda b: b.coverage):
            other, n, more = add_places(model, bands, start, ())
            if n > 1 and final.coverage - other.coverage < TIE_EPSILON and \
                    other.ordered - final.ordered > -TIE_EPSILON and \
                    other.longest_run > final.longest_run:
                final, places, copies = other, n, more
    return final, places, copies


def _contained(p: Placement, quote: str, page: PageWords, *,
               found: Sequence[str] | None = None) -> Placement:
    """``p``, flagged for review with its differences named, unless the quote is contained.

    "Located" promises that the quoted words are on the page, all of them: a quote that
    changes a figure, swaps a word or adds a "not" is shown, but never green. The quote
    is compared with the highlighted lines, or with ``found`` (lines of text) if given.
    """
    if not p.placed:
        return p
    lines = lines_text_of(page, p.words) if found is None else found
    diff = diff_quote(quote, lines, ocr=page.source == "ocr")
    if found is None:
        diff = under_highlight(diff, tokens_under(page, p.words))
    if diff.contained:
        return replace(p, diff=diff)
    return replace(p, status="review", reason=f"{describe(diff.differences)} ({p.reason})",
                   diff=diff)


def _changed_in_place(model: PageModel, band: Band) -> bool:
    """Whether ``band`` holds the whole quote in the quoted order but for an atom or so."""
    if len(model.quote) < MIN_CHANGED_QUOTE_ATOMS:
        return False
    missing = sum((model.qcount - band.used).values())
    return missing <= MAX_CHANGED_ATOMS and band.ordered >= band.coverage - TIE_EPSILON


def _judge(model: PageModel, final: Band, places: int, copies: Sequence[Band],
           twins: Sequence[Band]) -> Placement:
    """The verdict on the grown citation: refused, every copy shown, review or located."""
    page = model.page
    coverage = min(1.0, final.coverage)
    score = round(100.0 * coverage, 1)
    if coverage < REVIEW_COVERAGE and not _changed_in_place(model, final):
        return not_located(f"best passage accounts for only {score:.0f}% of the quote's "
                           f"weight (needs {REVIEW_COVERAGE:.0%})", page.number, score)
    if coverage < LOCATE_COVERAGE and final.ordered < ORDER_FREE_SHARE:
        # A partial bag of words with little of it in the quoted order is too weak to show.
        return not_located(f"only {score:.0f}% of the quote's weight found, mostly not in "
                           "the quoted order", page.number, score)
    if coverage < LOCATE_COVERAGE and not twins and not copies and \
            (n := stands_elsewhere(model, final)):
        # Only part of the quote was found, and that part is printed elsewhere on the
        # page too: the rest, which would tell the copies apart, is what is missing, so
        # the copy drawn would be a guess ("And in the U.S." four times across a form row).
        return not_located(f"only {score:.0f}% of the quote's weight found, and the words "
                           f"found stand {n + 1} times on this page", page.number, score)
    rects, words = rects_of(page, [final])
    found = found_text_of(page, words)
    parts = f" (assembled from {places} places)" if places > 1 else ""
    rows = [] if twins or copies else row_copies(model, final)
    if twins or copies or rows:
        # Every copy is drawn and each is offered whole as an alternative; the reader
        # judges which was meant.
        alts = tuple(rects_of(page, [c])[0] for c in (twins or copies or rows))
        extra = tuple(dict.fromkeys(r for alt in alts for r in alt if r not in rects))
        n = len(alts) + 1
        if twins:
            what = f"the quoted text appears {n} times on this page"
        elif copies:
            what = (f"{score:.0f}% of the quote's weight found{parts}, but part of it stands "
                    f"{n} times on this page")
        else:
            what = (f"{score:.0f}% of the quote's weight found{parts}, but a quoted table "
                    "cell stands the same in the row next to its own, which the quote's "
                    "order does not rule out")
        return Placement("review", page.number, score, f"{what}; all {n} are shown",
                         rects + extra, words, found, alts)
    if coverage < LOCATE_COVERAGE:
        return Placement("review", page.number, score,
                         f"partial match: {score:.0f}% of the quote's weight found"
                         f"{parts}", rects, words, found)
    return Placement("located", page.number, score,
                     f"{score:.0f}% of the quote's weight found{parts}", rects, words, found)
