"""Changed quotes that take their change from the page itself: a figure swapped for another
figure of the same page and shape (the next row's premium), two words swapped with each other.

Every word of such a quote is on the page, so containment alone passes; only reading the
quote against its own passage shows the change. Used by ``scripts/evalkinds.py``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from evalcases import _DIGIT, _LETTERS_RUN

# A figure's shape: its digits as 9, everything else as printed ("$925.18" → "$999.99",
# "06/19/2025" → "99/99/9999", "15%" → "99%"). Two figures of one shape are the same kind
# of fact (an amount, a date, a rate), which an answer may take from the wrong row.
_FIGURE_EDGE = re.compile(r"^[^\w$€£¥%]+|[^\w$€£¥%]+$")
MIN_SWAP_DIGITS = 2  # "1" and "2" (item numbers) are the changed-digit kind's business


def figure_core(word: str) -> str:
    """``word`` without the punctuation around it (a currency or percent sign kept)."""
    return _FIGURE_EDGE.sub("", word)


def figure_shape(word: str) -> str | None:
    """The shape of a figure word, or None when it is no figure (under two digits)."""
    core = figure_core(word)
    if len(_DIGIT.findall(core)) < MIN_SWAP_DIGITS:
        return None
    return _DIGIT.sub("9", core.casefold())


def swap_figure(words: Sequence[str], page_figures: Sequence[str], rng: random.Random
                ) -> tuple[str, str] | None:
    """One figure of ``words`` replaced by another figure of the page of the same shape
    (the next row's premium for this row's), or None when the page has none."""
    spots = [i for i, w in enumerate(words) if figure_shape(w)]
    rng.shuffle(spots)
    mine = {figure_core(w).casefold() for w in words}
    for i in spots:
        core = figure_core(words[i])
        shape = figure_shape(words[i])
        others = sorted({f for f in page_figures if figure_shape(f) == shape
                         and f.casefold() not in mine})
        if not others:
            continue
        new = rng.choice(others)
        out = list(words)
        out[i] = words[i].replace(core, new, 1)
        return " ".join(out), f"{core} → {new}"
    return None


_SWAP_MIN_LETTERS = 3


def swap_words(text: str, rng: random.Random) -> tuple[str, str] | None:
    """Two different words of ``text``, at least one word apart, swapped with each other
    ("the first day … the last" for "the last day … the first"); case follows the place.
    None when the pair drawn has a copy of one of its words between them."""
    words = text.split(" ")
    cores = [m.group() if (m := _LETTERS_RUN.fullmatch(figure_core(w))) else None
             for w in words]
    spots = [i for i, c in enumerate(cores) if c and len(c) >= _SWAP_MIN_LETTERS]
    pairs = [(i, j) for i in spots for j in spots
             if j - i >= 2 and cores[i].casefold() != cores[j].casefold()]  # type: ignore[union-attr]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    a, b = cores[i], cores[j]
    assert a is not None and b is not None
    between = {c.casefold() for c in cores[i + 1:j] if c}
    if a.casefold() in between or b.casefold() in between:
        # "Multiple (multiple types" with the first and third exchanged reads "Types
        # (multiple multiple": one word moved two places, which is a quote read out of
        # order (every word in its passage), not two words exchanged. (Chosen first and
        # refused after, so that the other cases drawn stay the same.)
        return None

    def cased(new: str, old: str) -> str:
        if old[:1].isupper() and not new[:1].isupper():
            return new[:1].upper() + new[1:]
        if old[:1].islower() and new[:1].isupper() and not new.isupper():
            return new[:1].lower() + new[1:]
        return new

    out = list(words)
    out[i] = words[i].replace(a, cased(b, a), 1)
    out[j] = words[j].replace(b, cased(a, b), 1)
    return " ".join(out), f"{a} ⇄ {b}"


def table_rows(pw, *, max_cell_words: int = 5) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Rows of a table or form: two or more short horizontal lines side by side (the
    same band across the page), left to right. Lines of prose in two columns are no row
    (each has more than ``max_cell_words`` words)."""
    cells = [i for i, ln in enumerate(pw.lines)
             if not ln.vertical and not ln.skewed and 0 < len(ln.words) <= max_cell_words]
    cells.sort(key=lambda i: (pw.lines[i].bbox[1], pw.lines[i].bbox[0]))
    rows: list[list[int]] = []
    for i in cells:
        y0, y1 = pw.lines[i].bbox[1], pw.lines[i].bbox[3]
        if rows:
            last = pw.lines[rows[-1][0]].bbox
            overlap = min(y1, last[3]) - max(y0, last[1])
            if overlap > 0.5 * min(y1 - y0, last[3] - last[1]):
                rows[-1].append(i)
                continue
        rows.append([i])
    return [sorted(r, key=lambda i: pw.lines[i].bbox[0]) for r in rows if len(r) >= 2]
