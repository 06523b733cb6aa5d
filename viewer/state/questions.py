"""The review's questions, as data: what a reviewer is asked, about what, with which
answers, words and keys. The panel, the keys and the Review menu, the sidecar,
``--fail-on undecided``, the claims filter and the exporters iterate this table, so a new
question is one entry here, its words, and a line in the README. No Qt here.

Two questions are built in and kept in the sidecar's own lists (``evidence[]`` for
placement, ``claims[]`` for support): *placement* (per evidence item: are these the
quoted words?) and *support* (per claim: do its items, together, make it true?). Any
further question's answers are kept in the sidecar's ``answers[]``.

>>> [q.id for q in questions()]
['placement', 'support']
>>> question("support").keys["not_supported"]
'X'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from matcher.vocabulary import PLACEMENT_DECISIONS, SUPPORT_DECISIONS

from .presentation import PLACEMENT_COMMANDS, PLACEMENT_WORDS, SUPPORT_COMMANDS, SUPPORT_WORDS

Scope = Literal["item", "claim"]


@dataclass(frozen=True)
class Question:
    """One question a reviewer answers, per evidence item or per claim."""

    id: str  # the sidecar's and check --json's name for it
    scope: Scope
    title: str  # the panel's row label
    values: tuple[str, ...]  # the answers, in the order the panel offers them
    words: Mapping[str, str]  # each answer as a reader reads it (exports, the panel)
    keys: Mapping[str, str]  # each answer's single key
    commands: Mapping[str, tuple[str, str]]  # each answer's (menu text, button label)
    required: bool = True  # a claim in the queue is decided once this is answered
    builtin: bool = False  # placement or support: kept in the sidecar's own lists


PLACEMENT = Question(
    "placement", "item", "Placement", PLACEMENT_DECISIONS, PLACEMENT_WORDS,
    {"confirmed": "C", "wrong_place": "W", "relocated": "R", "absent": "A"},
    PLACEMENT_COMMANDS, builtin=True)
SUPPORT = Question(
    "support", "claim", "Support", SUPPORT_DECISIONS, SUPPORT_WORDS,
    {"supported": "S", "partly": "P", "not_supported": "X", "uncitable": "U"},
    SUPPORT_COMMANDS, builtin=True)
# Every question, in the order the panel shows them (read at use, so a test can add one).
QUESTIONS: tuple[Question, ...] = (PLACEMENT, SUPPORT)


def questions() -> tuple[Question, ...]:
    """Every question asked, built-in ones first."""
    return QUESTIONS


def extra() -> tuple[Question, ...]:
    """The questions beyond placement and support (their answers are ``answers[]``)."""
    return tuple(q for q in QUESTIONS if not q.builtin)


def question(question_id: str) -> Question:
    """The question ``question_id`` (KeyError when there is none)."""
    for q in QUESTIONS:
        if q.id == question_id:
            return q
    raise KeyError(question_id)
