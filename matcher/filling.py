"""Share a quote's atoms out among one band's lines: the filling step of placement.

Served in order of how well each piece of evidence explains the quote — solid runs first
(longest by what is still free, their stray word or two on a neighbouring line last), then
dense lines (densest first, then by what they add, copies nearest what is taken), then short
runs, then what is left — so a common word goes to the passage the rest of the quote stands
in, not to a stray occurrence next door. Then stray matches are trimmed and the band scored.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from collections import Counter
from collections.abc import Sequence

from .pagemodel import (
    DENSE_LINE_SHARE,
    MIN_RUN_ATOMS,
    SOLID_RUN_ATOMS,
    Band,
    PageModel,
    interval_gap,
)

# A matched word more than this many unmatched atoms away from the rest of its line's
# highlight is a stray common word, not part of the citation.
MAX_LINE_GAP_ATOMS = 3


def fill(model: PageModel, band: Band, budget: Counter[str]) -> None:
    """Share ``budget`` (remaining quote atoms) among the band's words; set its coverage.

    Served in order of how well each piece of evidence explains the quote: solid runs
    (the quote itself, read in order), then lines made mostly of quote atoms, then
    short runs, then what is left line by line. A common word therefore goes to the
    passage the rest of the quote stands in, not to a stray occurrence next door.
    """
    filling = Filling(model, band, budget)
    filling.solid_runs()
    filling.dense_lines()
    filling.short_runs()
    filling.leftovers()
    filling.finish()


class Filling:
    """One band being filled from one budget: the steps of :func:`fill`, in order."""

    def __init__(self, model: PageModel, band: Band, budget: Counter[str]) -> None:
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
        more of the quote beside it (:meth:`PageModel.beside`).
        """
        model = self.model
        if not model.by_geometry:
            return (gap_to(taken, positions),)
        line = model.page.atom_lines[positions[0]]
        if not taken:
            return model.beside(line)
        lines = model.page.lines
        me = lines[line]
        return min((max(0.0, interval_gap(me.across(), lines[t].across())),
                    max(0.0, interval_gap(me.along(), lines[t].along())))
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
        trim_strays(model, band)
        band.coverage = sum(model.weight[a] * k for a, k in band.used.items()) / model.total
        in_runs = Counter(self.texts[p] for p in taken
                          if any(w in band.run_words for w in atoms[p].words))
        band.ordered = sum(model.weight[a] * min(k, band.used[a])
                           for a, k in in_runs.items()) / model.total


def gap_to(order: list[int], run: Sequence[int]) -> int:
    """Atoms between ``run`` (positions in page order) and the nearest of ``order``."""
    gap = math.inf
    for pos in (run[0], run[-1]):
        k = bisect.bisect_left(order, pos)
        gap = min([gap, *(abs(order[x] - pos) for x in (k - 1, k) if 0 <= x < len(order))])
    return int(gap)


def trim_strays(model: PageModel, band: Band) -> None:
    """Drop matched words that stand far from the rest of their line's highlight.

    Also drops lines whose only matches are common words (they were pulled in by a
    neighbour, not by the quote). Released atoms are not re-spent; coverage falls.
    """
    page = model.page
    for ln, ws in list(band.words.items()):
        order = {w: i for i, w in enumerate(page.lines[ln].words)}
        ws = sorted(set(ws), key=lambda w: order.get(w, -1))
        keep = largest_cluster(ws, order, {w for w, ok in band.run_words.items() if ok})
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


def largest_cluster(ws: list[int], order: dict[int, int], solid: set[int]) -> list[int]:
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
