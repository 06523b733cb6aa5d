"""The examples in docstrings are run, so they stay true: every module of ``matcher`` and
``viewer`` whose source holds an example (``>>>``) is found and run, none listed by hand."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def modules_with_examples() -> list[str]:
    """Every module under matcher/ and viewer/ with a ``>>>`` in its source."""
    out = []
    for package in ("matcher", "viewer"):
        for path in sorted((REPO / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                parts = path.relative_to(REPO).with_suffix("").parts
                out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


MODULES = modules_with_examples()


def test_the_examples_are_found() -> None:
    assert {"matcher.normalize", "viewer.state.outcome", "viewer.state.questions",
            "viewer.imports.anthropic", "matcher.textpdf",
            "matcher.pageatoms", "matcher.pagecache"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples to run"
    assert result.failed == 0
