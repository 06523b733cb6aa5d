"""What negates: the words that turn a statement into its opposite, in the corpus's languages.

A negation one side has and the other lacks is always a difference (:mod:`matcher.diff`),
and it counts only where it stands in the quoted order (:mod:`matcher.alignment`).
"""

from __future__ import annotations

from functools import lru_cache

from .normalize import fold

# Words that negate what follows, folded (lower case, accents dropped), in the corpus's
# languages: English, German, French, Spanish, Italian, Portuguese; and the characters
# that negate in Chinese, each a word of its own there. "mai" (Italian
# "never") is left out: it is also the French month of May. Words ending in "n't" and
# French elisions ("n'est") are negations too (see is_negation).
NEGATIONS = frozenset("""
    not no never without none nor neither nobody nothing nowhere cannot non
    nicht kein keine keinen keinem keiner keines nie niemals nichts niemand nirgends
    ohne weder
    ne pas jamais sans aucun aucune ni rien nul nulle guere
    nunca jamas sin ningun ninguno ninguna nada nadie tampoco
    senza nessun nessuno nessuna niente nulla neanche nemmeno neppure
    nao sem nenhum nenhuma nem ninguem
    不 没 沒 无 無 非 未 勿 莫
""".split())


@lru_cache(maxsize=8192)
def is_negation(word: str) -> bool:
    """Whether ``word`` negates: "not", "never", "doesn't", "n'est", "nicht", "sin"…

    >>> [is_negation(w) for w in ("Not", "doesn\u2019t", "n'est", "keine", "note")]
    [True, True, True, True, False]
    """
    w = fold(word).text.strip("\"'()[]{}.,;:!?¿¡«»")
    if w in NEGATIONS or w.endswith("n't") or w.startswith("n'"):
        return True
    return w.startswith("non-")
