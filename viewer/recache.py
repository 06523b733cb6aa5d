"""The regular expressions compiled at start-up, kept between runs. No Qt.

Compiling a pattern is Python work (:mod:`re`'s parser and compiler, in Python): the
window compiles some 40 as it starts, 16 ms of its start-up, most of them PySide6's own
(the parser of its signatures, made as QtCore is imported); the check process some 55,
9 ms of its path to a first report (the matcher's patterns for dates, figures and words
among them). :func:`install` has :mod:`re` compile through a store of what each pattern
compiled to in an earlier run: the program that :mod:`re`'s compiler hands to
``_sre.compile``, with its flags and the names of its groups, keyed by the pattern and
the flags asked for. What runs is what compiling the pattern gives: ``_sre.compile`` is
called with the same arguments, and a pattern compiled from the store equals (``==``,
which compares the programs) the one :mod:`re` compiles. A store is kept per interpreter
and regular-expression engine (its cache tag, ``_sre.MAGIC`` and ``CODESIZE``), beside
the dataclasses' code (:mod:`viewer.codecache`, which installs and saves this one too);
where this interpreter's :mod:`re` is not built as expected, nothing is installed.
"""

from __future__ import annotations

import importlib
import logging
import marshal
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)

_sre: Any
_compiler: Any
_parser: Any
try:
    _sre = importlib.import_module("_sre")
    _compiler = importlib.import_module("re._compiler")
    _parser = importlib.import_module("re._parser")
except ImportError:  # not CPython's engine
    _sre = _compiler = _parser = None
# re's own compiler, as it was before install() put the store's in its place.
_re_compile: Any = getattr(_compiler, "compile", None)

# More patterns than this and a save keeps only those this run used.
KEEP = 500
# A pattern with groups, names, a look-behind, a class and flags: what a store's programs
# are checked against before one is used.
PROBE = (r"(?i)(?<!\w)(?P<day>[0-3]?\d)\.(?P<month>\d{1,2})(?:[-/](\d{4}))?\b", int(re.UNICODE))

Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
Key = tuple[str | bytes, int]


def store_path(folder: Path) -> Path | None:
    """This interpreter's and engine's store in ``folder``; None if it has no such engine."""
    if _sre is None:
        return None
    tag = sys.implementation.cache_tag or sys.implementation.name
    return folder / f"patterns.{tag}-{_sre.MAGIC}-{_sre.CODESIZE}.marshal"


def program(pattern: str | bytes, flags: int) -> Program:
    """What :mod:`re`'s compiler gives ``_sre.compile`` for ``pattern`` and ``flags``
    (as ``re._compiler.compile`` makes it)."""
    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # opcodes are int subclasses
    names = parsed.state.groupdict
    by_number: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        by_number[number] = name
    return (int(flags | parsed.state.flags), code, parsed.state.groups - 1, dict(names),
            tuple(by_number))


def build(pattern: str | bytes, kept: Program) -> re.Pattern[Any]:
    flags, code, groups, names, by_number = kept
    return _sre.compile(pattern, flags, code, groups, names, by_number)


def sound() -> bool:
    """Whether a pattern built from its kept program is the pattern :mod:`re` compiles."""
    if _re_compile is None or not hasattr(_compiler, "_code") or not hasattr(_parser, "parse"):
        return False
    try:
        pattern, flags = PROBE
        kept = marshal.loads(marshal.dumps(program(pattern, flags)))
        made, compiled = build(pattern, kept), _re_compile(pattern, flags)
        return bool(made == compiled and made.groupindex == compiled.groupindex
                    and made.flags == compiled.flags)
    except Exception:  # any surprise: compile as re does, nothing kept
        return False


class PatternStore:
    """Programs of patterns, by pattern and flags; what this run used and added."""

    def __init__(self, path: Path | None, kept: dict[Key, Program] | None = None) -> None:
        self.path = path
        self.kept = dict(kept or {})
        self.used: set[Key] = set()
        self.added = 0

    @classmethod
    def load(cls, path: Path | None) -> PatternStore:
        kept = read_marshal(path) if path is not None else None
        return cls(path, _valid(kept))

    def compile(self, pattern: Any, flags: int = 0) -> re.Pattern[Any]:
        """``pattern`` compiled as ``re._compiler.compile`` compiles it: from the store's
        program, or now (and kept)."""
        if not isinstance(pattern, (str, bytes)) or not isinstance(flags, int) \
                or flags & re.DEBUG:
            return _re_compile(pattern, flags)
        key = (pattern, flags)
        self.used.add(key)
        kept = self.kept.get(key)
        if kept is not None:
            try:
                return build(pattern, kept)
            except Exception:  # a damaged entry: compiled anew, and kept so
                pass
        kept = self.kept[key] = program(pattern, flags)
        self.added += 1
        return build(pattern, kept)

    def save(self) -> bool:
        """Write the store back if this run compiled a pattern it did not hold (whole or
        not at all, with what another process saved meanwhile); True if written."""
        if self.path is None or not self.added:
            return False
        if not write_marshal(self.path, self.kept, self.used, KEEP):
            return False
        self.added = 0
        return True


def read_marshal(path: Path) -> object:
    """What a store at ``path`` holds; None unless it is a regular file of this user's,
    reached without following a link, that marshal can read (the code cache's stores,
    :mod:`viewer.codecache`, are read so too)."""
    fh = open_own(path)
    if fh is None:
        return None
    with fh:
        try:
            return marshal.loads(fh.read())
        except (EOFError, ValueError, TypeError, OSError):
            log.info("compiled code in %s could not be read; compiling anew", path)
            return None


def open_own(path: Path | str) -> BinaryIO | None:
    """``path`` opened for reading if it is a regular file of this user's, reached without
    following a link (what a program keeps for itself: these stores, the kept reports of
    :mod:`viewer.checker.stored`); else None."""
    try:
        fh = os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb")
    except OSError:  # none there, or a link where it should be
        return None
    st, uid = os.fstat(fh.fileno()), getattr(os, "getuid", lambda: None)()
    if stat.S_ISREG(st.st_mode) and uid in (None, st.st_uid):
        return fh
    fh.close()
    return None


def write_marshal(path: Path, kept: dict[Any, Any], used: set[Any], keep: int) -> bool:
    """Write the store ``kept`` at ``path``, merged into what is there now (what another
    process saved meanwhile), whole or not at all; past ``keep`` entries, only those in
    ``used``. False, said in the log, where it cannot be written (a cache: the next run
    compiles anew)."""
    from matcher.files import WriteError, write_bytes_atomically

    merged = read_marshal(path)
    merged = dict(merged) if isinstance(merged, dict) else {}
    merged.update(kept)
    if len(merged) > keep:
        merged = {k: v for k, v in merged.items() if k in used}
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_bytes_atomically(path, marshal.dumps(merged))
    except (OSError, ValueError, WriteError) as exc:
        log.info("compiled code not kept in %s: %s", path, exc)
        return False
    return True


def _valid(kept: object) -> dict[Key, Program]:
    """The entries of a store read back that have the shape of a program."""
    if not isinstance(kept, dict):
        return {}
    out: dict[Key, Program] = {}
    for key, value in kept.items():
        if (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], (str, bytes))
                and isinstance(key[1], int) and isinstance(value, tuple) and len(value) == 5
                and isinstance(value[0], int) and isinstance(value[1], list)
                and isinstance(value[2], int) and isinstance(value[3], dict)
                and isinstance(value[4], tuple)):
            out[key] = value
    return out


_store: PatternStore | None = None


def install(folder: Path | None) -> PatternStore | None:
    """From now on :mod:`re` compiles patterns through this interpreter's store in
    ``folder`` (None: nothing kept, nothing changed); once per process. None where the
    engine is not as this module expects."""
    global _store
    if _store is None and folder is not None and sound():
        _store = PatternStore.load(store_path(folder))
        _compiler.compile = _store.compile  # what re.compile and the re functions call
    return _store


def save() -> bool:
    return _store.save() if _store is not None else False
