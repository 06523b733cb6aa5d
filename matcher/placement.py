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

Candidate lines are grouped into *bands* of lines adjacent across the reading direction.
The quote's atoms are shared out among a band's lines — solid runs first (longest by what
is still free, their stray word or two on a neighbouring line last), then dense lines
(densest first, then by what they add, copies nearest what is taken), then short runs —
and a band is split where the lines that took atoms are far apart. The band accounting
for most of the quote's weight wins, in-order evidence breaking ties; identical places
are all shown and flagged; places told apart by word order alone must differ clearly
(or by a rare word one holds), or nothing is shown. Further bands join only when they add
a comparable share in quoted order (an assembled quote), grown from the best place and
from the runner-ups. One rectangle is drawn per line, spanning that line's matched words.
On OCR pages, a word that looks like a quote word (a misreading) is read as that word,
and a table, which tesseract reads column by column, is also read along its rows: copies of
a cell are told apart by what stands beside them, not by reading order.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .normalize import atoms as split_atoms
from .vocabulary import PlacementStatus, Rect
from .words import Line, PageWords

# --- Thresholds (one place; scripts/eval_placement.py is the evidence for them) --------
# Share of the quote's weight the chosen band(s) must account for. At 0.80 a quote with
# a third of its words dropped still places (the quote is a subset of the page), while a
# sentence from another document, whose rare words are absent, does not.
LOCATE_COVERAGE = 0.80
# Between REVIEW_COVERAGE and LOCATE_COVERAGE the place is shown but flagged for review.
REVIEW_COVERAGE = 0.60
# A line counts as "dense" when at least this share of its atoms are quote atoms.
DENSE_LINE_SHARE = 0.5
# Runs shorter than this many atoms are coincidence unless they contain a rare atom.
MIN_RUN_ATOMS = 3
# A run this long is the quote itself, so it may claim a line where quote words are
# otherwise a minority; shorter runs ("to the dwelling", or a shuffled quote's "the
# dwelling in" that happens to straddle a line break) may not.
SOLID_RUN_ATOMS = 5
# On OCR pages a run this long may claim a line where it is a minority (a table cell).
OCR_SOLID_RUN_ATOMS = 4
# Within a run, up to this many page atoms may stand between two quote atoms (words the
# quote dropped), as long as the run stays compact: its page span at most
# RUN_SPAN_RATIO times its atoms (a third of the words dropped gives 1.5).
MAX_RUN_SKIP = 3
RUN_SPAN_RATIO = 1.6
# An atom is distinctive when it occurs at most DISTINCT_MAX_COUNT times on the page, or
# (on a dense page) in at most this share of its atoms: "registro" four times among 800
# atoms is distinctive, "de" forty times is not.
DISTINCT_MAX_COUNT = 2
DISTINCT_MAX_SHARE = 0.005
# Lines whose across-axis gap is at most this many line thicknesses form one band.
BAND_GAP_LINES = 1.3
# A second band must add at least this share of the quote's weight, and at least this
# fraction of what the first band accounted for, to be drawn ("comparably strong").
SECOND_BAND_MIN_SHARE = 0.20
SECOND_BAND_RELATIVE = 0.35
# After filling, a band is split where its lines that took quote atoms are further apart
# than this many line thicknesses (a form field's label and its box may leave two).
SPLIT_GAP_LINES = 3.0
# At most this many bands make one citation (values above labels in three columns).
MAX_PLACES = 3
# When less than ORDER_FREE_SHARE of the quote's weight was found in quoted order, the
# best place must beat every other by AMBIGUITY_MARGIN of coverage, or nothing is shown.
ORDER_FREE_SHARE = 0.5
AMBIGUITY_MARGIN = 0.10
# Places whose gains differ by less than this add the very same words (a copy).
SAME_GAIN = 1e-6
# An assembled citation is also grown from this many runner-up places, to compare.
RUNNER_UPS = 2
# Two bands whose coverage differs by less than this are indistinguishable duplicates.
TIE_EPSILON = 0.02
# A matched word more than this many unmatched atoms away from the rest of its line's
# highlight is a stray common word, not part of the citation.
MAX_LINE_GAP_ATOMS = 3
# On OCR pages, a page word at least this similar (rapidfuzz ratio, 0-100) to a quote
# word of at least OCR_ALIAS_MIN_LEN letters is read as that word: one wrong letter in
# five, two in ten ("Expiraci6n", "Ermafsigte2").
OCR_ALIAS_SIMILARITY = 80.0
OCR_ALIAS_MIN_LEN = 5
# Quotes longer than this many atoms are not citations (a pasted page, a runaway model).
MAX_QUOTE_ATOMS = 1500


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

    @property
    def placed(self) -> bool:
        return bool(self.rects)


def not_located(reason: str, page: int | None = None, score: float = 0.0) -> Placement:
    """A refusal: no rectangles, and the reason a person will read."""
    return Placement("not_located", page, score, reason)


@dataclass(slots=True)
class _Band:
    lines: list[int]
    coverage: float = 0.0
    used: Counter[str] = field(default_factory=Counter)
    words: dict[int, list[int]] = field(default_factory=dict)  # line → word indices
    # Words taken as part of a run → whether that run is "solid" (long, or crossing lines).
    run_words: dict[int, bool] = field(default_factory=dict)
    ordered: float = 0.0  # share of the quote's weight taken through runs (in order)
    taken: set[int] = field(default_factory=set)  # atom positions whose budget it spent
    longest_run: int = 0


class _PageModel:
    """Per-page derived data for one quote: weights, atom positions per line, runs."""

    def __init__(self, page: PageWords, quote_atoms: list[str]) -> None:
        self.page = page
        self.quote = quote_atoms
        self.qcount = Counter(quote_atoms)
        # The page's atoms as the matcher reads them: on OCR pages a misread quote word
        # ("Expiraci6n", "informacién") is read as the word it resembles.
        self.texts: Sequence[str] = page.atom_texts
        counts = page.atom_counts
        positions = page.atom_positions
        if page.source == "ocr":
            alias = _ocr_aliases(page, self.qcount)
            if alias:
                self.texts = [alias.get(t, t) for t in page.atom_texts]
                counts = Counter(self.texts)
                positions = {}
                for pos, t in enumerate(self.texts):
                    if t in self.qcount:
                        positions.setdefault(t, []).append(pos)
        n = max(len(page.atoms), 1)
        # Rarity weight: an inverse-frequency log, so a word seen once on the page weighs
        # about twice a word seen thirty times. Atoms absent from the page get the
        # largest weight: a quote whose rare words are missing cannot reach coverage.
        self.weight = {a: math.log((n + 1) / (counts.get(a, 0) + 0.5)) for a in self.qcount}
        self.total = sum(self.weight[a] * k for a, k in self.qcount.items())
        limit = max(DISTINCT_MAX_COUNT, DISTINCT_MAX_SHARE * n)
        self.distinct = {a for a in self.qcount if 0 < counts.get(a, 0) <= limit}
        self.line_atoms = page.line_atoms
        # Only lines holding some quote atom can matter; everything below looks at
        # those alone, so a long page costs little more than a short one.
        self.hits = sorted(pos for a in self.qcount for pos in positions.get(a, ()))
        self.line_hits: dict[int, list[int]] = {}  # per line, positions of quote atoms
        for pos in self.hits:
            self.line_hits.setdefault(page.atom_lines[pos], []).append(pos)
        self.touched = sorted(self.line_hits)
        # OCR reads a table column by column, one block per column, so reading order says
        # nothing about which cells share a row: there copies are told apart by geometry.
        self.by_geometry = page.source == "ocr"
        self._context: dict[int, tuple[float, float, float]] = {}
        self.word_hits: dict[int, list[int]] = {}  # per word, positions of quote atoms
        for pos in self.hits:
            for w in page.atoms[pos].words:
                self.word_hits.setdefault(w, []).append(pos)
        self.runs = self._runs()
        # OCR reads a table row as one line, so a quoted cell is a minority of its line:
        # there a shorter run may still claim it.
        self.solid_run_atoms = OCR_SOLID_RUN_ATOMS if page.source == "ocr" else SOLID_RUN_ATOMS

    def _runs(self) -> list[tuple[int, ...]]:
        """Significant runs: quote atoms found in quote order on the page, as positions.

        A run may step over up to MAX_RUN_SKIP page atoms between two quote atoms, so a
        quote with words dropped still reads as one run across its lines. Longest
        first: when two runs compete for the same quote atoms, the longer one is the
        better explanation of where the quote came from.

        On OCR pages, runs are also read along each table row, cell after cell: tesseract
        reads a table column by column, so a row's cells are far apart in reading order.
        """
        self.run_start: dict[tuple[int, ...], int] = {}
        self.run_span: dict[tuple[int, ...], int] = {}  # atoms it spans, in its order
        runs = self._runs_along(None)
        if self.by_geometry:
            rows = self._rows()
            row_of = {ln: k for k, row in enumerate(rows) for ln in row}
            lines = self.page.atom_lines
            seen = set(runs)
            order = [pos for row in rows for ln in row for pos in self.line_atoms[ln]]
            runs += [r for r in self._runs_along(order) if r not in seen
                     and len({row_of[lines[pos]] for pos in r}) == 1]
        self.run_pos = {pos for run in runs for pos in run}  # beside() reads it, below
        # Equal runs (the same words twice on the page) go to the line that holds more
        # of the quote: that occurrence is the one the rest of the quote stands beside.
        weight, support, p = self.weight, self._line_support(), self.texts
        # Of runs equally long, the tighter one (fewer dropped words stepped over) is the
        # verbatim occurrence: "…laws of Tennessee." beats "…laws of / Pennsylvania. /
        # Tennessee:" where the run hopped over a heading.
        # On OCR pages, of copies equal in all that, the one with the rest of the quote
        # beside it: the table row holding the quoted label's own values.
        lines = self.page.atom_lines
        span = self.run_span
        runs.sort(key=lambda r: (-len(r), span[r], -sum(weight[p[x]] for x in r),
                                 -support[lines[r[0]]], self.beside(lines[r[0]])))
        return runs

    def _rows(self) -> list[list[int]]:
        """The page's lines grouped into rows, each row's lines in reading order.

        A line joins a row when its middle lies across the row's first line (a table's
        cells, read by tesseract one column after the other).
        """
        lines = self.page.lines
        rows: list[list[int]] = []
        for vertical in (False, True):
            group = sorted((ln for ln in self.line_atoms if lines[ln].vertical == vertical),
                           key=lambda ln: lines[ln].across())
            lo = hi = -math.inf
            for ln in group:
                a, b = lines[ln].across()
                if not lo <= (a + b) / 2 <= hi:
                    rows.append([])
                    lo, hi = a, b
                rows[-1].append(ln)
        return [sorted(row) for row in rows]

    def _runs_along(self, order: Sequence[int] | None) -> list[tuple[int, ...]]:
        """The runs read along ``order`` (page positions; ``None``: the page's own order)."""
        q = self.quote
        p = self.texts if order is None else [self.texts[pos] for pos in order]
        hits = self.hits if order is None else [k for k, a in enumerate(p) if a in self.qcount]
        where: dict[str, list[int]] = {}
        for j, a in enumerate(q):
            where.setdefault(a, []).append(j)
        covered: set[tuple[int, int]] = set()
        runs: list[tuple[int, ...]] = []
        nq, np_, qset = len(q), len(p), self.qcount
        lines = self.page.atom_lines
        for i in hits:
            for j in where[p[i]]:
                if (i, j) in covered:
                    continue  # inside a run already found from an earlier start
                path = [i]
                ii, jj = i, j
                while jj + 1 < nq:
                    nxt = q[jj + 1]
                    if ii + 1 < np_ and p[ii + 1] == nxt:
                        step = 1  # the common case, checked without the search below
                    else:
                        step = next((s for s in range(2, MAX_RUN_SKIP + 2)
                                     if ii + s < np_ and p[ii + s] == nxt), 0)
                        # Words a quote dropped are skipped freely; stepping over words
                        # the quote does hold (elsewhere) is how shuffled text fakes a run.
                        if not step or sum(p[x] in qset for x in range(ii + 1, ii + step)) > 1:
                            break
                    ii, jj = ii + step, jj + 1
                    covered.add((ii, jj))
                    path.append(ii)
                # An edge atom joined across a gap is usually a common word borrowed
                # from the neighbouring text ("the" at the end of the line above).
                first = j  # the quote position of the run's first atom
                while len(path) > 1 and path[1] - path[0] > 1 and p[path[0]] not in self.distinct:
                    path.pop(0)
                    first += 1
                while len(path) > 1 and path[-1] - path[-2] > 1 and \
                        p[path[-1]] not in self.distinct:
                    path.pop()
                if order is not None:
                    # Along a row a run steps from cell to cell: a piece of fewer than
                    # MIN_RUN_ATOMS atoms at either end is the next cell's coincidence
                    # ("Closure" of "Closure Permanent"); within one cell it is a run the
                    # page's own order has already read.
                    cells = [lines[order[x]] for x in path]
                    head = next((n for n, c in enumerate(cells) if c != cells[0]), len(path))
                    tail = next((n for n, c in enumerate(cells[::-1]) if c != cells[-1]),
                                len(path))
                    if head < MIN_RUN_ATOMS:
                        path, cells, first = path[head:], cells[head:], first + head
                    if tail < MIN_RUN_ATOMS:
                        path, cells = path[:len(path) - tail], cells[:len(cells) - tail]
                    if len(set(cells)) < 2:
                        continue
                k = len(path)
                if k < 2 or path[-1] - path[0] + 1 > RUN_SPAN_RATIO * k:
                    continue
                contiguous = path[-1] - path[0] + 1 == k
                if k >= MIN_RUN_ATOMS or (contiguous and any(p[x] in self.distinct
                                                             for x in path)):
                    run = tuple(path) if order is None else tuple(order[x] for x in path)
                    runs.append(run)
                    self.run_start.setdefault(run, first)
                    self.run_span.setdefault(run, path[-1] - path[0])
        return runs

    def beside(self, line: int) -> tuple[float, ...]:
        """A sort key putting first the copy with more of the quote around ``line``.

        On OCR pages, minus the weight of the quote atoms ``line`` lacks that stand on the
        other lines of its row: first those read in quoted order there (a cell reading
        "11/09/2015" beats the "11", "09" and "2015" of three other dates), then any; then
        those on the lines next to it (within BAND_GAP_LINES). On text layers ``()``:
        reading order already keeps a row's cells together.
        """
        if not self.by_geometry:
            return ()
        if line not in self._context:
            lines = self.page.lines
            me = lines[line]
            own = {self.texts[pos] for pos in self.line_hits.get(line, ())}
            ordered: set[str] = set()
            row: set[str] = set()
            near: set[str] = set()
            for other in self.touched:
                them = lines[other]
                if other == line or them.vertical != me.vertical:
                    continue
                gap = _gap(me.across(), them.across())
                hits = self.line_hits[other]
                found = {self.texts[pos] for pos in hits} - own
                if gap <= -0.5 * min(me.thickness, them.thickness):
                    # They overlap by half a line: a cell of the same row.
                    row |= found
                    ordered |= {self.texts[pos] for pos in hits if pos in self.run_pos} - own
                elif gap <= BAND_GAP_LINES * max(me.thickness, them.thickness):
                    near |= found
            weight = self.weight
            self._context[line] = (-sum(weight[a] for a in ordered),
                                   -sum(weight[a] for a in row),
                                   -sum(weight[a] for a in near - row))
        return self._context[line]

    def _line_support(self) -> dict[int, float]:
        """Per line, the share of its atoms that are quote atoms."""
        return {ln: len(self.line_hits[ln]) / len(self.line_atoms[ln]) for ln in self.touched}

    def line_is_candidate(self, line: int) -> tuple[bool, bool]:
        """(candidate, strong): strong lines hold a run or a distinctive quote atom."""
        hits = self.line_hits.get(line, [])
        if not hits:
            return False, False
        if any(p in self.run_pos for p in hits):
            return True, True
        if len(hits) < DENSE_LINE_SHARE * len(self.line_atoms[line]):
            return False, False
        texts = self.texts
        if any(texts[p] in self.distinct for p in hits):
            return True, True
        # No rare word, but the line alone holds most of the quote (a shuffled line of
        # moderately common words, a label printed twice on the form): still strong.
        held = Counter(texts[p] for p in hits) & self.qcount
        return True, sum(self.weight[a] * k for a, k in held.items()) >= 0.5 * self.total


def place_on_page(page: PageWords, quote: str) -> Placement:
    """Place ``quote`` on ``page``: one rectangle per matched line, or ``not_located``.

    Order-free and rarity-weighted; never returns a rectangle that is not the union of
    the page's own word boxes. Roughly linear in the page's word count plus the quote's.
    """
    quote_atoms = split_atoms(quote)
    if not quote_atoms:
        return not_located("the quote has no words to look for", page.number)
    if len(quote_atoms) > MAX_QUOTE_ATOMS:
        return not_located(f"the quote is {len(quote_atoms)} words long, too long to be a "
                           "citation", page.number)
    if not page.words:
        return not_located("the page has no text layer and no stored OCR words", page.number)

    model = _PageModel(page, quote_atoms)
    flags = {ln: model.line_is_candidate(ln) for ln in model.touched}
    candidates = [ln for ln, (cand, _) in flags.items() if cand]
    bands = [b for b in _group_bands(page.lines, candidates)
             if any(flags[ln][1] for ln in b.lines)]
    if not bands:
        return not_located("no passage on this page resembles the quote", page.number)
    bands = _refine(model, bands)
    if not bands:
        return not_located("no passage on this page resembles the quote", page.number)
    # Among bands that account for the quote equally well, the one that holds it in
    # order wins: the same words rearranged elsewhere (a label printed twice, an index
    # entry, a heading) are not the passage quoted. Only places equal in both are twins.
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
                               "about equally, none in the quoted order", page.number,
                               round(100.0 * best.coverage, 1))
    final, places, copies = _add_places(model, bands, best, twins)
    if places > 1 and not twins:
        # The best single place can be a near miss that borrows the other half's words
        # ("Dirección de la Empresa u Organización del Empleador (… Nombre de la …)" for
        # "Nombre de la Empresa u Organización del Empleador"). Growing the citation from
        # the runner-up places too, the one that explains the quote as well with a longer
        # in-order run is the passage quoted.
        for start in heapq.nlargest(RUNNER_UPS, (b for b in bands if b is not best),
                                    key=lambda b: b.coverage):
            other, n, more = _add_places(model, bands, start, ())
            if n > 1 and final.coverage - other.coverage < TIE_EPSILON and \
                    other.ordered - final.ordered > -TIE_EPSILON and \
                    other.longest_run > final.longest_run:
                final, places, copies = other, n, more
    coverage = min(1.0, final.coverage)
    score = round(100.0 * coverage, 1)

    if coverage < REVIEW_COVERAGE:
        return not_located(f"best passage accounts for only {score:.0f}% of the quote's "
                           f"weight (needs {REVIEW_COVERAGE:.0%})", page.number, score)
    if coverage < LOCATE_COVERAGE and final.ordered < ORDER_FREE_SHARE:
        # A partial bag of words with little of it in the quoted order is too weak to show.
        return not_located(f"only {score:.0f}% of the quote's weight found, mostly not in "
                           "the quoted order", page.number, score)
    if coverage < LOCATE_COVERAGE and not twins and not copies and \
            (n := _stands_elsewhere(model, final)):
        # Only part of the quote was found, and that part is printed elsewhere on the
        # page too: the rest, which would tell the copies apart, is what is missing, so
        # the copy drawn would be a guess ("And in the U.S." four times across a form row).
        return not_located(f"only {score:.0f}% of the quote's weight found, and the words "
                           f"found stand {n + 1} times on this page", page.number, score)
    rects, words = _rects(page, [final])
    found = _found_text(page, words)
    parts = f" (assembled from {places} places)" if places > 1 else ""
    rows = [] if twins or copies else _row_copies(model, final)
    if twins or copies or rows:
        # Every copy is drawn and each is offered whole as an alternative; the reader
        # judges which was meant.
        alts = tuple(_rects(page, [c])[0] for c in (twins or copies or rows))
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


def _refine(model: _PageModel, bands: Sequence[_Band]) -> list[_Band]:
    """Fill each band, then split it where the lines that took quote atoms are not adjacent.

    A column of near-identical paragraphs is one band of adjacent lines, but a quote's
    words may be gathered from several of its paragraphs; each adjacent group is its own
    place, refilled on its own, so places can be compared (and rivals seen).
    """
    out: list[_Band] = []
    for band in bands:
        _fill(model, band, Counter(model.qcount))
        kept = [ln for ln in band.lines if ln in band.words]
        parts = _group_bands(model.page.lines, kept, gap=SPLIT_GAP_LINES)
        if len(parts) <= 1:
            out.append(band)
            continue
        for part in parts:
            _fill(model, part, Counter(model.qcount))
            out.append(part)
    return [b for b in out if b.coverage > 0]


def _add_places(model: _PageModel, bands: Sequence[_Band], best: _Band,
                twins: Sequence[_Band]) -> tuple[_Band, int, list[_Band]]:
    """Grow the citation from ``best`` by further bands that explain the rest of the quote.

    Each candidate is filled *together* with what is already chosen, so solid runs in
    either place are served before a short dense line in one of them can take their
    common words. A band is added only if it adds a comparable share of the quote's
    weight and holds part of it in order (MIN_RUN_ATOMS words taken through runs): two
    pairs of words that merely occur on the page are not an assembled quote.

    Also returns the other ways to complete the citation when a further part stands on
    the page more than once, equally well and not beside what is chosen (each a joint
    band): which copy was meant is then for the reader to judge.
    """
    current, places = best, 1
    lines = list(best.lines)
    copies: list[_Band] = []
    for _ in range(MAX_PLACES - 1):
        options: list[tuple[float, _Band, _Band]] = []
        for band in bands:
            if band is best or band in twins or set(band.lines) <= set(lines):
                continue
            joint = _Band(lines + band.lines)
            _fill(model, joint, Counter(model.qcount))
            options.append((joint.coverage - current.coverage, joint, band))
        if not options:
            break
        # Equal gains go to the band holding the longest in-order run (the verbatim line,
        # not the same words broken over two lines in the next column), then to the band
        # nearest what is chosen (a label printed twice).
        top = max(o[0] for o in options)
        equal = [o for o in options if top - o[0] < SAME_GAIN]
        page_lines = model.page.lines
        gain, joint, band = min(equal, key=lambda o: (-o[2].longest_run,
                                                      _distance(page_lines, lines, o[2].lines)))
        # Nearness decides only between neighbours (a value's own label just below it);
        # a copy of the same words a column away is as likely to be the one quoted.
        reach = SPLIT_GAP_LINES * max(page_lines[ln].thickness for ln in band.lines)
        same = [o[1] for o in equal if o[2] is not band and o[1].used == joint.used
                and o[2].longest_run == band.longest_run]
        if _distance(page_lines, lines, band.lines) <= reach:
            same = []
        mine = set(band.lines)
        in_order = sum(model.page.words[w].line in mine for w in joint.run_words)
        # "Comparably strong" is judged inside the joint fill, where a stray word the
        # first place had borrowed from the second has gone back to it.
        share = _share(model, joint, mine)
        # A rival that alone explains the quote as well as the first place and together
        # with it explains more is the other half of an assembled quote of boilerplate
        # (Colorado's warning + Washington's heading line, the rest identical).
        rival = best.coverage - band.coverage < TIE_EPSILON and gain >= TIE_EPSILON
        # The gain may be small while the share is large: the band took back atoms the
        # first place had only borrowed ("SECTION II: CLAIMANT'S IDENTIFICATION…" lent
        # its words to a quote of "SECTION I: VETERAN'S IDENTIFICATION…").
        # A short label after a long sentence is still comparable when it holds its part
        # as a solid run ("1. Número de Registro Extranjero / Número de USCIS:").
        strong = gain >= TIE_EPSILON and share >= SECOND_BAND_MIN_SHARE and \
            (share >= SECOND_BAND_RELATIVE * (joint.coverage - share)
             or in_order >= SOLID_RUN_ATOMS)
        if in_order < MIN_RUN_ATOMS or not (strong or rival):
            break
        current, places = joint, places + 1
        lines += band.lines
        if same:
            copies = same
            break  # further parts cannot be judged against an uncertain one
    return current, places, copies


def _distance(lines: Sequence[Line], a: Sequence[int], b: Sequence[int]) -> float:
    """Gap across the reading direction between two groups of lines (0 if they overlap)."""
    a_lo = min(lines[i].across()[0] for i in a)
    a_hi = max(lines[i].across()[1] for i in a)
    b_lo = min(lines[i].across()[0] for i in b)
    b_hi = max(lines[i].across()[1] for i in b)
    return max(0.0, b_lo - a_hi, a_lo - b_hi)


def _share(model: _PageModel, band: _Band, lines: set[int]) -> float:
    """The share of the quote's weight that ``band`` found on ``lines``."""
    found = Counter(model.texts[pos] for ln in lines for w in band.words.get(ln, ())
                    for pos in model.word_hits.get(w, ()) if pos in band.taken)
    return sum(model.weight[a] * k for a, k in found.items()) / model.total


def _group_bands(lines: Sequence[Line], candidates: Iterable[int], *,
                 gap: float = BAND_GAP_LINES) -> list[_Band]:
    """Cluster candidate lines along the across-reading axis into bands of adjacent lines.

    Horizontal and vertical lines are clustered separately, so on a page rotated 90°
    the "next line" is the one beside, not below.
    """
    bands: list[_Band] = []
    for vertical in (False, True):
        group = sorted((ln for ln in candidates if lines[ln].vertical == vertical),
                       key=lambda ln: lines[ln].across()[0])
        current: list[int] = []
        reach = -math.inf
        for ln in group:
            lo, hi = lines[ln].across()
            if current and lo - reach > gap * max(lines[ln].thickness, 1.0):
                bands.append(_Band(current))
                current = []
                reach = -math.inf
            current.append(ln)
            reach = max(reach, hi)
        if current:
            bands.append(_Band(current))
    return bands


def _fill(model: _PageModel, band: _Band, budget: Counter[str]) -> None:
    """Share ``budget`` (remaining quote atoms) among the band's words; set its coverage.

    Served in order of how well each piece of evidence explains the quote: solid runs
    (the quote itself, read in order), then lines made mostly of quote atoms, then
    short runs, then what is left line by line. A common word therefore goes to the
    passage the rest of the quote stands in, not to a stray occurrence next door.
    """
    filling = _Filling(model, band, budget)
    filling.solid_runs()
    filling.dense_lines()
    filling.short_runs()
    filling.leftovers()
    filling.finish()


class _Filling:
    """One band being filled from one budget: the steps of :func:`_fill`, in order."""

    def __init__(self, model: _PageModel, band: _Band, budget: Counter[str]) -> None:
        self.model, self.band, self.budget = model, band, budget
        self.texts = model.texts
        self.in_band = {p for ln in band.lines for p in model.line_atoms.get(ln, [])}
        self.taken = band.taken
        # Each run's atoms in this band, beside the quote position it starts at.
        self.runs = [([pos for pos in full if pos in self.in_band], model.run_start.get(full))
                     for full in model.runs]
        self.held_runs: list[list[int]] = []  # runs (or solid parts of runs) it took
        self.anchors: list[tuple[int, int]] = []  # (page position, quote position) of those
        # Of lines equally dense ("Broadcom and Avago" down a table column), the one
        # holding more of the quote ("Broadcom and Avago mission") comes first.
        self.by_density = sorted(band.lines, key=lambda ln: (self.density(ln), self.held(ln)),
                                 reverse=True)

    # --- what a line or run holds -------------------------------------------------------

    def take(self, pos: int) -> None:
        a = self.texts[pos]
        if self.budget[a] > 0 and pos not in self.taken:
            self.taken.add(pos)
            self.budget[a] -= 1
            self.band.used[a] += 1
            page = self.model.page
            for w in page.atoms[pos].words:
                self.band.words.setdefault(page.words[w].line, []).append(w)

    def available(self, run: Sequence[int]) -> bool:
        need = Counter(self.texts[pos] for pos in run)
        return not self.taken.intersection(run) and \
            all(self.budget[a] >= n for a, n in need.items())

    def density(self, ln: int) -> float:
        model = self.model
        return len(model.line_hits.get(ln, ())) / max(len(model.line_atoms.get(ln, ())), 1)

    def held(self, ln: int) -> float:
        return sum(self.model.weight[self.texts[pos]]
                   for pos in self.model.line_hits.get(ln, ()))

    def gain(self, ln: int) -> float:
        """The weight ``ln`` would still add, given what is taken and left."""
        free = Counter(self.texts[pos] for pos in self.model.line_hits.get(ln, ())
                       if pos not in self.taken)
        return sum(self.model.weight[a] * min(k, self.budget[a]) for a, k in free.items())

    # --- solid runs -----------------------------------------------------------------------

    def solid_part(self, run: list[int]) -> list[int]:
        """The run's longest stretch still free, if that is still solid."""
        best, i, need = (0, 0), 0, Counter[str]()
        for j, pos in enumerate(run):  # the longest window whose atoms are all free
            if pos in self.taken:
                i, need = j + 1, Counter()
                continue
            a = self.texts[pos]
            need[a] += 1
            while need[a] > self.budget[a]:
                need[self.texts[run[i]]] -= 1
                i += 1
            if j + 1 - i > best[1] - best[0]:
                best = (i, j + 1)
        part = run[best[0]:best[1]]
        return part if len(part) >= SOLID_RUN_ATOMS else []

    def edges(self, run: list[int]) -> tuple[list[int], list[int], list[int]]:
        """``(head, body, tail)``: a run's few words on the line before or after its body.

        They are where it overran into the neighbouring text ("M.E. Fox & Company, Inc. /
        San Jose" for a quote that goes on "San Jose Airport Garden Hotel" elsewhere).
        """
        lines = self.model.page.atom_lines

        def short_edge(ends: list[int]) -> int:
            # How many atoms from the start of ``ends`` stand in pieces too short to be
            # a run, each on a line of its own, before the line the other end is on.
            n = 0
            while n < len(ends) and lines[ends[n]] != lines[ends[-1]]:
                k = next(j for j in range(n, len(ends)) if lines[ends[j]] != lines[ends[n]])
                if k - n >= MIN_RUN_ATOMS:
                    break
                n = k
            return n

        lo = short_edge(run)
        hi = len(run) - short_edge(run[lo:][::-1])
        if hi - lo < SOLID_RUN_ATOMS:
            return [], run, []
        return run[:lo], run[lo:hi], run[hi:]

    def solid_runs(self) -> None:
        """Longest first, by what is still free; a run's edge words after every body.

        A long run that overran into the next line ("…for completion. SECTION 1" when the
        quote goes on "SECTION 2") is served by its longest free stretch, as long as that
        still beats the others.
        """
        solid = [(run, start) for run, start in self.runs if len(run) >= SOLID_RUN_ATOMS]
        parts = [self.edges(run) for run, _ in solid]
        queue = [(-len(body), i, body) for i, (_, body, _) in enumerate(parts)]
        heapq.heapify(queue)
        held: dict[int, list[int]] = {}
        while queue:
            size, i, run = heapq.heappop(queue)
            part = run if self.available(run) else self.solid_part(run)
            if len(part) < -size:  # others took some of it: queue what is left
                if part:
                    heapq.heappush(queue, (-len(part), i, part))
                continue
            held[i] = part
            if (start := solid[i][1]) is not None:
                self.anchors.append((part[0], start))
            for pos in part:
                self.take(pos)
        for i, part in held.items():
            head, body, tail = parts[i]
            if part == body:
                for edge in (head, tail):
                    if edge and self.available(edge):
                        part = sorted(part + edge)
                        for pos in edge:
                            self.take(pos)
            self.held_runs.append(part)

    # --- dense lines, short runs, the rest --------------------------------------------------

    def dense_lines(self) -> None:
        """Densest first; among lines equally dense, by what they would still add.

        Once "…under the laws of Colorado." has spent the quote's "Colorado", the next
        warning's "Maine: Any person…" adds more than Colorado's own opening line, which
        holds the same common words; lines that would add the same (a line of a warning
        printed five times) go to the one nearest what the band has taken.
        """
        queue = [(-self.density(ln), -self.gain(ln), k, ln)
                 for k, ln in enumerate(self.by_density)
                 if self.density(ln) >= DENSE_LINE_SHARE]
        heapq.heapify(queue)
        while queue:
            dense, best, k, ln = heapq.heappop(queue)
            now = self.gain(ln)
            if now <= 0:
                continue
            if now < -best - 1e-9:
                heapq.heappush(queue, (dense, -now, k, ln))
                continue
            ties = [(k, ln)]
            while queue and queue[0][0] == dense and abs(queue[0][1] - best) < 1e-9:
                _, _, k2, ln2 = heapq.heappop(queue)
                if abs((g := self.gain(ln2)) - now) < 1e-9:
                    ties.append((k2, ln2))
                elif g > 0:
                    heapq.heappush(queue, (dense, -g, k2, ln2))
            if len(ties) > 1 and (self.taken or self.model.by_geometry):
                order = sorted(self.taken)
                ties.sort(key=lambda t: (self.nearness(self.model.line_hits[t[1]], order), t[0]))
            k, ln = ties[0]
            for k2, ln2 in ties[1:]:
                heapq.heappush(queue, (dense, -now, k2, ln2))
            for pos in self.model.line_hits.get(ln, ()):
                self.take(pos)

    def short_runs(self) -> None:
        """Short runs, whole or not at all: a better explanation's leftovers are chance.

        Runs equal in length and tightness (the same boilerplate line printed six times)
        are taken nearest first: the copy beside the rest of the quote.
        """
        before = sorted(self.taken)  # nearness to what the better evidence took
        span = self.model.run_span
        for _, group in itertools.groupby(self.model.runs, key=lambda r: (len(r), span[r])):
            runs = list(group)
            if len(runs) > 1 and before:
                runs.sort(key=lambda r: (self.out_of_order(r), self.nearness(r[:1], before)))
            for full in runs:
                run = [pos for pos in full if pos in self.in_band]
                if len(run) < 2 or len(run) >= SOLID_RUN_ATOMS or not self.available(run):
                    continue
                self.held_runs.append(run)
                for pos in run:
                    self.take(pos)

    def nearness(self, positions: Sequence[int], taken: list[int]) -> tuple[float, ...]:
        """How far ``positions`` (one copy of some quote words) stand from ``taken``.

        On text layers, atoms apart in reading order. On OCR pages, the gap across and
        then along the lines to the nearest line holding a taken atom: a cell of the same
        table row before a cell of the next row; with nothing taken yet, the copy with
        more of the quote beside it (:meth:`_PageModel.beside`).
        """
        model = self.model
        if not model.by_geometry:
            return (_gap_to(taken, positions),)
        line = model.page.atom_lines[positions[0]]
        if not taken:
            return model.beside(line)
        lines = model.page.lines
        me = lines[line]
        return min((max(0.0, _gap(me.across(), lines[t].across())),
                    max(0.0, _gap(me.along(), lines[t].along())))
                   for t in {model.page.atom_lines[pos] for pos in taken})

    def out_of_order(self, run: tuple[int, ...]) -> bool:
        """Whether ``run`` stands on the other side of the nearest taken run than in the quote.

        A label quoted before its context line is the copy printed before it, not the
        identical one in the next table row.
        """
        start = self.model.run_start.get(run)
        if start is None or not self.anchors:
            return False
        pos, q = min(self.anchors, key=lambda a: abs(a[0] - run[0]))
        return (run[0] < pos) != (start < q)

    def leftovers(self) -> None:
        for ln in self.by_density:
            for pos in self.model.line_hits.get(ln, ()):
                self.take(pos)

    def finish(self) -> None:
        """Record the band's in-order evidence, trim strays, and score it."""
        model, band, taken = self.model, self.band, self.taken
        atoms = model.page.atoms
        # Whichever step took them, the runs this band now holds whole are its in-order
        # evidence.
        for run in self.held_runs + [run for run, _ in self.runs]:
            if len(run) >= 2 and taken.issuperset(run):
                solid = len(run) >= model.solid_run_atoms
                band.longest_run = max(band.longest_run, len(run))
                for pos in run:
                    for w in atoms[pos].words:
                        band.run_words[w] = band.run_words.get(w, False) or solid
        _trim_strays(model, band)
        band.coverage = sum(model.weight[a] * k for a, k in band.used.items()) / model.total
        in_runs = Counter(self.texts[p] for p in taken
                          if any(w in band.run_words for w in atoms[p].words))
        band.ordered = sum(model.weight[a] * min(k, band.used[a])
                           for a, k in in_runs.items()) / model.total


def _row_copies(model: _PageModel, band: _Band) -> list[_Band]:
    """On OCR pages, ``band`` with a quoted table cell moved to its copy a row away.

    A cell the quote holds whole ("Layoff Unknown at this time"), printed the same in the
    row just above or below, in the same column, and quoted out of its row's order
    (before the dates printed ahead of it): the quote was not read along that row, so
    which row's cell it meant is open. The text it was taken from may pair the cell with
    the next record's values (a PDF's text order, or reading the page row after row).
    A cell quoted in its row's order, or joined to the others by a run across cells, is
    pinned to its row and stays.
    """
    if not model.by_geometry or len(band.words) < 2:
        return []
    page, lines = model.page, model.page.lines
    pinned: set[int] = set()
    for run in model.runs:
        cells = {page.atom_lines[pos] for pos in run}
        if len(cells) > 1 and band.taken.issuperset(run):
            pinned |= cells
    out: list[_Band] = []
    for ln, ws in band.words.items():
        me = lines[ln]
        if ln in pinned or sorted(ws) != sorted(me.words) or not _out_of_row_order(model, band, ln):
            continue
        mine = [model.texts[pos] for pos in model.line_atoms[ln]]
        for other in model.touched:
            them = lines[other]
            if other in band.words or them.vertical != me.vertical or \
                    [model.texts[pos] for pos in model.line_atoms[other]] != mine:
                continue
            across = _gap(me.across(), them.across())
            if _gap(me.along(), them.along()) < 0 and \
                    -0.5 * min(me.thickness, them.thickness) < across <= \
                    BAND_GAP_LINES * max(me.thickness, them.thickness):
                moved = {k: v for k, v in band.words.items() if k != ln}
                moved[other] = list(them.words)
                out.append(_Band(band.lines, words=moved))
    return out


def _out_of_row_order(model: _PageModel, band: _Band, cell: int) -> bool:
    """Whether the quote holds ``cell`` on the other side of a cell of its row than the page.

    The row's cells are compared by reading order (tesseract reads a table's columns
    from the first), the quote's by where their atoms stand in it.
    """
    lines, texts = model.page.lines, model.texts
    me = lines[cell]

    def quoted_at(ln: int) -> int | None:
        part = [texts[pos] for pos in model.line_hits.get(ln, ()) if pos in band.taken]
        n = len(part)
        return next((i for i in range(len(model.quote) - n + 1)
                     if model.quote[i:i + n] == part), None) if part else None

    mine = quoted_at(cell)
    if mine is None:
        return False
    for other in band.words:
        them = lines[other]
        if other == cell or them.vertical != me.vertical or \
                _gap(me.across(), them.across()) > -0.5 * min(me.thickness, them.thickness):
            continue  # not a cell of the same row
        theirs = quoted_at(other)
        if theirs is not None and (mine < theirs) != \
                (model.line_atoms[cell][0] < model.line_atoms[other][0]):
            return True
    return False


def _stands_elsewhere(model: _PageModel, band: _Band) -> int:
    """How many times the atoms ``band`` took stand, in one stretch, elsewhere on the page.

    0 unless the band took one unbroken stretch of the page's atoms.
    """
    taken = sorted(band.taken)
    if not taken or taken[-1] - taken[0] + 1 != len(taken):
        return 0
    texts, n = model.texts, len(taken)
    part = [texts[pos] for pos in taken]
    return sum(1 for start, a in enumerate(texts)
               if a == part[0] and start != taken[0] and list(texts[start:start + n]) == part)


def _gap(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The gap between two intervals; negative by how much they overlap."""
    return max(a[0], b[0]) - min(a[1], b[1])


def _gap_to(order: list[int], run: Sequence[int]) -> int:
    """Atoms between ``run`` (positions in page order) and the nearest of ``order``."""
    gap = math.inf
    for pos in (run[0], run[-1]):
        k = bisect.bisect_left(order, pos)
        gap = min([gap, *(abs(order[x] - pos) for x in (k - 1, k) if 0 <= x < len(order))])
    return int(gap)


def _trim_strays(model: _PageModel, band: _Band) -> None:
    """Drop matched words that stand far from the rest of their line's highlight.

    Also drops lines whose only matches are common words (they were pulled in by a
    neighbour, not by the quote). Released atoms are not re-spent; coverage falls.
    """
    page = model.page
    for ln, ws in list(band.words.items()):
        order = {w: i for i, w in enumerate(page.lines[ln].words)}
        ws = sorted(set(ws), key=lambda w: order.get(w, -1))
        keep = _largest_cluster(ws, order, {w for w, ok in band.run_words.items() if ok})
        dropped = [w for w in ws if w not in keep]
        strong = any(model.texts[pos] in model.distinct
                     for w in keep for pos in model.word_hits.get(w, ()))
        in_run = any(w in band.run_words for w in keep)
        solid = any(band.run_words.get(w, False) for w in keep)
        minority = len(keep) < DENSE_LINE_SHARE * len(page.lines[ln].words)
        if (not strong and not in_run and len(keep) < 2) or \
                (minority and not solid) or (minority and len(keep) < 2 and not strong):
            dropped, keep = ws, []
        for w in dropped:
            for pos in model.word_hits.get(w, ()):
                if pos in band.taken:
                    band.taken.discard(pos)
                    band.used[model.texts[pos]] -= 1
        band.used = +band.used
        if keep:
            band.words[ln] = keep
        else:
            del band.words[ln]


def _largest_cluster(ws: list[int], order: dict[int, int], solid: set[int]) -> list[int]:
    """The largest run of highlighted words with gaps of at most MAX_LINE_GAP_ATOMS.

    Another cluster on the same line is kept only if a solid run put it there: a
    repeated word far along the line (a second "(if any)") is not part of the quote.
    """
    clusters: list[list[int]] = []
    for w in ws:
        if w not in order:
            clusters.append([w])  # word from a hyphenated join on another line
        elif clusters and clusters[-1][-1] in order and \
                order[w] - order[clusters[-1][-1]] <= MAX_LINE_GAP_ATOMS + 1:
            clusters[-1].append(w)
        else:
            clusters.append([w])
    main = max(clusters, key=lambda c: (len(c), sum(w in solid for w in c)))
    return [w for c in clusters if c is main or any(w in solid for w in c) for w in c]


def _rects(page: PageWords, bands: Sequence[_Band]) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
    """One rectangle per line: the union of that line's highlighted word boxes."""
    per_line: dict[int, set[int]] = {}
    for b in bands:
        for ws in b.words.values():
            for w in ws:
                per_line.setdefault(page.words[w].line, set()).add(w)
    rects: list[Rect] = []
    words: list[int] = []
    for ln in sorted(per_line, key=lambda i: page.lines[i].words[0]):
        ws = sorted(per_line[ln])
        boxes = [page.words[w] for w in ws]
        rects.append((min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                      max(b.x1 for b in boxes), max(b.y1 for b in boxes)))
        words += ws
    return tuple(rects), tuple(words)


def _found_text(page: PageWords, words: Sequence[int]) -> str:
    """The highlighted words as a reader would read them, line by line."""
    lines: dict[int, list[str]] = {}
    for w in words:
        lines.setdefault(page.words[w].line, []).append(page.words[w].text)
    return " / ".join(" ".join(ws) for _, ws in sorted(lines.items()))


def _ocr_aliases(page: PageWords, quote: Counter[str]) -> dict[str, str]:
    """OCR misreadings of quote atoms on this page: page atom text → the quote atom.

    Only on lines that already hold a quote atom exactly, only for words of
    OCR_ALIAS_MIN_LEN letters or more (numbers never: "2015" misread as "2016" is another
    date), and only when the word is not itself in the quote. "Expiraci6n" then counts
    as "expiracion", so the copy of a form label whose distinguishing word tesseract
    misread is not beaten by a copy it read cleanly. A word that only adds or drops an
    ending ("aire" and "aires") is another word, not a misreading.
    """
    from rapidfuzz import fuzz, process  # only OCR pages need it

    texts = page.atom_texts
    targets = [q for q in quote if len(q) >= OCR_ALIAS_MIN_LEN and not q.isdigit()]
    if not targets:
        return {}
    near = {page.atom_lines[pos] for q in quote for pos in page.atom_positions.get(q, ())}
    alias: dict[str, str] = {}
    seen: set[str] = set()
    for ln in near:
        for pos in page.line_atoms[ln]:
            t = texts[pos]
            if t in seen or t in quote or len(t) < OCR_ALIAS_MIN_LEN - 1 or t.isdigit():
                continue
            seen.add(t)
            best = process.extractOne(t, targets, scorer=fuzz.ratio,
                                      score_cutoff=OCR_ALIAS_SIMILARITY)
            # "aire" for "aires", "section" for "sections": another form of the word,
            # which the page really prints, not a misreading of it.
            if best is not None and not (best[0].startswith(t) or t.startswith(best[0])):
                alias[t] = best[0]
    return alias
