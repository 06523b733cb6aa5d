"""What an import is made of: its inputs, the problems it names, and its result."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from matcher.files import InputFileError, InvalidFileError, json_problem, read_bounded

# The largest answer or request read: a request holds its PDFs in base64 (4/3 of their
# size), and the API takes at most 32 MB a request, so 100 MB leaves room for SDK dumps
# with indentation while keeping a runaway file from exhausting memory.
MAX_INPUT_BYTES = 100_000_000


class ImportProblem(InvalidFileError):
    """An answer, request or document that cannot be imported: the file, and each
    problem's JSON path (``$.content[2].citations[0].document_index: …``)."""

    what = "answer to import"


@dataclass(frozen=True)
class Inputs:
    """What an import is given besides the answer: its documents in the answer's order,
    or the request that carried them."""

    documents: tuple[Path, ...] = ()
    request: Path | None = None
    # The documents' order is unknown (picked together in a file dialog): each goes to the
    # index whose title the answer gives as its name, the rest in the order given.
    by_title: bool = False

    def any(self) -> bool:
        return bool(self.documents) or self.request is not None


@dataclass(frozen=True)
class Outgoing:
    """A document to write beside the citations file (taken out of a request, or a
    text typeset as a PDF): the name wished for, and its bytes."""

    document_id: str
    name: str
    data: bytes


@dataclass
class Imported:
    """A format's result: the citations file's JSON (documents' ``path`` of an outgoing
    one is set by the writer) and the documents to write beside it."""

    citations: dict[str, Any]
    outgoing: list[Outgoing] = field(default_factory=list)


class Format(Protocol):
    """What a format module provides."""

    NAME: str
    SUMMARY: str  # one line for ``citeview import --help``

    def recognises(self, data: Any) -> bool:
        """Whether decoded JSON is an answer in this format (to open one directly)."""
        ...

    def convert(self, data: Any, *, path: Path, inputs: Inputs, out: Path) -> Imported:
        """The answer ``data`` (read from ``path``) as a citations file written at
        ``out``; :class:`ImportProblem` naming every problem."""
        ...


def read_json(path: Path, *, what: type[ImportProblem] = ImportProblem) -> Any:
    """Read ``path`` as UTF-8 JSON, or :class:`ImportProblem` saying why not."""
    try:
        raw = read_bounded(path, limit=MAX_INPUT_BYTES)
    except InputFileError as exc:
        raise what(path, [("$", exc.reason)]) from None
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise what(path, [("$", json_problem(exc))]) from None
    except RecursionError:
        raise what(path, [("$", "JSON nested too deeply")]) from None
