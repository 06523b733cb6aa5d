"""PySide6's check of each imported module, made by reading bytes: the same answers."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

import viewer.window.shell  # noqa: F401  (the modules a window imports, to be checked)
from viewer import qtimport


def _own_check() -> qtimport.ModuleCheck:
    feature = sys.modules.get(qtimport.FEATURE_MODULE)
    own = getattr(feature, qtimport.CHECK, None)
    if own is None:
        pytest.skip("this PySide6 has no check of imported modules")
    return getattr(own, "own", own)  # PySide6's, also once installed


def test_the_faster_check_answers_as_pyside6_does_for_every_loaded_module() -> None:
    own = _own_check()
    faster = qtimport.faster(own)
    modules = [m for m in list(sys.modules.values()) if isinstance(m, ModuleType)]
    answers = {m.__name__: (faster(m), bool(own(m))) for m in modules}
    assert {name for name, (ours, theirs) in answers.items() if ours != theirs} == set()
    # Both answers occur among them: Qt's users and the rest.
    assert answers["viewer.window.shell"] == (True, True)
    assert answers["viewer.state.records"] == (False, False)


def test_install_puts_it_in_once() -> None:
    own = _own_check()
    assert qtimport.install() and qtimport.install()
    installed = getattr(sys.modules[qtimport.FEATURE_MODULE], qtimport.CHECK)
    assert installed.own is own
    assert installed(sys.modules["viewer.window.shell"]) is True
