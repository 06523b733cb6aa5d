"""The window's words for statuses, badges and decisions come from one place,
:mod:`viewer.state.presentation`: the widgets and the window's modules hold none of them
as text of their own, and what the window shows is those words."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from matcher.vocabulary import PLACEMENT_DECISIONS, SUPPORT_DECISIONS
from viewer.state.claim_filter import FILTER_WORDS
from viewer.state.presentation import (
    OUTCOME_WORDS,
    PLACEMENT_COMMANDS,
    PLACEMENT_WORDS,
    STATUS_WORDS,
    SUPPORT_COMMANDS,
    SUPPORT_WORDS,
    TAG_WORDS,
    UNDECIDED,
    status_word,
)
from viewer.window.review_actions import PLACEMENT_KEYS, SUPPORT_KEYS
from viewer.window.shell import MainWindow

from .review_helpers import demo_window

REPO = Path(__file__).resolve().parents[2]
MakeWindow = Callable[..., MainWindow]


def phrases() -> set[str]:
    """The words a person reads for a status, a badge, a tag or a decision that are not
    also the value's own name (``located`` is both: code compares it as a value)."""
    keys = {*STATUS_WORDS, *PLACEMENT_WORDS, *SUPPORT_WORDS, *OUTCOME_WORDS, *TAG_WORDS}
    words = {*STATUS_WORDS.values(), *PLACEMENT_WORDS.values(), *SUPPORT_WORDS.values(),
             *TAG_WORDS.values(), UNDECIDED,
             *(label for _menu, label in [*PLACEMENT_COMMANDS.values(),
                                          *SUPPORT_COMMANDS.values()])}
    return {w.casefold() for w in words if w.casefold() not in keys and " " in w}


def texts_in(path: Path) -> Iterator[tuple[int, str]]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            yield node.lineno, node.value


def test_the_widgets_hold_no_words_of_their_own() -> None:
    wanted = phrases()
    assert {"needs review", "not located", "document missing", "wrong place",
            "not supported", "flagged upstream"} <= wanted
    found = []
    for folder in ("viewer/widgets", "viewer/window", "viewer/render"):
        for path in sorted((REPO / folder).glob("*.py")):
            for line, text in texts_in(path):
                hits = [w for w in wanted if w in text.casefold()]
                if hits:
                    found.append(f"{path.relative_to(REPO)}:{line}: {text!r} ({hits})")
    assert found == []


def test_the_command_words_cover_every_decision() -> None:
    assert tuple(PLACEMENT_COMMANDS) == PLACEMENT_DECISIONS == tuple(PLACEMENT_KEYS)
    assert tuple(SUPPORT_COMMANDS) == SUPPORT_DECISIONS == tuple(SUPPORT_KEYS)
    # A support command says the decision: its button is the word, cut to what fits.
    for support, (menu, label) in SUPPORT_COMMANDS.items():
        word = SUPPORT_WORDS[support].casefold()
        assert menu.replace("&", "").casefold() == word.split(" (")[0]
        assert word.startswith(label.casefold())


def test_what_the_window_shows_is_those_words(qtbot: QtBot, make_window: MakeWindow,
                                              tmp_path: Path) -> None:
    _cite, window = demo_window(qtbot, make_window, tmp_path)
    choice = window.review.filter_bar.choice
    shown = {choice.itemData(i): choice.itemText(i) for i in range(choice.count())}
    assert shown == FILTER_WORDS
    assert shown["review"] == status_word("review").capitalize() == "Needs review"
    buttons = {b.text() for b in window.review.panel.findChildren(QToolButton)}
    for commands, keys in ((PLACEMENT_COMMANDS, PLACEMENT_KEYS),
                           (SUPPORT_COMMANDS, SUPPORT_KEYS)):
        for value, (menu, label) in commands.items():
            assert f"{label} ({keys[value]})" in buttons  # type: ignore[index]
            assert menu in {a.text() for a in window.review.menu.actions()}
    window.session.select("c14")
    assert window.review._tags("c14") == [TAG_WORDS["flag"]]
    panel = window.review.panel
    assert panel.decisions.text() == f"Placement: {UNDECIDED}   ·   Support: {UNDECIDED}"
    assert panel.claim.text().endswith(status_word("review"))
