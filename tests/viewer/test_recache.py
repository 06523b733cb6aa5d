"""Compiled regular expressions kept between runs (viewer.recache): a pattern built from
its kept program is the pattern re compiles, a second run compiles none of the window's
and the check process's patterns, and a store that is not sound is as good as none."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer import recache

REPO = Path(__file__).resolve().parents[2]
_cases: Counter[str] = Counter()

# Pieces of patterns: literals, classes, escapes, groups (named or not), alternation,
# quantifiers, anchors, look-arounds, inline flags and back-references.
ATOMS = st.sampled_from(["a", "é", r"\d", r"\w+", r"[0-3]?\d", r"[^\W\d_]{2,5}", r"\s*",
                         ".", r"\.", "€", r"[$€£]", r"\b", "^", "$", r"(?<!\w)", r"(?=\d)",
                         r"(?:st|nd|rd|th)?", "[a-zß]"])


@st.composite
def patterns(draw: st.DrawFn) -> tuple[str, int]:
    parts: list[str] = []
    groups = 0
    for i in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["atom", "group", "named", "alt", "backref"]))
        atom = draw(ATOMS)
        if kind == "group":
            groups += 1
            parts.append(f"({atom}{draw(st.sampled_from(['', '*', '+?', '{1,3}']))})")
        elif kind == "named":
            groups += 1
            parts.append(f"(?P<g{i}>{atom})")
        elif kind == "alt":
            parts.append(f"(?:{atom}|{draw(ATOMS)})")
        elif kind == "backref" and groups:
            parts.append(f"(?:\\{draw(st.integers(1, groups))})?")
        else:
            parts.append(atom)
    flags = draw(st.sampled_from([0, re.IGNORECASE, re.MULTILINE | re.DOTALL, re.VERBOSE,
                                  re.IGNORECASE | re.ASCII]))
    return "".join(parts), int(flags)


@settings(max_examples=150, deadline=None)
@given(pattern=patterns(), text=st.text(alphabet="aé1 2.3th€ßAb\n-", max_size=30))
def test_a_pattern_built_from_its_kept_program_is_the_pattern_re_compiles(
        tmp_path_factory: pytest.TempPathFactory, pattern: tuple[str, int],
        text: str) -> None:
    source, flags = pattern
    try:
        expected = recache._re_compile(source, flags)
    except re.error:
        with pytest.raises(re.error):
            recache.PatternStore(None).compile(source, flags)
        _cases["refused"] += 1
        return
    store = recache.PatternStore(None)
    fresh = store.compile(source, flags)
    kept = recache.PatternStore(None, recache._valid(marshal.loads(marshal.dumps(store.kept))))
    again = kept.compile(source, flags)
    assert kept.added == 0  # built from the kept program, not compiled again
    for made in (fresh, again):
        assert made == expected  # same pattern, flags and program
        assert (made.groups, made.groupindex, made.flags) == \
            (expected.groups, expected.groupindex, expected.flags)
        assert [m.span() for m in made.finditer(text)] == \
            [m.span() for m in expected.finditer(text)]
    _cases["compiled"] += 1


def test_the_property_reached_both_kinds_of_pattern() -> None:
    assert _cases["compiled"] > 20 and _cases["refused"] > 0, _cases


def test_a_store_is_read_only_from_a_sound_file_of_this_users(tmp_path: Path) -> None:
    path = recache.store_path(tmp_path)
    assert path is not None and sys.implementation.cache_tag in path.name
    made = recache.PatternStore.load(path)
    made.compile(r"(?P<year>\d{4})-(\d\d)", 0)
    assert made.save() and not made.save()  # nothing new the second time
    assert recache.PatternStore.load(path).kept == made.kept
    link = tmp_path / "link"
    link.symlink_to(path)
    assert recache.PatternStore.load(link).kept == {}  # a link where the store should be
    damaged = tmp_path / "damaged"
    damaged.write_bytes(path.read_bytes()[:30])
    assert recache.PatternStore.load(damaged).kept == {}
    other = tmp_path / "other"
    other.write_bytes(marshal.dumps({("a", 0): "not a program", 3: (1, 2)}))
    store = recache.PatternStore.load(other)
    assert store.kept == {}
    assert store.compile("a+", 0) == recache._re_compile("a+", 0)
    bogus = recache.PatternStore(None, {("b+", 0): (32, [1, 2, 3], 0, {}, (None,))})
    assert bogus.compile("b+", 0) == recache._re_compile("b+", 0)  # a damaged entry
    assert bogus.kept[("b+", 0)] == recache.program("b+", 0) and bogus.added == 1
    (tmp_path / "a folder").mkdir()
    unwritable = recache.PatternStore.load(tmp_path / "a folder")
    unwritable.compile("b+", 0)
    assert not unwritable.save()  # said in the log, never raised at the program's exit


def test_nothing_is_installed_where_re_is_not_built_as_expected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert recache.sound()
    monkeypatch.setattr(recache._compiler, "_code", lambda p, flags: [1, 2, 3])
    assert not recache.sound()


COUNT = """
import re, sys
from viewer import codecache, recache
codecache.install()
import PySide6.QtCore  # PySide6 compiles its signature parser's patterns as it loads
import matcher.facts, matcher.check
assert re.compile(r"(?P<n>\\d+) EUR").match("250 EUR").group("n") == "250"
store = recache._store
print(store.added, len(store.used))
codecache.save()
"""


def test_the_second_run_compiles_none_of_its_patterns(tmp_path: Path) -> None:
    env = dict(os.environ, CITEVIEW_CODE_CACHE=str(tmp_path / "code"),
               QT_QPA_PLATFORM="offscreen")

    def run() -> tuple[int, int]:
        out = subprocess.run([sys.executable, "-c", COUNT], env=env, cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
        return int(out[0]), int(out[1])

    first_added, used = run()
    assert first_added > 30 and used == first_added
    assert run() == (0, used)
