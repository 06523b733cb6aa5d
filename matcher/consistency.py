"""Does a claim say what its evidence says? Its figures, dates and negations, read against
the words its evidence stands on.

A quote can be on the page, word for word, and the claim citing it still misstate it:
"The dwelling premium is $952.18 a year" cited to "Dwelling (Coverage A) … $925.18".
This module compares the *fact tokens* of the claim (:mod:`matcher.facts`: figures,
codes, dates, each read as a value however it is written) and its negations with those
of its evidence: the page words under each located (or reviewer-confirmed, relocated)
highlight. Every fact token of the claim must be found in one of them; one found in none
is a difference, and the evidence's figure of the same kind that stands where the
claim's should is named beside it, when there is one. Other words are not compared:
this is not a paraphrase judge, and whether the evidence supports the claim stays a
person's decision.

Negations compare by what they negate: a negation of the claim counts as borne out
when one of the evidence's negates the same words (:data:`SCOPE_WORDS` after it), and a
negation of the evidence the claim leaves out is a difference when the claim restates
what it negates ("has been treated" cited to "has not been treated").

>>> c = check_claim("The dwelling premium is $952.18 a year",
...                 ["Dwelling (Coverage A) $277,000 $500 $925.18 12 months"])
>>> c.status, [(d.kind, d.claim, d.evidence) for d in c.differences]
('differs', [('number', '$952.18', '$925.18')])
>>> check_claim("It runs for twenty-four months", ["valid for 24 months"]).status
'consistent'
>>> check_claim("The applicant has not been treated", ["The applicant has been treated"]
...             ).differences[0].claim
'not'
>>> check_claim("anything", []).status
'unchecked'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .facts import Fact, compact, evidence_values, read_facts
from .negation import is_negation
from .normalize import atoms
from .vocabulary import ConsistencyStatus, FactKind

# A negation negates the content words that follow it, up to this many words, within
# its clause: "has not been treated for heart disease" negates "treated", "heart"
# ("been", "for" are function words). Four words reach past an auxiliary and an article.
# Its scope holds its subject too: the nearest content word before it in its clause.
SCOPE_WORDS = 4
# Content words compare by their first letters, a stem in any of the corpus's languages.
STEM = 5
# Two negations negate the same thing when at least this share of the smaller scope's
# content words is shared (one at least): a faithful restatement shares most of them, a
# paraphrase some ("has had no claims for five years" and "reported no claims in the
# last five years" share "claims" of three), a negation of another clause of the
# passage rarely any.
SCOPE_OVERLAP = 1 / 3
# An evidence negation the claim leaves out is a difference when the claim holds more
# than half of the words it negates and its subject (it restates the negated clause):
# "Floods are covered" does not restate "Theft is not covered", which shares one.
RESTATED_SHARE = 0.6
# When naming the evidence figure a changed one stands against: a figure of the same
# shape (digits and separators in the same places) is preferred, then the closest in
# its digits (rapidfuzz ratio, 0-100), then one whose neighbouring words the claim uses.
SAME_SHAPE_BONUS = 30.0
CONTEXT_BONUS = 15.0
MIN_DIGIT_SIMILARITY = 40.0
CONTEXT_ATOMS = 3
CONTEXT_CHARS = 60

# Function words that say nothing of what a negation negates, in the corpus's languages.
_FUNCTION_WORDS = frozenset("""
    a an the be is are was were been being am has have had having do does did will would
    shall should may might can could must to of for in on at by with from as it its this
    that these those any all such or and than then so there their they he she you we i
    der die das ein eine einen einem ist sind wird werden hat haben zu von mit fur auf im
    le la les un une des est sont a de du au aux en et ou pour par se il elle
    el los las uno una es son ser de del al y o para por se lo
""".split())
_CLAUSE_END = re.compile(r"[.;:!?]$")
# A figure right after one of these is a page of the document, not a fact of the claim.
_PAGE_BEFORE = re.compile(r"(?:\bpages?|\bpp?\.|\bpg\.?|\bseite|\bpagina|\bpágina)\s*$",
                          re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class FactDifference:
    """A fact token of the claim its evidence does not bear out.

    ``claim`` is the claim's figure, date or negation as written (None for a negation
    of the evidence the claim leaves out); ``evidence`` the evidence's token of the same
    kind that stands where it should, when there is one.
    """

    kind: FactKind
    claim: str | None
    evidence: str | None


@dataclass(frozen=True, slots=True)
class Consistency:
    """The claim against its evidence: ``unchecked`` with no evidence to read, else
    ``differs`` with its differences or ``consistent``."""

    status: ConsistencyStatus
    differences: tuple[FactDifference, ...] = ()


@dataclass(frozen=True, slots=True)
class _Negation:
    word: str
    scope: frozenset[str]  # the content atoms it negates


def check_claim(claim: str, evidence: Sequence[str], *, pages: Sequence[int] = ()
                ) -> Consistency:
    """Compare the claim's fact tokens with the words of its ``evidence`` (the texts
    each located item stands on). A figure the claim gives as a page ("on page 2",
    "p. 14") is where its evidence is: found when it is one of ``pages`` (the 1-based
    pages the evidence stands on). Linear in the texts' length, but for naming a changed
    figure (quadratic in the few figures left over).

    >>> check_claim("as page 2 says, the fee is $5", ["Fee: $5"], pages=[2]).status
    'consistent'
    """
    texts = [t for t in evidence if t and t.strip()]
    if not texts:
        return Consistency("unchecked")
    claim_facts = [f for f in read_facts(claim)
                   if not (_PAGE_BEFORE.search(claim, 0, f.start) and
                           f.values & {f"n:{p}" for p in pages})]
    ev_facts = [(f, t) for t in texts for f in read_facts(t)]
    differences = _figure_differences(claim, claim_facts, texts, ev_facts)
    differences += _negation_differences(claim, texts)
    return Consistency("differs" if differences else "consistent", tuple(differences))


# -- figures and dates ---------------------------------------------------------------
def _figure_differences(claim: str, claim_facts: list[Fact], texts: list[str],
                        ev_facts: list[tuple[Fact, str]]) -> list[FactDifference]:
    pool = evidence_values([f for f, _ in ev_facts])
    squeezed: str | None = None
    missing: list[Fact] = []
    for f in claim_facts:
        if f.values & pool or (f.parts and all(p & pool for p in f.parts)):
            continue
        if any(v.startswith("c:") for v in f.values):
            if squeezed is None:
                squeezed = " ".join(compact(t) for t in texts)
            if compact(f.text) in squeezed:
                continue  # "HM-4657" printed "HM 4657"
        missing.append(f)
    if not missing:
        return []
    claimed = evidence_values(claim_facts)
    # Each evidence figure the claim does not account for, with its neighbouring words;
    # then, when none of those will do, one it does account for elsewhere ("Attach Form
    # 2106 or 2106-EZ" claimed as "Form 2106 or 2103-EZ": its 2106 is the claim's too).
    free = [(e, _context(t, e)) for e, t in ev_facts if not (e.values & claimed)]
    taken = [(e, _context(t, e)) for e, t in ev_facts if e.values & claimed]
    out: list[FactDifference] = []
    for f in missing:
        against = None
        for candidates, by_context in ((free, True), (taken, False)):
            k = _stands_against(claim, f, candidates, by_context=by_context)
            if k is not None:
                against = candidates.pop(k)[0].text
                break
        out.append(FactDifference(f.kind, f.text, against))
    return out


def _stands_against(claim: str, fact: Fact, candidates: list[tuple[Fact, set[str]]], *,
                    by_context: bool = True) -> int | None:
    """The evidence figure of the same kind the claim's ``fact`` most likely changed;
    without ``by_context``, only one that looks like it (a figure the claim accounts for
    elsewhere is named only when it is the same shape or close in its digits)."""
    from rapidfuzz import fuzz

    best: tuple[float, int] | None = None
    near = _context(claim, fact)
    mine = _digits(fact)
    for k, (e, theirs_near) in enumerate(candidates):
        if e.kind != fact.kind:
            continue
        similarity = fuzz.ratio(mine, _digits(e))
        shape = _shape(fact) == _shape(e)
        shared = len(near & theirs_near)
        if similarity < MIN_DIGIT_SIMILARITY and not shape and not (shared and by_context):
            continue
        score = similarity + SAME_SHAPE_BONUS * shape + CONTEXT_BONUS * shared
        if best is None or score > best[0]:
            best = (score, k)
    return None if best is None else best[1]


def _digits(f: Fact) -> str:
    value = min(f.values)
    return "".join(c for c in value[2:] if c.isalnum())


def _shape(f: Fact) -> str:
    return re.sub(r"\d", "9", min(f.values)[2:])


def _context(text: str, f: Fact) -> set[str]:
    """The content atoms next to a fact in its text: what it is the figure of."""
    # Three words lie within CONTEXT_CHARS of the figure, figures between them included.
    before = [a for a in atoms(text[max(0, f.start - CONTEXT_CHARS):f.start])
              if not a.isdigit()][-CONTEXT_ATOMS:]
    after = [a for a in atoms(text[f.end:f.end + CONTEXT_CHARS])
             if not a.isdigit()][:CONTEXT_ATOMS]
    return set(before + after) - _FUNCTION_WORDS


# -- negations ---------------------------------------------------------------------------
def negations(text: str) -> list[_Negation]:
    """The negations of ``text``, each with the content atoms it negates.

    "No." before a figure ("Policy No. 5") is an abbreviation, not a negation.
    """
    words = text.split()
    out: list[_Negation] = []
    for i, w in enumerate(words):
        if not is_negation(w):
            continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w.lower().rstrip(":") in ("no.", "no", "nº") and (w.endswith(".") or
                                                          nxt[:1].isdigit()):
            continue
        scope: set[str] = set()
        for earlier in reversed(words[max(0, i - SCOPE_WORDS):i]):
            if _CLAUSE_END.search(earlier):
                break  # the nearest content word before it, in its clause: its subject
            found = _content(earlier)
            if found and not is_negation(earlier):
                scope.add(found[-1])
                break
        if not _CLAUSE_END.search(w):
            for later in words[i + 1:i + 1 + SCOPE_WORDS]:
                if not is_negation(later):
                    scope.update(_content(later))
                if _CLAUSE_END.search(later):
                    break
        out.append(_Negation(_bare(w), frozenset(scope)))
    return out


def _same_negation(a: _Negation, b: _Negation) -> bool:
    if not a.scope or not b.scope:
        return True  # one negates nothing nameable ("Not.", "none"): it may be the other
    shared = len(a.scope & b.scope)
    return shared >= max(1, math.ceil(SCOPE_OVERLAP * min(len(a.scope), len(b.scope))))


def _negation_differences(claim: str, texts: list[str]) -> list[FactDifference]:
    mine = negations(claim)
    theirs = [n for t in texts for n in negations(t)]
    out: list[FactDifference] = []
    used: set[int] = set()
    for n in mine:
        k = next((k for k, e in enumerate(theirs) if k not in used and _same_negation(n, e)),
                 None)
        if k is None:
            out.append(FactDifference("negation", n.word, None))
        else:
            used.add(k)
    claim_atoms: set[str] | None = None
    for k, e in enumerate(theirs):
        if k in used or not e.scope or any(_same_negation(n, e) for n in mine):
            continue
        if claim_atoms is None:
            claim_atoms = set(_content(claim))
        restated = len(e.scope & claim_atoms)
        if restated >= max(1, math.ceil(RESTATED_SHARE * len(e.scope))):
            out.append(FactDifference("negation", None, e.word))
    return out


def _content(text: str) -> list[str]:
    """The content atoms of ``text``, each cut to its first STEM letters ("agents" and
    "agent", "treated" and "treatment" compare equal), function words and single letters
    left out."""
    return [a[:STEM] for a in atoms(text) if len(a) > 1 and a not in _FUNCTION_WORDS]


def _bare(word: str) -> str:
    return word.strip("\"'()[]{}.,;:!?¿¡«»")
