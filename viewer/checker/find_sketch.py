"""Which pages cannot hold a find's query, told from MuPDF's word array alone.

The first search of a document used to build every page's full word model
(:class:`matcher.words.PageWords`) and fold it (:func:`.find.fold_page`): Python over every
word of every page, most of it for pages the query is not on. A :class:`PageSketch` is
the page's word texts folded the way ``fold_page`` folds them, joined by NUL in one string
(C-level passes over the page, Python per word only for the rare word that stays
non-ASCII once its quotes and dashes are mapped), and the words that end in a hyphen.
:func:`may_hold` then says whether the query can stand on the page; only the pages where
it can get their full model, so the hits are exactly those a full search finds.

Why nothing is missed: ``fold_page``'s text is folded words with a space between them,
where a word that ends a line in a hyphen loses it and is joined to the next line's first
word. A folded query, split at its spaces, is therefore a run of pieces, each standing
inside one word or inside a chain of such joined words. A piece inside one word is a
substring of the sketch. A piece across a join is the end of a hyphen-ended word (its
hyphens stripped) followed by the start of another word, or by another whole hyphen-ended
word (a chain): :func:`may_hold` looks for exactly that, whatever the lines' order.
tests/viewer/test_find_sketch.py compares every page's hits with and without the sketch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from matcher.normalize import fold_char

# The hyphens a word ending a line may carry into the next line's first word (as find).
LINE_END_HYPHENS = ("-", "\u00ad", "\u2010")
_WHITESPACE = re.compile(r"\s+")
_ANY_SPACE = re.compile(r"\s")
_NON_ASCII = re.compile(r"([^\x00-\x7f]+)")
SEP = "\x00"  # between words: never part of a word's folded text
# The hyphens that end a word (its end: a NUL or the page's end).
_HEAD_END = re.compile(r"[-\u00ad\u2010]+(?=\x00|\Z)")


def fold_word(text: str) -> str:
    """One word as :func:`.find.fold_page` folds it: lowered for the usual ASCII word,
    else the matcher's fold character by character, spaces dropped."""
    if text.isascii() and " " not in text:
        return text.lower().replace("`", "'")
    return "".join(fold_char(ch) for ch in text).replace(" ", "")


@dataclass(frozen=True, slots=True)
class PageSketch:
    """A page's folded words between NULs (one at each end too), and its hyphen-ended
    words folded with their hyphens stripped (the first halves a line break may join)."""

    text: str
    heads: tuple[str, ...]


def sketch_page(text: str | None) -> PageSketch | None:
    """The sketch of a page's plain text as MuPDF gives it (its words are its runs between
    spaces and line ends), or None when only the full model can tell (no text given, or a
    hyphen-ended word with nothing before its hyphens, which makes the words either side
    of it meet with no space)."""
    if text is None:
        return None
    # MuPDF's words never hold a space or a line end: there, and only there, a word ends.
    joined = text.replace(" ", SEP).replace("\n", SEP)
    if joined.isascii():
        # For ASCII the matcher's fold is lowering, ` to ' and whitespace to a space, which
        # fold_page drops inside a word: one pass over the page gives every word's fold
        # (a word that keeps a tab on fold_page's ASCII path only loses a few matches here).
        folded = joined.lower().replace("`", "'")
    else:
        # The runs of other characters (curly quotes, accents) go through the matcher's
        # fold, the ASCII between them as above: each word folds as fold_word folds it.
        parts = _NON_ASCII.split(joined)
        parts[0::2] = [p.lower().replace("`", "'") for p in parts[0::2]]
        parts[1::2] = ["".join(map(fold_char, p)) for p in parts[1::2]]
        folded = "".join(parts)
    if _ANY_SPACE.search(folded):
        folded = _WHITESPACE.sub("", folded)
    heads: list[str] = []
    for end in _HEAD_END.finditer(joined):
        head = fold_word(joined[joined.rfind(SEP, 0, end.start()) + 1:end.start()])
        if not head:
            return None
        heads.append(head)
    return PageSketch(f"{SEP}{folded}{SEP}", tuple(heads))


def may_hold(sketch: PageSketch, needle: str) -> bool:
    """Whether folded ``needle`` can stand on the page ``sketch`` was made of (False only
    when :func:`.find.find_on_page` would find it nowhere there)."""
    return all(piece in sketch.text or _across_join(sketch, piece)
               for piece in needle.split(" "))


def _across_join(sketch: PageSketch, piece: str) -> bool:
    """Whether ``piece`` can be the end of a hyphen-ended word and what follows it."""
    for head in sketch.heads:
        for cut in range(1, len(piece)):
            if head.endswith(piece[:cut]):
                rest = piece[cut:]
                if f"{SEP}{rest}" in sketch.text or any(map(rest.startswith, sketch.heads)):
                    return True
    return False
