"""Two words exchanged: a quote read along found atoms with one pair of its words swapped.

"The first day … the last" read along "the last day … the first" goes on word for word
but for two words, each standing at the other's place. The reading here is the one the
word diff (:mod:`matcher.alignment`) and the page-wide search (:mod:`matcher.stretches`)
share; each checks the pair it returns against its own rules (how far apart, what kind).

A half of the pair is one found *unit*: an atom, or a word the page splits at a line end
("ex- / change" for the quote's "exchange"). Found atoms the quote does not hold may stand
just before a half (the quote dropped them: "Application for [Individual] Life" quoted
with "Company" for "Life"). Two neighbouring atoms exchanged are a pair too, for the
caller to accept only where a printed separator stands between them ("Seller - Private"
quoted "Private - Seller").
"""

from __future__ import annotations

from collections.abc import Sequence

# A half of the pair: (quote atom, found atom where its unit starts, found atoms in it,
# quote atoms in it).
_Half = tuple[int, int, int, int]
# A half may be a run of up to this many quote atoms against one found word: a word of a
# script written without spaces is an atom a character ("通辽千万千瓦级风光储氢氨", a
# project's Chinese name, exchanged with "Industrial").
MAX_RUN_ATOMS = 16
# A half may follow this many found atoms the quote does not hold (a word it dropped:
# "Application for [Individual] Life"). More, across a line, and a shuffled quote reads
# as a swap ("SECTION 3 — EXISTING INSURANCE AND REPLACEMENT / List all life insurance
# and" for "INSURANCE — 3 EXISTING REPLACEMENT SECTION AND").
DROPPED_BESIDE = 1


def read_swap(qa: Sequence[str], pa: Sequence[str], i: int, j: int,
              pending: tuple[int, int] | None, *, gap: int
              ) -> tuple[int, int, int, int, int] | None:
    """Read atoms ``qa[i:]`` along ``pa[j:]`` with exactly one pair exchanged: ``(quote
    atom, quote atom, found atom, found atom, end)``, or None.

    Found atoms the quote dropped (up to ``gap`` between two quote atoms) are stepped
    over; a word split at a line end on either side is one. ``pending``: the first half
    found already (the quote's atom ``pending[0]`` standing against found atom
    ``pending[1]``). Linear in the atoms read (each step looks ``gap`` atoms ahead).

    >>> read_swap("the last day of the first".split(), "the first day of the last".split(),
    ...           0, 0, None, gap=3)
    (1, 5, 1, 5, 6)
    """
    n = len(qa)
    half: _Half | None = None if pending is None else (*pending, 1, 1)
    swap: tuple[int, int, int, int] | None = None
    while i < n:
        if j < len(pa) and pa[j] == qa[i]:
            i, j = i + 1, j + 1
            continue
        if j >= len(pa):
            return None
        if j + 1 < len(pa) and pa[j] + pa[j + 1] == qa[i]:
            i, j = i + 1, j + 2  # a word split at a line end ("proba- bly")
            continue
        if i + 1 < n and qa[i] + qa[i + 1] == pa[j]:
            i, j = i + 2, j + 1  # ...or kept split in the quote
            continue
        free = swap is None and half is None
        if free and (first := _first_half(qa, pa, i, j, 0)) is not None:
            half, i, j = first, i + 1, first[1] + first[2]
            continue
        if free and i + 1 < n and qa[i] != qa[i + 1] and j + 1 < len(pa) and \
                pa[j] == qa[i + 1] and pa[j + 1] == qa[i]:
            swap, i, j = (i, i + 1, j, j + 1), i + 2, j + 2  # two neighbours exchanged
            continue
        if half is not None and (second := _second_half(qa, pa, i, j, half)) is not None:
            swap, half = (half[0], i, half[1], second[0]), None
            i, j = i + 1, second[0] + second[1]
            continue
        if free and i > 0 and (first := _after_dropped(qa, pa, i, j)) is not None:
            half, i, j = first, i + 1, first[1] + first[2]
            continue
        if free and i > 0 and (first := _run_half(qa, pa, i, j)) is not None:
            half, i, j = first, i + first[3], j + 1
            continue
        ahead = next((d for d in range(1, gap + 1)
                      if j + d < len(pa) and pa[j + d] == qa[i]), 0)
        if not ahead or i == 0:
            return None
        j += ahead
    if swap is None or half is not None:
        return None
    return (*swap, j)


def _unit(pa: Sequence[str], j: int, want: Sequence[str]) -> int:
    """How many found atoms from ``j`` read as one of ``want``: 1, 2 (a word split at a
    line end), or 0."""
    if j >= len(pa):
        return 0
    if pa[j] in want:
        return 1
    return 2 if j + 1 < len(pa) and pa[j] + pa[j + 1] in want else 0


def _first_half(qa: Sequence[str], pa: Sequence[str], i: int, j: int, d: int
                ) -> _Half | None:
    """The first half at found atom ``j + d``: a unit the quote says further on, after
    which the reading goes on with the quote's next atom."""
    k = j + d
    width = _unit(pa, k, qa[i + 1:])
    if not width or (i + 1 < len(qa) and not reads_on(qa, pa, i + 1, k + width)):
        return None
    return i, k, width, 1


def _run_half(qa: Sequence[str], pa: Sequence[str], i: int, j: int) -> _Half | None:
    """The first half as a run of 2 to MAX_RUN_ATOMS quote atoms, each a character of a
    script without case or spaces, against the found atom ``j``, which the quote says
    after the run, the reading going on after both. (A run of words of a spaced script
    against one word is a word moved past them: "policy [insured insured] policy" for
    "policy policy [insured insured]".)"""
    if not _character(qa[i]) or pa[j] not in qa[i + 1:]:
        return None
    for m in range(2, MAX_RUN_ATOMS + 1):
        if i + m >= len(qa) or qa[i + m - 1] == pa[j] or not _character(qa[i + m - 1]):
            return None
        if reads_on(qa, pa, i + m, j + 1):
            return i, j, 1, m
    return None


def _after_dropped(qa: Sequence[str], pa: Sequence[str], i: int, j: int) -> _Half | None:
    """The first half after up to DROPPED_BESIDE found atoms the quote does not hold at
    all (a word it dropped just before it: "RISQUE [D’]INCIDENCES" quoted "RISQUE LES")."""
    for d in range(1, DROPPED_BESIDE + 1):
        if j + d > len(pa) or pa[j + d - 1] in qa:
            return None
        if (half := _first_half(qa, pa, i, j, d)) is not None:
            return half
    return None


def _character(atom: str) -> bool:
    """Whether ``atom`` is one character of a script without case (Chinese, Japanese)."""
    return len(atom) == 1 and atom.isalpha() and atom.lower() == atom.upper()


def _second_half(qa: Sequence[str], pa: Sequence[str], i: int, j: int, half: _Half,
                 ) -> tuple[int, int] | None:
    """Where the second half stands, ``(found atom, atoms in its unit)``: the quote says
    the first half's found unit here, and the found text the first half's quote atom,
    after up to DROPPED_BESIDE found atoms the quote does not hold."""
    qi, pj, width, run = half
    if qa[i] != "".join(pa[pj:pj + width]):
        return None
    if run > 1:  # the found text says the quote's run here, atom for atom
        return (j, run) if tuple(pa[j:j + run]) == tuple(qa[qi:qi + run]) else None
    for d in range(DROPPED_BESIDE + 1):
        k = j + d
        if d and (k > len(pa) or pa[k - 1] in qa):
            return None
        # (after atoms stepped over, the reading must go on: else the place is a guess)
        if (w := _unit(pa, k, (qa[qi],))) and \
                (not d or i + 1 == len(qa) or reads_on(qa, pa, i + 1, k + w)):
            return k, w
    return None


def reads_on(qa: Sequence[str], pa: Sequence[str], i: int, j: int) -> bool:
    """Whether quote atom ``i`` stands at found atom ``j``: the same, or one of them a
    word the other side splits at a line end ("Nev- ertheless")."""
    if j >= len(pa):
        return False
    return pa[j] == qa[i] or (j + 1 < len(pa) and pa[j] + pa[j + 1] == qa[i]) or \
        (i + 1 < len(qa) and qa[i] + qa[i + 1] == pa[j])


# Three words each at another's place ("the most negative work of impacts on your family"
# for "… impacts of work on your family"): a rotation, the pair's next of kin. More than
# three out of place is a quote read in another order, for the order-free placement.
ROTATED_WORDS = 3


def read_rotated(qa: Sequence[str], pa: Sequence[str], j: int) -> list[int] | None:
    """The quote's atoms read one for one along ``pa[j:]``: the ROTATED_WORDS positions
    where they differ, when the found atoms there are the quote's own, rearranged; else
    None. Linear in the quote (it stops at the fourth difference).

    >>> read_rotated("a work of impacts on family x".split(),
    ...              "a impacts of family on work x".split(), 0)
    [1, 3, 5]
    """
    n = len(qa)
    if j + n > len(pa):
        return None
    off: list[int] = []
    for k in range(n):
        if qa[k] != pa[j + k]:
            off.append(k)
            if len(off) > ROTATED_WORDS:
                return None
    if len(off) != ROTATED_WORDS or sorted(qa[k] for k in off) != sorted(pa[j + k] for k in off):
        return None
    return off
