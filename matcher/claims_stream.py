"""A citations file's claims read one at a time, for ``citeview check``: its memory stays
near the file's size, where the whole file's models held ~35 times it.

:func:`open_claims` reads the file's text as :func:`~matcher.citations.load_citations`
does, decodes its top-level members but the claims, and validates the claims in a pass
over the ``claims`` array: each element decoded from the text
(:meth:`json.JSONDecoder.raw_decode`), validated alone, and dropped. Iterating the
:class:`ClaimStream` decodes and validates them once more, one at a time, for the check.

A file that is not valid raises the CitationsError load_citations raises, the same
problems in the same order. A rare shape is handed to load_citations whole, to be named
exactly as before: JSON that does not parse, nests too deep or holds a lone surrogate,
a top level that is not an object with one list of claims, and citeview's other files
(a check report). What a hostile file costs is then load_citations' cost, as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .citations import (
    CLAIMS_APART,
    CitationsError,
    CitationsFile,
    Claim,
    claim_problems,
    file_problems,
    json_path,
    json_problems,
    other_kind,
    parse_citations,
    read_text,
    refuse_other,
)
from .jsonshape import structure_problems

_SPACE = re.compile(r"[ \t\n\r]*")  # what JSON allows between tokens
_DECODER = json.JSONDecoder()  # json.loads' own settings


@dataclass(frozen=True)
class ClaimStream:
    """A valid citations file, its claims read on demand: ``file`` holds its documents
    and chunks (no claims; :attr:`~matcher.citations.CitationsFile.assigned_ids` as
    loading gives them), ``count`` claims with ``evidence`` items in all."""

    file: CitationsFile
    count: int
    evidence: int
    _claims: Callable[[], Iterator[Claim]]

    def __iter__(self) -> Iterator[Claim]:
        """Each claim in file order, validated (an id given if it had none)."""
        return self._claims()

    @classmethod
    def of(cls, cf: CitationsFile) -> ClaimStream:
        """The stream of a file already loaded whole."""
        head = cf.model_copy(update={"claims": []})
        head._assigned_ids = cf.assigned_ids
        return cls(head, len(cf.claims), sum(len(c.evidence) for c in cf.claims),
                   lambda: iter(cf.claims))


class _Whole(Exception):
    """The file is read whole by load_citations, to name its problem as before."""


def open_claims(path: Path | str, *, max_bytes: int | None = None) -> ClaimStream:
    """Read and validate the citations file ``path`` as :func:`load_citations` does,
    every failure a CitationsError, its claims left in the text until iterated."""
    p = Path(path)
    text = read_text(p, max_bytes=max_bytes)
    try:
        return _streamed(text, p)
    except (_Whole, json.JSONDecodeError, RecursionError):
        pass
    with json_problems(p):
        data = json.loads(text)
        del text
        return ClaimStream.of(parse_citations(data, path=p))


def _streamed(text: str, path: Path) -> ClaimStream:
    head, at = _top_level(text)
    refuse_other(head, path=path)  # another version, a review file (a report: below)
    if any(True for _ in structure_problems(head)):
        raise _Whole
    problems: list[tuple[str, str]] = []
    try:
        cf = CitationsFile.model_validate({**head, "claims": []}, context=CLAIMS_APART)
    except ValidationError as exc:
        problems += [(json_path(tuple(e["loc"])), e["msg"]) for e in exc.errors()]
        cf = None
    found = _validated(text, at, documents=None if cf is None else len(cf.documents),
                       report_like=isinstance(head.get("summary"), dict))
    if cf is None or found.problems:
        raise CitationsError(path, problems + found.problems)
    assigned = _new_ids(found.missing, found.ids)
    wrong = file_problems(cf, _claim_ids(text, at, found, assigned), found.evidence)
    if wrong:
        raise CitationsError(path, [(f"$.{p}", m) for p, m in wrong])
    cf._assigned_ids = tuple(assigned.values())
    return ClaimStream(cf, found.count, found.items, lambda: _claims(text, at, assigned))


@dataclass
class _Found:
    """What the validating pass over the claims found: the claims' own problems (JSON
    paths), their evidence's (:func:`~matcher.citations.claim_problems`), the ids used,
    which claims have none, how many claims and evidence items there are."""

    problems: list[tuple[str, str]] = field(default_factory=list)
    evidence: list[tuple[str, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    missing: list[int] = field(default_factory=list)
    count: int = 0
    items: int = 0


def _validated(text: str, at: int, *, documents: int | None, report_like: bool) -> _Found:
    """Each claim decoded, validated alone and dropped (``documents``: how many the file
    lists, None when they are invalid; ``report_like``: the file has a ``summary``)."""
    found = _Found()
    for i, data in enumerate(_elements(text, at)):
        found.count += 1
        if any(True for _ in structure_problems(data, where=f"$.claims[{i}]", depth=2)):
            raise _Whole
        if report_like and other_kind({"summary": {}, "claims": [data]}):
            raise _Whole
        if isinstance(data, dict) and "id" not in data:
            found.missing.append(i)
            data = {"id": "c", **data}  # its own id is given once every id is known
        elif isinstance(data, dict) and isinstance(data.get("id"), str):
            found.ids.add(data["id"])
        try:
            claim = Claim.model_validate(data)
        except ValidationError as exc:
            found.problems += [(json_path(("claims", i, *e["loc"])), e["msg"])
                               for e in exc.errors()]
            continue
        found.items += len(claim.evidence)
        if documents is not None:
            found.evidence += claim_problems(i, claim, documents)
    return found


def _claims(text: str, at: int, assigned: dict[int, str]) -> Iterator[Claim]:
    for i, data in enumerate(_elements(text, at)):
        given = assigned.get(i)
        yield Claim.model_validate(data if given is None else {"id": given, **data})


def _new_ids(missing: list[int], ids: set[str]) -> dict[int, str]:
    """``c1``, ``c2``, … for the claims at ``missing``, skipping ids the file uses (as
    :func:`~matcher.citations.parse_citations` gives them)."""
    out: dict[int, str] = {}
    n = 0
    for i in missing:
        n += 1
        while f"c{n}" in ids:
            n += 1
        out[i] = f"c{n}"
    return out


def _claim_ids(text: str, at: int, found: _Found, assigned: dict[int, str]
               ) -> Iterator[str]:
    """Every claim's id in file order; read again from the text only when some id is
    used twice (``found.ids`` holds each once), for the duplicates' message."""
    if len(found.ids) + len(assigned) == found.count:
        return iter(())  # no id twice: nothing to tell
    return (assigned.get(i) or d["id"] for i, d in enumerate(_elements(text, at)))


def _top_level(text: str) -> tuple[dict[str, Any], int]:
    """The file's top-level members but ``claims`` (decoded), and where the last
    ``claims`` array starts (json.loads keeps a key's last value)."""
    pos = _skip(text, 0)
    if not text.startswith("{", pos):
        raise _Whole
    head: dict[str, Any] = {}
    at = -1
    pos = _skip(text, pos + 1)
    while True:
        if not text.startswith('"', pos):  # `}` at once: no claims; `,}`: not JSON
            raise _Whole
        key, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if not text.startswith(":", pos):
            raise _Whole
        pos = _skip(text, pos + 1)
        if key == "claims":
            if not text.startswith("[", pos):
                raise _Whole
            at, end = pos, [pos]
            for _ in _elements(text, pos, end=end, decode=False):
                pass
            pos = end[0]
        else:
            head[key], pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if not text.startswith(",", pos):
            break
        pos = _skip(text, pos + 1)
    if not text.startswith("}", pos) or _skip(text, pos + 1) != len(text) or at < 0:
        raise _Whole
    return head, at


def _elements(text: str, at: int, *, end: list[int] | None = None, decode: bool = True
              ) -> Iterator[Any]:
    """Each element of the JSON array whose ``[`` is at ``at``, decoded one at a time
    (None when not ``decode``: counted only); ``end[0]`` is set past its ``]``."""
    pos = _skip(text, at + 1)
    if text.startswith("]", pos):
        if end is not None:
            end[0] = pos + 1
        return
    while True:
        value, pos = _DECODER.raw_decode(text, pos)
        yield value if decode else None
        del value
        pos = _skip(text, pos)
        if text.startswith("]", pos):
            if end is not None:
                end[0] = pos + 1
            return
        if not text.startswith(",", pos):
            raise _Whole
        pos = _skip(text, pos + 1)


def _skip(text: str, pos: int) -> int:
    found = _SPACE.match(text, pos)
    assert found is not None  # the pattern matches the empty string
    return found.end()
