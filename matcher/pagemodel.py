"""The page as one quote sees it: rarity weights, quote atoms per line, in-order runs.

:class:`PageModel` is built once per (page, quote) and read by every later step of
placement: which lines are candidates, how a band is filled, which copy of a repeated
passage stands beside the rest of the quote. :class:`Band` is the mutable record of one
group of adjacent lines while it is filled and compared.

Runs are quote atoms found on the page in the quoted order, possibly stepping over words
the quote dropped (never over words the quote holds elsewhere). On OCR pages a word that
looks like a quote word (a misreading) is read as that word, and a table, which tesseract
reads column by column, is also read along its rows.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .variants import misread_target, misreading_of
from .words import PageWords

# --- Thresholds of the page model (scripts/eval_placement.py is the evidence for them) ---
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


@dataclass(slots=True)
class Band:
    lines: list[int]
    coverage: float = 0.0
    used: Counter[str] = field(default_factory=Counter)
    words: dict[int, list[int]] = field(default_factory=dict)  # line → word indices
    # Words taken as part of a run → whether that run is "solid" (long, or crossing lines).
    run_words: dict[int, bool] = field(default_factory=dict)
    ordered: float = 0.0  # share of the quote's weight taken through runs (in order)
    taken: set[int] = field(default_factory=set)  # atom positions whose budget it spent
    longest_run: int = 0


class PageModel:
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
            alias = ocr_aliases(page, self.qcount)
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
                gap = interval_gap(me.across(), them.across())
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


def interval_gap(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The gap between two intervals; negative by how much they overlap."""
    return max(a[0], b[0]) - min(a[1], b[1])


def ocr_aliases(page: PageWords, quote: Counter[str]) -> dict[str, str]:
    """OCR misreadings of quote atoms on this page: page atom text → the quote atom.

    Only on lines that already hold a quote atom exactly, and only when the word is not
    itself in the quote; what counts as a misreading is :func:`matcher.variants.misreading_of`.
    "Expiraci6n" then counts as "expiracion", so the copy of a form label whose
    distinguishing word tesseract misread is not beaten by a copy it read cleanly.
    """
    texts = page.atom_texts
    targets = [q for q in quote if misread_target(q)]
    if not targets:
        return {}
    near = {page.atom_lines[pos] for q in quote for pos in page.atom_positions.get(q, ())}
    alias: dict[str, str] = {}
    seen: set[str] = set()
    for ln in near:
        for pos in page.line_atoms[ln]:
            t = texts[pos]
            if t in seen or t in quote:
                continue
            seen.add(t)
            if (target := misreading_of(t, targets)) is not None:
                alias[t] = target
    return alias
