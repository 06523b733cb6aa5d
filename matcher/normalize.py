"""Fold text for matching while keeping an index back to the raw characters.

Offsets found in folded text index a string that exists nowhere in storage, so every
folding step here records, for each folded character, the raw index it came from.
The map has one extra end entry, ``back[len(text)] == len(raw)``, so a half-open
folded range ``[a, b)`` always has a raw image (see :meth:`Folded.raw_span`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_QUOTES = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
}
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
DASHES = _DASHES  # what folds to "-", for callers that look before they fold
# Soft hyphen, zero-width space/joiners, word joiner and BOM carry no visible text.
_DROP = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")


@lru_cache(maxsize=4096)
def fold_char(ch: str) -> str:
    """Fold one raw character to zero or more comparison characters.

    NFKC expands ligatures (``ﬁ`` → ``fi``) and compatibility forms; casefold makes
    the comparison caseless (``ß`` → ``ss``); combining accents are dropped after a
    canonical decomposition, so precomposed, decomposed and accent-less OCR output
    compare equal. Every kind of whitespace folds to a single space.
    """
    if ch in _DROP:
        return ""
    if ch in _DASHES:
        return "-"
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch.isspace():
        return " "
    folded = unicodedata.normalize("NFKC", ch).casefold()
    folded = "".join(
        c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c)
    )
    if folded in _QUOTES:
        return _QUOTES[folded]
    if folded in _DASHES:
        return "-"
    return "".join(" " if c.isspace() else c for c in folded)


@dataclass(frozen=True, slots=True)
class Folded:
    """Folded text plus ``back``: for each folded char its raw index, then ``len(raw)``."""

    text: str
    back: tuple[int, ...]

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """Map the folded half-open range ``[start, end)`` to a raw half-open range.

        The end goes through ``back[end - 1] + 1`` rather than ``back[end]``: the latter
        is the raw index of the *next* surviving character, which would swallow every
        raw character the fold dropped in between (and does not exist at the end).
        """
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"folded range [{start}, {end}) outside 0..{len(self.text)}")
        return self.back[start], self.back[end - 1] + 1


# A run of printable ASCII characters that fold_char lowers and nothing else (every one
# from "!" to "~" but the backtick, a quote), single spaces between them, or else one
# character: fold reads a line of plain text in one step rather than a step a character.
_PLAIN_OR_ONE = re.compile(r"(?P<plain>[!-_a-~]+(?: [!-_a-~]+)*)|.", re.DOTALL)


def fold(raw: str) -> Folded:
    """Fold ``raw`` for comparison, collapsing whitespace runs and trimming both ends.

    >>> f = fold("  Don\u2019t\u00a0\u00a0stop \u2014 now ")
    >>> f.text
    "don't stop - now"
    >>> raw = "  Don\u2019t\u00a0\u00a0stop \u2014 now "
    >>> raw[slice(*f.raw_span(0, 5))]
    'Don’t'

    Linear in ``len(raw)``.
    """
    out: list[str] = []
    back: list[int] = []
    prev_space = True  # drops leading whitespace
    for m in _PLAIN_OR_ONE.finditer(raw):
        i = m.start()
        if m.lastgroup == "plain":  # printable ASCII, no space at its ends: folding lowers it
            out.append(m.group().lower())
            back.extend(range(i, m.end()))
            prev_space = False
            continue
        for c in fold_char(m.group()):
            if c == " ":
                if prev_space:
                    continue
                prev_space = True
            else:
                prev_space = False
            out.append(c)
            back.append(i)
    if out and out[-1] == " ":
        out.pop()
        back.pop()
    back.append(len(raw))
    return Folded("".join(out), tuple(back))


# fold_char as a str.translate table, for the characters it changes (an absent character
# folds to itself); _CHECKED: every character fold_char has been asked about. A character
# goes into the table before it is marked checked, so a thread that sees it checked finds
# its entry (the table only grows: the characters of the texts read, a few hundred).
_TABLE: dict[int, str] = {}
_CHECKED: set[str] = set()
_SPACE_RUN = re.compile(" {2,}")


def fold_text(raw: str) -> str:
    """``fold(raw).text``, without the back-map: a translation table and two passes in C,
    for callers that compare folded text and never map it back (atoms, a chunk's folded
    text until a span in it is mapped back).

    >>> fold_text("  Don\u2019t\u00a0\u00a0stop \u2014 now ")
    "don't stop - now"

    fold_char is context-free, so folding is a translation; what fold does with spaces
    after it (runs collapsed, none at either end) is a regular expression and a strip.
    """
    new = set(raw) - _CHECKED
    for ch in new:
        folded = fold_char(ch)
        if folded != ch:
            _TABLE[ord(ch)] = folded
        _CHECKED.add(ch)
    text = raw.translate(_TABLE)
    if "  " in text:
        text = _SPACE_RUN.sub(" ", text)
    return text.strip(" ")


_HYPHEN_BREAK = re.compile(r"(?<=\w)-[ \t]*\r?\n[ \t]*(?=\w)")


def join_line_hyphens(text: str) -> str:
    """Join words hyphenated across a line break (``sub-\\nscription`` → ``subscription``).

    Only a hyphen at the end of a line followed by a lowercase letter (ligatures such
    as ``ﬁ`` included) is removed, so ``Smith-\\nJones`` and list dashes survive.
    Applied once, when text is extracted, so every stored offset indexes the
    repaired text.
    """
    return _HYPHEN_BREAK.sub(
        lambda m: "" if text[m.end()].islower() else m.group(0), text)


_ATOM = re.compile(r"[^\W_]+")
ATOM_PATTERN = _ATOM  # for callers with their own ASCII fast path
# Scripts written without spaces between words (Thai, Japanese kana, Chinese and Japanese
# ideographs): each character is an atom, so any stretch of an unbroken run is found.
_SPACELESS_RANGES = ((0x0E00, 0x0E7F), (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
                     (0xF900, 0xFAFF), (0xFF66, 0xFF9F))
_SPACELESS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _SPACELESS_RANGES)


def _has_spaceless(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces.

    Looked up among the text's distinct characters, not with a regular expression: a
    character class of these ranges takes Python's ``re`` ~3.5 ms to compile (it fills a
    table entry for each of their 30,000 characters), in every process that checks.
    """
    return any(lo <= ord(ch) <= hi for ch in set(text) if ch >= "\u0e00"
               for lo, hi in _SPACELESS_RANGES)


@lru_cache(maxsize=1)
def _spaceless_split() -> re.Pattern[str]:
    """Each spaceless character alone, or a run of others: compiled on first use (see
    :func:`_has_spaceless`), by the few texts that need it."""
    return re.compile(f"[{_SPACELESS}]|[^{_SPACELESS}]+")


def atoms(text: str) -> list[str]:
    """Split text into folded alphanumeric runs, the units of order-free matching.

    A run in a script written without spaces is split into its characters.

    >>> atoms("The Insured\u2019s $1,000 de\u00adductible")
    ['the', 'insured', 's', '1', '000', 'deductible']
    >>> atoms("\u4fdd\u9669\u5408\u540c No.5")
    ['保', '险', '合', '同', 'no', '5']
    """
    if text.isascii():
        # Folding ASCII only lowers case and maps ` to ', which atoms drop anyway.
        return _ATOM.findall(text.lower())
    found = _ATOM.findall(fold_text(text))
    if not _has_spaceless(text):
        return found
    split = _spaceless_split()
    return [part for a in found for part in split.findall(a)]


def spaceless_words(word: str) -> list[str]:
    """``word`` cut into its characters where it is in a script written without spaces.

    Each such character is then a word of its own for a word-level comparison, as it is
    an atom; other stretches of the word stay whole.

    >>> spaceless_words("\u4e3a\u4e00\u5e74\uff0c") , spaceless_words("policy")
    (['为', '一', '年', '，'], ['policy'])
    """
    if word.isascii() or not _has_spaceless(word):
        return [word]
    return _spaceless_split().findall(word)
