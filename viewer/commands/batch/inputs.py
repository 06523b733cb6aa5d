"""What a batch checks: the citations files named, and those found under folders.

A named file is always an input (one that cannot be read is reported in its result
line, in ``check``'s words). Under a folder, ``*.cite`` and ``*.cite.json`` files are
inputs, and ``*.json`` files that hold a JSON object with ``claims`` (what every
citations file has); other JSON files (review files among them) are skipped with a
line on stderr. Each input carries the SHA-256 of its bytes and a stamp of each
document it names (what a rerun is resumed by), and those documents (what work is
grouped by).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from matcher.citefiles import document_refs
from matcher.files import InputFileError, file_stamp, read_bounded

CITE_SUFFIXES = (".cite", ".cite.json")
JSON_SUFFIX = ".json"
REVIEW_SUFFIX = ".review.json"  # the review file beside a citations file: never an input
# Read to hash and group inputs; a larger one is still checked (and refused by check's
# own limit), only without a hash to resume by.
READ_LIMIT = 64_000_000


@dataclass(frozen=True, slots=True)
class Input:
    """One citations file to check: its absolute path, its hash (None when it cannot be
    read here; the check then says why) and the documents it names (sorted paths)."""

    path: str
    sha256: str | None
    documents: tuple[str, ...]
    # Each document's size and modification time in ns (None: not a file there), taken
    # when the run is planned, before any check: a rerun checks the file again when one
    # differs (a PDF replaced or edited since), without reading any PDF's bytes.
    stamps: dict[str, list[int] | None] = field(default_factory=dict, compare=False)
    # Each ``(id, path)`` the file lists (:func:`document_refs`): what ``check``'s
    # passwords, which go by id, are given by.
    refs: tuple[tuple[str, str], ...] = field(default=(), compare=False)


def find_inputs(args: Iterable[Path], *, skipped: Callable[[str], None]) -> list[Input]:
    """The inputs of ``args`` in the order given (folders sorted), each once."""
    seen: set[str] = set()
    found: list[Input] = []
    stamped: dict[str, list[int] | None] = {}  # documents repeat across a day's answers
    for arg in args:
        for path in _expand(arg, skipped):
            key = os.path.abspath(path)
            if key not in seen:
                seen.add(key)
                found.append(describe(Path(key), stamped))
    return found


def _expand(arg: Path, skipped: Callable[[str], None]) -> list[Path]:
    if not arg.is_dir():
        return [arg]
    paths: list[Path] = []
    for root, dirs, files in os.walk(arg, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = Path(root) / name
            why = _not_citations(path)
            if why is None:
                paths.append(path)
            elif why:
                skipped(f"{path}: {why}")
    return paths


def _not_citations(path: Path) -> str | None:
    """None for a citations file; else why it is skipped ("" for a file not even named
    like one: nothing is said about a folder's PDFs)."""
    name = path.name.lower()
    if name.endswith(CITE_SUFFIXES):
        return None
    if not name.endswith(JSON_SUFFIX):
        return ""
    if name.endswith(REVIEW_SUFFIX):
        return "a review file, not a citations file (skipped)"
    try:
        data = json.loads(read_bounded(path, limit=READ_LIMIT))
    except (InputFileError, ValueError, RecursionError):
        return "not a citations file (not readable JSON; skipped)"
    if not isinstance(data, dict) or "claims" not in data:
        return "not a citations file (no \"claims\"; skipped)"
    return None


def describe(path: Path, stamped: dict[str, list[int] | None] | None = None) -> Input:
    """``path`` with its hash, documents and their stamps, read once (None/empty if
    unreadable); ``stamped`` keeps the stamps already taken in this run."""
    try:
        data = read_bounded(path, limit=READ_LIMIT)
    except InputFileError:
        return Input(str(path), None, ())
    refs = tuple(document_refs(path, data))
    documents = tuple(sorted({doc for _id, doc in refs}))
    known = {} if stamped is None else stamped
    for doc in documents:
        if doc not in known:
            known[doc] = stamp(doc)
    return Input(str(path), hashlib.sha256(data).hexdigest(), documents,
                 {doc: known[doc] for doc in documents}, refs)


def stamp(path: str) -> list[int] | None:
    """A document's ``[size, mtime_ns]`` (None: missing, or not a regular file).

    >>> stamp("/nonexistent/policy.pdf") is None
    True
    """
    st = file_stamp(path)
    return None if st is None else [st[0], st[1]]
