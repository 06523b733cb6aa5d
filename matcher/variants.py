"""Known extraction variants: two spellings of one text that are not a difference in it.

Folding (:mod:`matcher.normalize`) already makes ligatures, soft hyphens, typographic
quotes and dashes, case and accents compare equal. What is left is where the atoms'
boundaries fall, and OCR's misreadings:

* a word hyphenated at a line end that one side keeps (``infor- mation``, ``check- in``)
  and the other joins (``information``, ``checkin``), in either direction;
* a superscript or subscript the extractor split into its own word (``m2`` against
  ``m`` + ``2``, ``x²`` against ``x`` + ``2``);
* on OCR pages, a word read with a wrong letter or two (``Expiraci6n``).

Digits never join digits: ``1,650`` and ``1650`` are different figures as far as this
module is concerned (``16.50`` joined would read ``1650`` too), so numbers compare by
their digit groups exactly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from .normalize import ATOM_PATTERN, DASHES, fold
from .words import PageWords

# On OCR pages, a page word at least this similar (rapidfuzz ratio, 0-100) to a quote
# word of at least OCR_ALIAS_MIN_LEN letters is read as that word: one wrong letter in
# five, two in ten ("Expiraci6n", "Ermafsigte2").
OCR_ALIAS_SIMILARITY = 80.0
OCR_ALIAS_MIN_LEN = 5
# What stands between two atoms a line-end hyphenation or a compound may have split.
_HYPHEN_GAP = re.compile(r"-\s*")


def may_join(left: str, right: str) -> bool:
    """Whether atoms ``left`` and ``right`` may be one atom split by the extractor.

    Letters join letters (a line-end hyphenation) and letters join digits (a split
    superscript, a code such as ``HM-4657``); digits never join digits.

    >>> may_join("infor", "mation"), may_join("m", "2"), may_join("1", "650")
    (True, True, False)
    """
    return bool(left) and bool(right) and not (left[-1].isdigit() and right[0].isdigit())


def misread_target(word: str) -> bool:
    """Whether a quote atom is long enough, and a word, to be misread by OCR.

    A figure or a code ("2015", "Form7004", "58VA51") with one character changed is
    another figure, whatever the OCR did to the page; a word with a footnote digit glued
    to its end ("Ermäßigte2") is a word.
    """
    core = word[:-1] if word[-1:].isdigit() else word
    return len(core) >= OCR_ALIAS_MIN_LEN and not any(c.isdigit() for c in core)


def misreading_of(page_atom: str, targets: Sequence[str]) -> str | None:
    """The quote atom ``page_atom`` is an OCR misreading of, or None.

    ``targets`` are quote atoms that pass :func:`misread_target`. Numbers are never
    misreadings ("2015" misread as "2016" is another date), and a word that only adds or
    drops an ending or a beginning ("aire" and "aires", "section" and "sections", "male"
    and "female", "valid" and "invalid") is another word, which the page really prints.
    """
    if len(page_atom) < OCR_ALIAS_MIN_LEN - 1 or page_atom.isdigit() or not targets:
        return None
    from rapidfuzz import fuzz, process  # only OCR pages need it

    # A footnote digit glued to a word may be lost by the OCR ("Ermäßigte2" read as
    # "Ermafigte"): then the words are compared without it. Read, it must be the same.
    bare_targets = {t[:-1] if t[-1].isdigit() and not page_atom[-1].isdigit() else t: t
                    for t in targets}
    best = process.extractOne(page_atom, list(bare_targets), scorer=fuzz.ratio,
                              score_cutoff=OCR_ALIAS_SIMILARITY)
    if best is None:
        return None
    target = bare_targets[str(best[0])]
    if target[-1].isdigit() and page_atom[-1].isdigit() and page_atom[-1] != target[-1]:
        return None  # "Section5" is not "Section6"
    target_word = str(best[0])
    longer, shorter = (target_word, page_atom) if len(target_word) >= len(page_atom) else \
        (page_atom, target_word)
    if longer.startswith(shorter) or longer.endswith(shorter):
        return None
    return target


def hyphen_breaks(quote: str) -> dict[int, bool]:
    """For each ``i`` whose atoms ``i`` and ``i + 1`` stand across a hyphen in the quote,
    whether white space follows the hyphen.

    ``"in- cluding FAA-approved"`` gives ``{0: True, 2: False}``: a hyphen kept from a line
    end ("in- cluding"), and a compound ("FAA-approved"), which the page may print whole
    or, at a line end, joined.
    """
    if "-" not in quote and not DASHES.intersection(quote):
        return {}  # the usual quote, without folding it
    text = fold(quote).text
    spans = [m.span() for m in ATOM_PATTERN.finditer(text)]
    return {i: end + 1 < start for i, ((_, end), (start, _))
            in enumerate(itertools.pairwise(spans)) if _HYPHEN_GAP.fullmatch(text, end, start)}


def respell(quote_atoms: Sequence[str], page: PageWords, *,
            hyphens: Mapping[int, bool] | None = None) -> list[str]:
    """The quote's atoms as the page spells them, where the two differ only by a variant.

    Two neighbouring quote atoms the page prints joined ("in- cluding", "FAA-approved"
    against the page's "including", "FAAapproved" joined across its line break) become
    that one atom when one of them is not on the page at all, or when the quote holds a
    hyphen between them (``hyphens``, from :func:`hyphen_breaks`): a line-end hyphen kept
    ("in- cluding") always, a compound's only where the page never prints the two side
    by side ("High-Performance" may be either); a quote atom
    the page lacks but prints split into two or three neighbouring atoms ("m2" against
    "m" + "2") becomes those atoms. Everything else is left as it is. Costs a dictionary
    look-up per quote atom unless some are absent from the page or hyphenated.
    """
    counts = page.atom_counts
    hyphens = hyphens or {}
    if not hyphens and all(a in counts for a in quote_atoms):
        return list(quote_atoms)
    out: list[str] = []
    i = 0
    while i < len(quote_atoms):
        a = quote_atoms[i]
        b = quote_atoms[i + 1] if i + 1 < len(quote_atoms) else ""
        if b and may_join(a, b) and a + b in counts and \
                (a not in counts or b not in counts or hyphens.get(i) or
                 (i in hyphens and not _side_by_side(page, a, b))):
            out.append(a + b)
            i += 2
            continue
        out += [a] if a in counts else (_page_split(a, page) or [a])
        i += 1
    return out


def _side_by_side(page: PageWords, a: str, b: str) -> bool:
    """Whether the page prints atom ``b`` right after an ``a`` somewhere."""
    texts = page.atom_texts
    return any(pos + 1 < len(texts) and texts[pos + 1] == b
               for pos in page.atom_positions.get(a, ()))


def _page_split(whole: str, page: PageWords) -> list[str]:
    """Two or three neighbouring page atoms that spell ``whole`` joined, or []."""
    texts, positions = page.atom_texts, page.atom_positions
    for cut in range(1, len(whole)):
        for pos in positions.get(whole[:cut], ()):
            parts, text = [texts[pos]], texts[pos]
            for nxt in range(pos + 1, min(pos + 3, len(texts))):
                if not may_join(text, texts[nxt]) or not whole.startswith(text + texts[nxt]):
                    break
                text += texts[nxt]
                parts.append(texts[nxt])
                if text == whole:
                    return parts
    return []
