"""The examples in docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["matcher.normalize", "matcher.span", "matcher.vocabulary", "matcher.files",
           "matcher.pageatoms", "matcher.pagecache",
           "viewer.state.presentation", "viewer.state.selection", "viewer.state.review",
           "viewer.state.sidecar", "viewer.state.review_text", "viewer.state.claim_filter",
           "viewer.imports", "viewer.imports.anthropic", "viewer.imports.names",
           "matcher.textpdf"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples to run"
    assert result.failed == 0
