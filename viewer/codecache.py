"""The code dataclasses compile, kept between runs, as Python keeps a module's byte-code.
No Qt.

:mod:`dataclasses` writes each class's methods (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``; for a frozen class ``__setattr__`` and ``__delattr__``) as source text and
compiles it with ``exec`` while the class is made. On Python 3.11 that is ~1 ms a class
— the compiling, nearly all of it — and the window makes some 80 classes before its first
paint: 80–100 ms of its start-up, and as much again in the check process. :func:`install`
gives :mod:`dataclasses` an ``exec`` that first looks the text up in a store of code
compiled from that very text in an earlier run; :func:`save` writes the store back when
this run compiled something new. What runs is what ``exec`` of the text would run, code
object for code object: the store is keyed by the whole text (and the module it runs
in), and kept per interpreter (its cache tag and byte-code magic number), so nothing
else ever reads it.

The programs of the regular expressions compiled at start-up are kept beside it, installed
and saved with it (:mod:`viewer.recache`).

Where: ``platformdirs.user_cache_dir("citeview")/code``, or ``$CITEVIEW_CODE_CACHE``
(a folder; empty or ``off``: nothing kept, every text compiled). A store is used only if
it is a regular file of this user's, reached without following a link; one that cannot
be read is a store with nothing in it.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

import platformdirs

from . import recache

log = logging.getLogger(__name__)

CACHE_ENV = "CITEVIEW_CODE_CACHE"
# More modules than this and a save keeps only those this run used: a store does not grow
# without end (the window's and the check process's classes are from some 80 modules).
KEEP = 400


def cache_dir() -> Path | None:
    """The folder the stores are kept in; None when keeping them is turned off."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip() in ("", "off") else Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("citeview", appauthor=False)) / "code"


def store_path(folder: Path) -> Path:
    """This interpreter's store in ``folder``: byte-code is only ever read by the
    interpreter that wrote it (as ``__pycache__`` names its files)."""
    tag = sys.implementation.cache_tag or sys.implementation.name
    return folder / f"dataclasses.{tag}-{importlib.util.MAGIC_NUMBER.hex()}.marshal"


class CodeStore:
    """Code compiled from source texts, by the module the text is run in and the text;
    what this run used and added. Each module's part is unpacked when a class of that
    module is first made: the window reads only its own, not the check process's."""

    def __init__(self, path: Path | None, packed: dict[str, bytes] | None = None) -> None:
        self.path = path
        self.packed = dict(packed or {})  # module → marshal of {text: code}, as kept
        self.codes: dict[str, dict[str, CodeType]] = {}  # module → text → code, unpacked
        self.used: set[str] = set()  # the modules whose texts this run compiled or used
        self.added = 0

    @classmethod
    def load(cls, path: Path | None) -> CodeStore:
        """The store at ``path`` (None: one that keeps nothing); one that is missing,
        not this user's, or damaged is empty."""
        return cls(path, read(path) if path is not None else {})

    def compiled(self, text: str, module: str = "") -> CodeType:
        """``text`` compiled as ``exec`` compiles it: from the store, or now."""
        codes = self.codes.get(module)
        if codes is None:
            codes = self.codes[module] = unpack(self.packed.pop(module, b""))
        code = codes.get(text)
        if code is None:
            # Not inheriting this module's __future__ flags (annotations): compiled as
            # dataclasses' own exec of the text compiles it.
            code = codes[text] = compile(text, "<string>", "exec", dont_inherit=True)
            self.added += 1
        self.used.add(module)
        return code

    def save(self) -> bool:
        """Write the store back if this run compiled something new (whole or not at all,
        with what another process saved meanwhile); True if written."""
        if self.path is None or not self.added:
            return False
        packed = {m: marshal.dumps(c) for m, c in self.codes.items() if c}
        if not recache.write_marshal(self.path, packed, self.used, KEEP):
            return False
        self.added = 0
        return True


def read(path: Path) -> dict[str, bytes]:
    """Each module's packed texts and code kept at ``path``; empty if there is no usable
    store."""
    kept = recache.read_marshal(path)
    if not isinstance(kept, dict):
        return {}
    return {m: b for m, b in kept.items() if isinstance(m, str) and isinstance(b, bytes)}


def unpack(packed: bytes) -> dict[str, CodeType]:
    """One module's texts and their code; empty if damaged."""
    try:
        codes = marshal.loads(packed) if packed else {}
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {t: c for t, c in codes.items() if isinstance(t, str) and isinstance(c, CodeType)}


_store: CodeStore | None = None


def install(path: Path | None = None) -> CodeStore:
    """From now on :mod:`dataclasses` compiles through the store at ``path`` (default:
    this interpreter's in :func:`cache_dir`); once per process, later calls return the
    store installed. A forked child keeps it, and saves what it compiled itself."""
    global _store
    if _store is None:
        if path is None:
            folder = cache_dir()
            path = store_path(folder) if folder is not None else None
        _store = CodeStore.load(path)
        dataclasses.exec = _exec_through(_store)  # type: ignore[attr-defined]
        recache.install(path.parent if path is not None else None)
    return _store


def save() -> bool:
    """Write back what this process compiled that was not kept (see :meth:`CodeStore.save`),
    the regular expressions' programs too (:mod:`viewer.recache`)."""
    patterns = recache.save()
    return (_store.save() if _store is not None else False) or patterns


def _exec_through(store: CodeStore) -> Any:
    """An ``exec`` for :mod:`dataclasses`: source texts through ``store``; anything else
    as the built-in does it."""

    def exec_(source: Any, globals: Any = None, locals: Any = None) -> None:
        if isinstance(source, str):
            module = globals.get("__name__") if isinstance(globals, dict) else None
            source = store.compiled(source, module if isinstance(module, str) else "")
        exec(source, globals, locals)  # what dataclasses itself does

    return exec_
