"""Bands of adjacent candidate lines: grouping, refining, growing, copies, rectangles.

Candidate lines are grouped into *bands* of lines adjacent across the reading direction;
each band is filled (:mod:`matcher.filling`) and split where the lines that took quote
atoms are far apart. A citation is grown from the best band by further bands that add a
comparable share in quoted order (an assembled quote). One rectangle is drawn per line,
spanning that line's matched words.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher

from .filling import fill
from .pagemodel import BAND_GAP_LINES, MIN_RUN_ATOMS, SOLID_RUN_ATOMS, Band, PageModel, interval_gap
from .reading import line_words_text, lines_text, reading_lines
from .vocabulary import Rect
from .words import Line, PageWords

# --- Thresholds of band growing (scripts/eval_placement.py is the evidence for them) ----
# A second band must add at least this share of the quote's weight, and at least this
# fraction of what the first band accounted for, to be drawn ("comparably strong").
SECOND_BAND_MIN_SHARE = 0.20
SECOND_BAND_RELATIVE = 0.35
# After filling, a band is split where its lines that took quote atoms are further apart
# than this many line thicknesses (a form field's label and its box may leave two).
SPLIT_GAP_LINES = 3.0
# At most this many bands make one citation (values above labels in three columns).
MAX_PLACES = 3
# Places whose gains differ by less than this add the very same words (a copy).
SAME_GAIN = 1e-6
# Two bands whose coverage differs by less than this are indistinguishable duplicates.
TIE_EPSILON = 0.02
# A band whose taken atoms read at least this share of the quote in the quoted order holds
# the quote as written (words dropped, or one in ten changed): fewer of its lines that hold
# every quoted word but out of that order are not the place. Below it, the quote's order
# is no evidence (a shuffled quote), and the fewest lines are.
WHOLE_IN_ORDER = 0.9


def refine(model: PageModel, bands: Sequence[Band]) -> list[Band]:
    """Fill each band, then split it where the lines that took quote atoms are not adjacent.

    A column of near-identical paragraphs is one band of adjacent lines, but a quote's
    words may be gathered from several of its paragraphs; each adjacent group is its own
    place, refilled on its own, so places can be compared (and rivals seen).
    """
    out: list[Band] = []
    for band in bands:
        fill(model, band, Counter(model.qcount))
        kept = [ln for ln in band.lines if ln in band.words]
        parts = group_bands(model.page.lines, kept, gap=SPLIT_GAP_LINES)
        if len(parts) <= 1:
            out += fewest_lines(model, band)
            continue
        for part in parts:
            fill(model, part, Counter(model.qcount))
            out += fewest_lines(model, part)
    return [b for b in out if b.coverage > 0]


def fewest_lines(model: PageModel, band: Band) -> list[Band]:
    """``band`` cut to the shortest stretches of its lines that hold every quoted atom.

    A filled band may take atoms from more lines than the quote needs: a shuffled quote of
    two lines whose "structures on the residence premises" also reads in order across the
    next two lines spreads over all four. Where fewer of the band's lines hold every atom
    of the quote, as often as quoted, and they are one passage (:func:`_one_passage`),
    those lines are the place (each such stretch none of whose lines is spare is a place
    of its own, so copies are still compared). A band that needs all its lines, or lacks
    some atom, stays as it is; so does one whose shorter stretch is no passage (a table's
    cells in another row: "Inner Mongolia … Ammonia" one row up from the "Chemical Annual
    Output …" quoted after it), and one that reads the quote in order (WHOLE_IN_ORDER)
    where the stretch reads less of it (a state's fraud warning quoted with the next
    state's last lines, where four lines between hold the same words out of order).
    """
    lines = band.lines
    kept = [k for k, ln in enumerate(lines) if ln in band.words]
    if len(kept) < 2:
        return [band]
    lines = lines[kept[0]:kept[-1] + 1]
    need, have = model.qcount, Counter[str]()
    short = len(need)  # atom kinds the window holds fewer of than quoted
    windows: list[tuple[int, int]] = []
    end = 0
    for start in range(len(lines)):
        while short and end < len(lines):
            for pos in model.line_atoms.get(lines[end], ()):
                a = model.texts[pos]
                if a in need:
                    have[a] += 1
                    short -= have[a] == need[a]
            end += 1
        if short:
            break
        if end - start < len(lines):
            windows.append((start, end))
        for pos in model.line_atoms.get(lines[start], ()):
            a = model.texts[pos]
            if a in need:
                short += have[a] == need[a]
                have[a] -= 1
    # Each window is the shortest from its start; one holding a later one is not.
    windows = [(lo, hi) for k, (lo, hi) in enumerate(windows)
               if not any(later <= hi for _, later in windows[k + 1:])]
    out = []
    whole_order = read_in_order(model, band) if windows else 0.0
    for lo, hi in windows:
        if not _consecutive(lines[lo:hi]):
            continue  # not one passage whatever it holds: no need to fill it
        part = Band(lines[lo:hi])
        fill(model, part, Counter(model.qcount))
        if part.coverage > band.coverage - TIE_EPSILON and _one_passage(part) and \
                (whole_order < WHOLE_IN_ORDER
                 or read_in_order(model, part) > whole_order - TIE_EPSILON):
            out.append(part)
    return out or [band]


def _one_passage(band: Band) -> bool:
    """Whether each of the band's lines took quote atoms and they follow one another in
    the page's reading order (one passage, not lines gathered from rows or paragraphs)."""
    return len(band.words) == len(band.lines) and _consecutive(band.lines)


def _consecutive(lines: Sequence[int]) -> bool:
    """Whether these line indices follow one another in the page's reading order."""
    ordered = sorted(lines)
    return ordered[-1] - ordered[0] == len(ordered) - 1


def read_in_order(model: PageModel, band: Band) -> float:
    """The share of the quote's atoms that the band's taken atoms, read in page order,
    hold in the quoted order (their longest common subsequence, by difflib's blocks)."""
    taken = [model.texts[pos] for pos in sorted(band.taken)]
    blocks = SequenceMatcher(None, model.quote, taken, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) / max(len(model.quote), 1)


def add_places(model: PageModel, bands: Sequence[Band], best: Band,
                twins: Sequence[Band]) -> tuple[Band, int, list[Band]]:
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
    copies: list[Band] = []
    for _ in range(MAX_PLACES - 1):
        options: list[tuple[float, Band, Band]] = []
        for band in bands:
            if band is best or band in twins or set(band.lines) <= set(lines):
                continue
            joint = Band(lines + band.lines)
            fill(model, joint, Counter(model.qcount))
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
                                                      distance(page_lines, lines, o[2].lines)))
        # Nearness decides only between neighbours (a value's own label just below it);
        # a copy of the same words a column away is as likely to be the one quoted.
        reach = SPLIT_GAP_LINES * max(page_lines[ln].thickness for ln in band.lines)
        same = [o[1] for o in equal if o[2] is not band and o[1].used == joint.used
                and o[2].longest_run == band.longest_run]
        if distance(page_lines, lines, band.lines) <= reach:
            same = []
        mine = set(band.lines)
        in_order = sum(model.page.words[w].line in mine for w in joint.run_words)
        # "Comparably strong" is judged inside the joint fill, where a stray word the
        # first place had borrowed from the second has gone back to it.
        share = share_on(model, joint, mine)
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


def distance(lines: Sequence[Line], a: Sequence[int], b: Sequence[int]) -> float:
    """Gap across the reading direction between two groups of lines (0 if they overlap)."""
    a_lo = min(lines[i].across()[0] for i in a)
    a_hi = max(lines[i].across()[1] for i in a)
    b_lo = min(lines[i].across()[0] for i in b)
    b_hi = max(lines[i].across()[1] for i in b)
    return max(0.0, b_lo - a_hi, a_lo - b_hi)


def share_on(model: PageModel, band: Band, lines: set[int]) -> float:
    """The share of the quote's weight that ``band`` found on ``lines``."""
    found = Counter(model.texts[pos] for ln in lines for w in band.words.get(ln, ())
                    for pos in model.word_hits.get(w, ()) if pos in band.taken)
    return sum(model.weight[a] * k for a, k in found.items()) / model.total


def group_bands(lines: Sequence[Line], candidates: Iterable[int], *,
                 gap: float = BAND_GAP_LINES) -> list[Band]:
    """Cluster candidate lines along the across-reading axis into bands of adjacent lines.

    Horizontal and vertical lines are clustered separately, so on a page rotated 90°
    the "next line" is the one beside, not below.
    """
    bands: list[Band] = []
    for vertical in (False, True):
        group = sorted((ln for ln in candidates if lines[ln].vertical == vertical),
                       key=lambda ln: lines[ln].across()[0])
        current: list[int] = []
        reach = -math.inf
        for ln in group:
            lo, hi = lines[ln].across()
            if current and lo - reach > gap * max(lines[ln].thickness, 1.0):
                bands.append(Band(current))
                current = []
                reach = -math.inf
            current.append(ln)
            reach = max(reach, hi)
        if current:
            bands.append(Band(current))
    return bands


def row_copies(model: PageModel, band: Band) -> list[Band]:
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
    out: list[Band] = []
    for ln, ws in band.words.items():
        me = lines[ln]
        if ln in pinned or sorted(ws) != sorted(me.words) or not out_of_row_order(model, band, ln):
            continue
        mine = [model.texts[pos] for pos in model.line_atoms[ln]]
        for other in model.touched:
            them = lines[other]
            if other in band.words or them.vertical != me.vertical or \
                    [model.texts[pos] for pos in model.line_atoms[other]] != mine:
                continue
            across = interval_gap(me.across(), them.across())
            if interval_gap(me.along(), them.along()) < 0 and \
                    -0.5 * min(me.thickness, them.thickness) < across <= \
                    BAND_GAP_LINES * max(me.thickness, them.thickness):
                moved = {k: v for k, v in band.words.items() if k != ln}
                moved[other] = list(them.words)
                out.append(Band(band.lines, words=moved))
    return out


def out_of_row_order(model: PageModel, band: Band, cell: int) -> bool:
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
                interval_gap(me.across(), them.across()) > -0.5 * min(me.thickness, them.thickness):
            continue  # not a cell of the same row
        theirs = quoted_at(other)
        if theirs is not None and (mine < theirs) != \
                (model.line_atoms[cell][0] < model.line_atoms[other][0]):
            return True
    return False


def stands_elsewhere(model: PageModel, band: Band) -> int:
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


def rects_of(page: PageWords, bands: Sequence[Band]) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
    """One rectangle per line: the union of that line's highlighted word boxes."""
    return rects_over(page, [w for b in bands for ws in b.words.values() for w in ws])


def rects_over(page: PageWords, highlighted: Iterable[int]
               ) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
    """One rectangle per line over the ``highlighted`` words, and those words in order.

    A line set at an angle gets one rectangle per word: an upright box around the whole
    line would cover the text above and below it.
    """
    per_line: dict[int, set[int]] = {}
    for w in highlighted:
        per_line.setdefault(page.words[w].line, set()).add(w)
    rects: list[Rect] = []
    words: list[int] = []
    for ln in sorted(per_line, key=lambda i: page.lines[i].words[0]):
        ws = sorted(per_line[ln])
        groups = [[w] for w in ws] if page.lines[ln].skewed else [ws]
        for group in groups:
            boxes = [page.words[w] for w in group]
            rects.append((min(b.x0 for b in boxes), min(b.y0 for b in boxes),
                          max(b.x1 for b in boxes), max(b.y1 for b in boxes)))
        words += ws
    return tuple(rects), tuple(words)


def found_text_of(page: PageWords, words: Sequence[int]) -> str:
    """The words under the rectangles as a reader would read them, lines joined by " / ".

    A line's rectangle spans its highlighted words, so the words between them (those the
    quote dropped) are under it too and are part of what was found. The lines come in
    reading order, in visible characters (:mod:`matcher.reading`).
    """
    lines: dict[int, list[int]] = {}
    for w in words:
        lines.setdefault(page.words[w].line, []).append(w)
    out = []
    for ln in reading_lines(page, lines):
        own = page.lines[ln].words
        lo, hi = own.index(min(lines[ln])), own.index(max(lines[ln]))
        text = " ".join(t for t in line_words_text(page, own[lo:hi + 1]) if t)
        if text:
            out.append(text)
    return " / ".join(out)


def lines_text_of(page: PageWords, words: Sequence[int]) -> list[str]:
    """The whole text of each line holding ``words``, in reading order.

    What a quote is compared with (:func:`matcher.diff.diff_quote`): "located" asks that
    every quoted word stand on the highlighted lines, and a changed word at either end of
    the quote stands against the page word just beyond the highlight.
    """
    return lines_text(page, words)
