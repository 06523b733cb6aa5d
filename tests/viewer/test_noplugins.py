"""viewer.noplugins: pydantic's plugin loader is stood in for while plugins are off, with
the same answers, in fresh interpreters (what a check process or a command starts as)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pydantic
import pytest

from viewer import noplugins

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import viewer, matcher.citations
from matcher.citations import load_citations
from viewer.state.files import demo_path
load_citations(demo_path())  # models built and used
from pydantic.plugin import _loader
print(json.dumps({"metadata": "importlib.metadata" in sys.modules,
                  "file": getattr(_loader, "__file__", None),
                  "plugins": list(_loader.get_plugins()),
                  "group": _loader.PYDANTIC_ENTRY_POINT_GROUP}))
"""


def probe(env_value: str | None) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop(noplugins.ENV, None)
    if env_value is not None:
        env[noplugins.ENV] = env_value
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True, timeout=120).stdout
    result: dict[str, object] = json.loads(out)
    return result


def real_loader_group() -> str:
    code = "from pydantic.plugin import _loader; print(_loader.PYDANTIC_ENTRY_POINT_GROUP)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60).stdout.strip()


@pytest.mark.parametrize("value", [None, *noplugins.ALL_OFF])
def test_with_plugins_off_the_models_work_without_importing_the_loader(
        value: str | None) -> None:
    got = probe(value)  # None: citeview's own default, set by the viewer package
    assert got["metadata"] is False  # the real loader would have imported it
    assert got["file"] is None  # the stand-in has no file
    assert got["plugins"] == []
    assert got["group"] == real_loader_group()  # any other name: the real loader's


def test_with_some_plugins_named_pydantic_uses_its_own_loader() -> None:
    got = probe("some_plugin")
    assert isinstance(got["file"], str) and got["file"].endswith("_loader.py")
    assert got["metadata"] is True


@pytest.mark.parametrize("value", noplugins.ALL_OFF)
def test_the_real_loader_finds_no_plugins_with_those_values(value: str) -> None:
    """What the stand-in claims for pydantic: with these values its loader has none."""
    code = "from pydantic.plugin import _loader; print(list(_loader.get_plugins()))"
    env = dict(os.environ, **{noplugins.ENV: value})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=60).stdout.strip()
    assert out == "[]"


def test_every_name_pydantic_imports_from_its_loader_is_there() -> None:
    """pydantic's own sources: each ``from ._loader import X`` (or from
    ``pydantic.plugin._loader``) names something the stand-in answers for."""
    root = Path(pydantic.__file__).parent
    names: set[str] = set()
    for source in root.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module is not None and (
                    node.module == noplugins.LOADER
                    or (node.module == "_loader" and source.parent.name == "plugin")):
                names.update(a.name for a in node.names)
    assert "get_plugins" in names  # what the stand-in is for; else it stands for nothing
    code = ("import viewer, pydantic.plugin\nfrom pydantic.plugin import _loader\n"
            f"print(all(hasattr(_loader, n) for n in {sorted(names)!r}))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop(noplugins.ENV, None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=60).stdout.strip()
    assert out == "True"
