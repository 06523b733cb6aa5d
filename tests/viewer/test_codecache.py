"""The code dataclasses compile, kept between runs (viewer.codecache): a class made from
kept code is the class a plain compile makes, a second run compiles nothing, and a store
that is not a sound file of this user's is as good as none."""

from __future__ import annotations

import dataclasses
import keyword
import marshal
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer import codecache

REPO = Path(__file__).resolve().parents[2]
MODULE = "tests.viewer.test_codecache"

names = st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
                 .filter(lambda n: not keyword.iskeyword(n)), min_size=1, max_size=5,
                 unique=True)
options = st.fixed_dictionaries({"frozen": st.booleans(), "eq": st.booleans(),
                                 "order": st.booleans(), "slots": st.booleans(),
                                 "kw_only": st.booleans()})


def make_class(fields: list[str], defaults: int, opts: dict[str, bool],
               exec_: Callable[..., None] | None = None) -> type:
    """A dataclass of ``fields`` (the last ``defaults`` with defaults), made with
    dataclasses' own exec, or with ``exec_`` in its place."""
    opts = dict(opts, order=opts["order"] and opts["eq"])
    annotations = {name: int for name in fields}
    namespace: dict[str, Any] = {"__annotations__": annotations, "__module__": MODULE}
    for i, name in enumerate(fields[len(fields) - defaults:]):
        namespace[name] = i * 7
    cls = type("Made", (), namespace)
    had = dataclasses.__dict__.get("exec")
    try:
        if exec_ is not None:
            dataclasses.exec = exec_  # type: ignore[attr-defined]
        return dataclasses.dataclass(**opts)(cls)
    finally:
        if had is None:
            dataclasses.__dict__.pop("exec", None)
        else:
            dataclasses.exec = had  # type: ignore[attr-defined]


def shape(code: CodeType) -> tuple[Any, ...]:
    """What a code object does, to compare by value (marshal's bytes also record which
    objects it happened to share)."""
    consts = tuple(shape(c) if isinstance(c, CodeType) else (type(c), c)
                   for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars,
            code.co_cellvars, code.co_filename, code.co_qualname, code.co_flags,
            code.co_argcount, code.co_kwonlyargcount, code.co_firstlineno)


def methods(cls: type) -> dict[str, tuple[Any, ...]]:
    """Each method dataclasses wrote for ``cls``, by what its code does."""
    out = {}
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__",
                 "__delattr__", "__lt__", "__le__", "__gt__", "__ge__"):
        fn = cls.__dict__.get(name)
        fn = getattr(fn, "__wrapped__", fn)  # __repr__ is wrapped (recursion guard)
        code = getattr(fn, "__code__", None)
        if code is not None:
            out[name] = shape(code)
    return out


@settings(max_examples=60, deadline=None)
@given(names, st.integers(0, 5), options, st.lists(st.integers(-9, 9), min_size=5,
                                                     max_size=5))
def test_a_class_made_from_kept_code_is_the_class_a_plain_compile_makes(
        tmp_path_factory: pytest.TempPathFactory, fields: list[str], defaults: int,
        opts: dict[str, bool], values: list[int]) -> None:
    defaults = min(defaults, len(fields))
    store_file = tmp_path_factory.mktemp("code") / "store.marshal"
    plain = make_class(fields, defaults, opts)
    first = codecache.CodeStore.load(store_file)
    compiled = make_class(fields, defaults, opts, codecache._exec_through(first))
    assert first.added > 0 and first.save()
    again = codecache.CodeStore.load(store_file)
    kept = make_class(fields, defaults, opts, codecache._exec_through(again))
    assert again.added == 0  # every method came from the store
    assert methods(plain) == methods(compiled) == methods(kept) != {}
    args = dict(zip(fields, values, strict=False))
    a, b = plain(**args), kept(**args)
    assert repr(a) == repr(b)
    assert dataclasses.astuple(a) == dataclasses.astuple(b)
    assert (kept(**args) == b) is opts["eq"]  # else each instance equals only itself
    if opts["frozen"]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(b, fields[0], 1)
    if opts["eq"] and opts["frozen"]:
        assert hash(kept(**args)) == hash(b)


def test_a_store_is_read_only_from_a_sound_file_of_this_users(tmp_path: Path) -> None:
    made = codecache.CodeStore.load(tmp_path / "store")
    fields, opts = ["a", "b"], {"frozen": True, "eq": True, "order": False,
                                "slots": True, "kw_only": False}
    make_class(fields, 1, opts, codecache._exec_through(made))
    assert made.save()
    assert codecache.read(tmp_path / "store") != {}
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "store")
    assert codecache.read(link) == {}  # a link where the store should be
    damaged = tmp_path / "damaged"
    damaged.write_bytes((tmp_path / "store").read_bytes()[:40])
    assert codecache.read(damaged) == {}
    (tmp_path / "other").write_bytes(marshal.dumps({"m": b"not code", 3: b"x"}))
    store = codecache.CodeStore.load(tmp_path / "other")
    make_class(fields, 1, opts, codecache._exec_through(store))  # compiles; no error
    assert store.added > 0
    assert codecache.read(tmp_path / "missing") == {}
    (tmp_path / "a folder").mkdir()
    unwritable = codecache.CodeStore.load(tmp_path / "a folder")
    make_class(fields, 1, opts, codecache._exec_through(unwritable))
    assert not unwritable.save()  # said in the log, never raised at the program's exit
    assert not codecache.CodeStore.load(None).save()  # keeping turned off


def test_a_store_is_this_interpreters_own(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = codecache.store_path(tmp_path)
    assert sys.implementation.cache_tag in path.name
    monkeypatch.setenv(codecache.CACHE_ENV, "off")
    assert codecache.cache_dir() is None
    monkeypatch.setenv(codecache.CACHE_ENV, str(tmp_path / "here"))
    assert codecache.cache_dir() == tmp_path / "here"


COUNT = """
import sys
from viewer import codecache
store = codecache.install()
import viewer.checker.protocol, viewer.state.records, viewer.state.review
from viewer.checker import protocol as p
assert p.Open("x") == p.Open("x") and p.Open("x") != p.Inspect("x")
print(store.added, len(store.used))
codecache.save()
"""


def test_the_second_run_compiles_none_of_the_windows_classes(tmp_path: Path) -> None:
    env = dict(os.environ, CITEVIEW_CODE_CACHE=str(tmp_path / "code"))

    def run() -> tuple[int, int]:
        out = subprocess.run([sys.executable, "-c", COUNT], env=env, cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
        return int(out[0]), int(out[1])

    first_added, modules = run()
    assert first_added > 30 and modules >= 3
    assert run() == (0, modules)


def test_the_check_process_keeps_what_it_compiled(tmp_path: Path) -> None:
    env = dict(os.environ, CITEVIEW_CODE_CACHE=str(tmp_path / "code"),
               QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               CITEVIEW_REPORT_STORE="off")
    subprocess.run([sys.executable, "-m", "viewer.app", "--demo", "--screenshot",
                    str(tmp_path / "shot.png")], env=env, cwd=REPO, check=True,
                   capture_output=True, timeout=120)
    kept = codecache.read(codecache.store_path(tmp_path / "code"))
    assert "viewer.checker.protocol" in kept  # the window's
    assert "matcher.check" in kept  # the check process's, saved as it left
    # And the regular expressions' programs (viewer.recache), both processes' too:
    from matcher import facts
    from viewer import recache

    path = recache.store_path(tmp_path / "code")
    assert path is not None
    patterns = {source for source, _ in recache._valid(recache.read_marshal(path))}
    assert facts._ISO_DATE.pattern in patterns  # the check process's
    assert any("edge of a w" in str(source) for source in patterns)  # PySide6's, the window's
