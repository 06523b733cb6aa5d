"""What a highlight reads as: its lines in the page's reading order, in visible characters.

The words under a highlight are shown to a reader ("Found under the highlight", ``check
--json``'s ``found_text`` and the word diff, and everything made from them: CSV, HTML,
PDF notes, Web Annotations). Two things keep that text what the page shows:

* *order*: the lines in the page's reading order, and the cells of one table row together,
  left to right — a table the extractor read column by column would otherwise read "Row 1
  label / Row 2 label / Row 1 value / Row 2 value";
* *visible characters*: a soft hyphen (U+00AD) is shown as the hyphen it prints at a line
  end and dropped elsewhere; zero-width spaces and joiners, direction marks, a BOM and
  control characters are dropped. Matching never sees them either (folding drops them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .diff import QuoteDiff
from .normalize import spaceless_words
from .rows import row_lines
from .words import PageWords

# Characters that print nothing: soft hyphen, zero-width space/joiners, direction marks
# and embeddings, word joiner and invisible operators, BOM, C0/C1 controls.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff"
                        "\u0000-\u001f\u007f-\u009f]")
SOFT_HYPHEN = "\u00ad"
# Lines of at most this many words are table cells: those standing side by side in one
# row are read together (longer lines side by side are columns of prose, read in turn).
MAX_CELL_WORDS = 6


def visible(text: str, *, line_end: bool = False) -> str:
    """``text`` as it prints: invisible characters dropped, a soft hyphen ending a line
    shown as "-".

    >>> visible("infor\\u00admation"), visible("infor\\u00ad", line_end=True)
    ('information', 'infor-')
    """
    if line_end and text.endswith(SOFT_HYPHEN):
        text = text.rstrip(SOFT_HYPHEN) + "-"
    return _INVISIBLE.sub("", text)


def reading_lines(page: PageWords, lines: Iterable[int]) -> list[int]:
    """``lines`` in reading order: the page's own order, but the cells of one table row
    together, left to right, where the row's first cell stands."""
    todo = sorted(set(lines))
    wanted = set(todo)
    out: list[int] = []
    placed: set[int] = set()
    for ln in todo:
        if ln in placed:
            continue
        row = [ln]
        if len(page.lines[ln].words) <= MAX_CELL_WORDS:
            row = [k for k in row_lines(page, ln) if k in wanted and k not in placed
                   and len(page.lines[k].words) <= MAX_CELL_WORDS]
        out += row
        placed.update(row)
    return out


def line_words_text(page: PageWords, words: Iterable[int]) -> list[str]:
    """The visible text of each of ``words`` (of one line, in order; "" for a word of
    invisible characters only), a line-end soft hyphen shown."""
    ws = list(words)
    if not ws:
        return []
    last = page.lines[page.words[ws[0]].line].words[-1]
    return [visible(page.words[w].text, line_end=w == last) for w in ws]


def tokens_under(page: PageWords, words: Iterable[int]) -> list[bool] | None:
    """For each word token of :func:`lines_text` of ``words``' lines, whether its page
    word is under the highlight (between the line's first and last highlighted words).

    The token split is the word diff's (white space, then a run without spaces split a
    character at a time). None if the page has no such words.
    """
    chosen: dict[int, list[int]] = {}
    for w in words:
        chosen.setdefault(page.words[w].line, []).append(w)
    out: list[bool] = []
    for ln in reading_lines(page, chosen):
        own = page.lines[ln].words
        lo, hi = own.index(min(chosen[ln])), own.index(max(chosen[ln]))
        for k, text in enumerate(line_words_text(page, own)):
            n = sum(len(spaceless_words(x)) for x in text.split())
            out += [lo <= k <= hi] * n
    return out or None


def lines_text(page: PageWords, words: Iterable[int]) -> list[str]:
    """The whole visible text of each line holding ``words``, in reading order."""
    lines = reading_lines(page, {page.words[w].line for w in words})
    return [" ".join(line_words_text(page, page.lines[ln].words)) for ln in lines]


def under_highlight(diff: QuoteDiff, under: Sequence[bool] | None) -> QuoteDiff:
    """``diff`` with only the found words under the highlight (and the page words a
    changed quote word stands against): the whole lines were compared, but a reader is
    shown what the highlight covers, not the rest of its lines."""
    if under is None or len(under) != len(diff.found):
        return diff
    kept = tuple(t for t, u in zip(diff.found, under, strict=True)
                 if u or t.op == "differs" or t.kind is not None)
    return replace(diff, found=kept)
