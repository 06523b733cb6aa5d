"""The citations file (``*.cite`` or ``*.json``), version 1: models, loading, validation.

A citations file lists documents, optional text chunks, and claims whose evidence items
quote either a chunk (``chunk_id``) or a document page (``document`` + optional ``page``).
Problems are collected, not raised one at a time: :class:`CitationsError` names the file
and the JSON path of every problem so the author can fix them all in one pass.

What upstream systems emit loads as it is: claims without an ``id`` get ``c1``, ``c2``, …
(:attr:`CitationsFile.assigned_ids` says which), and a chunk id ``PATH#…`` names its
document when ``PATH`` is a listed document's path. Reading is bounded: only regular
files, at most :func:`size_limit` bytes, JSON nested at most ``MAX_NESTING`` levels.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    model_validator,
)

# The size limit lives in .citefiles (read without pydantic); named here as it always was.
from .citefiles import DEFAULT_SIZE_LIMIT as DEFAULT_SIZE_LIMIT
from .citefiles import SIZE_LIMIT_ENV as SIZE_LIMIT_ENV
from .citefiles import size_limit
from .files import (
    InputFileError,
    InvalidFileError,
    document_location,
    is_pdf_content,
    json_problem,
    read_bounded,
)
from .fresh import empty_list
from .jsonshape import MAX_NESTING as MAX_NESTING
from .jsonshape import structure_problems

FORMAT_VERSION = 1


class _Model(BaseModel):
    # Unknown keys are kept, not rejected: newer writers may add fields (compatible extension).
    model_config = ConfigDict(extra="allow", frozen=True)


class DocumentRef(_Model):
    """A PDF the claims quote; ``path`` is relative to the citations file's folder."""

    id: str = Field(min_length=1)
    path: str = Field(min_length=1)


class Chunk(_Model):
    """A passage of text that was shown to the model; quotes are located inside its ``text``."""

    id: str = Field(min_length=1)
    document: str | None = None
    text: str
    pages: list[int] | None = Field(default=None, description="1-based pages the chunk spans")


class Evidence(_Model):
    """One quote supporting a claim, attributed to a chunk or to a document (and page hint)."""

    quote: str
    chunk_id: str | None = None
    document: str | None = None
    page: int | None = Field(default=None, description="1-based page hint; not a promise")
    cited_pages: list[int] | None = Field(
        default=None, description="1-based pages the answer itself cited (a Citations API "
                                  "page range, every page of it): searched first; a quote "
                                  "found only on another page is 'review', outside the "
                                  "pages the answer cited")
    rejected: str | None = Field(
        default=None, description="why this item cannot be checked against a document (it "
                                  "cites a web page, say): reported 'rejected' with this "
                                  "reason, never searched")


class Claim(_Model):
    """A statement of the answer; its evidence items together (a union) support it.

    ``id`` may be left out: claims without one get ``c1``, ``c2``, … in file order (ids the
    file already uses are skipped), as the output of a model's answer tool has none.
    """

    id: str = Field(min_length=1)
    text: str = ""
    evidence: list[Evidence] = Field(default_factory=empty_list)
    flag: str | None = Field(default=None,
                             description="why the upstream system wants a person to look at "
                                         "this claim (a short reason); the viewer's review "
                                         "queue includes it")


class CitationsFile(_Model):
    """The whole citations file, version 1."""

    version: Literal[1] = 1
    documents: list[DocumentRef] = Field(default_factory=empty_list)
    chunks: list[Chunk] = Field(default_factory=empty_list)
    claims: list[Claim] = Field(description="required; an empty list is an answer with "
                                            "no claims")
    _assigned_ids: tuple[str, ...] = PrivateAttr(default=())
    _chunk_lookup: tuple[list[Chunk], dict[str, Chunk]] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _ids_resolve(self, info: ValidationInfo) -> CitationsFile:
        if info.context is CLAIMS_APART:  # the claims are checked one at a time, elsewhere
            return self
        evidence: list[tuple[str, str]] = []
        for i, cl in enumerate(self.claims):
            evidence += claim_problems(i, cl, len(self.documents))
        problems = file_problems(self, [c.id for c in self.claims], evidence)
        if problems:
            raise _Problems(problems)
        return self

    @property
    def assigned_ids(self) -> tuple[str, ...]:
        """Ids given while loading to claims that had none, in file order."""
        return self._assigned_ids

    def document(self, doc_id: str) -> DocumentRef | None:
        return next((d for d in self.documents if d.id == doc_id), None)

    def chunk(self, chunk_id: str) -> Chunk | None:
        """The chunk with this id (a dictionary built on first use, for large files)."""
        lookup = self._chunk_lookup
        if lookup is None or lookup[0] is not self.chunks:  # a copy with other chunks
            lookup = self._chunk_lookup = (self.chunks, {c.id: c for c in self.chunks})
        return lookup[1].get(chunk_id)

    def chunk_document(self, chunk: Chunk) -> str | None:
        """The document id a chunk belongs to: its ``document``; else the only document;
        else the document whose path is the ``PATH`` of an id ``PATH#…``."""
        if chunk.document is not None:
            return chunk.document
        if len(self.documents) == 1:
            return self.documents[0].id
        return self.document_named_by(chunk.id)

    def document_named_by(self, chunk_id: str) -> str | None:
        """The id of the one listed document whose path an id ``PATH#…`` starts with.

        Every ``#`` is tried (a path may hold one), and paths compare after normalising
        (``./a.pdf`` is ``a.pdf``). Two documents with that path name none.
        """
        prefixes = {os.path.normpath(chunk_id[:i]) for i, ch in enumerate(chunk_id)
                    if ch == "#" and i > 0}
        found = {d.id for d in self.documents if os.path.normpath(d.path) in prefixes}
        return found.pop() if len(found) == 1 else None


# The validation context of a file validated without its claims (``claims`` given as []):
# :mod:`.claims_stream` validates each claim alone, and the ids across them itself.
CLAIMS_APART: dict[str, bool] = {"claims_apart": True}


def file_problems(cf: CitationsFile, claim_ids: Iterable[str],
                  evidence: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """What a file whose fields are valid still gets wrong, in the order it is told:
    duplicate ids of documents, chunks and claims, chunks naming no or an unknown
    document, then ``evidence`` (each claim's :func:`claim_problems`, in file order)."""
    problems: list[tuple[str, str]] = []
    _unique(problems, "documents", [d.id for d in cf.documents])
    _unique(problems, "chunks", [c.id for c in cf.chunks])
    _unique(problems, "claims", claim_ids)
    doc_ids = {d.id for d in cf.documents}
    for i, ch in enumerate(cf.chunks):
        if ch.document is None and cf.chunk_document(ch) is None:
            problems.append((f"chunks[{i}].document",
                             "required when the file lists more than one document "
                             "(or an id 'PATH#…' whose PATH is a listed document's "
                             "path)"))
        elif ch.document is not None and ch.document not in doc_ids:
            problems.append((f"chunks[{i}].document", f"unknown document id {ch.document!r}"))
        for k, p in enumerate(ch.pages or []):
            if p < 1:
                problems.append((f"chunks[{i}].pages[{k}]", "pages are 1-based"))
    return problems + list(evidence)


def claim_problems(i: int, claim: Claim, documents: int) -> list[tuple[str, str]]:
    """What claim ``i``'s evidence items get wrong in a file listing ``documents``
    documents: an item naming neither chunk nor document, pages that are not 1-based."""
    problems: list[tuple[str, str]] = []
    for k, ev in enumerate(claim.evidence):
        where = f"claims[{i}].evidence[{k}]"
        if ev.chunk_id is None and ev.document is None and documents != 1 \
                and ev.rejected is None:
            problems.append((where, "needs 'chunk_id' or 'document' (the file lists "
                                    f"{documents} documents)"))
        if ev.page is not None and ev.page < 1:
            problems.append((f"{where}.page", "pages are 1-based"))
        for n, p in enumerate(ev.cited_pages or []):
            if p < 1:
                problems.append((f"{where}.cited_pages[{n}]", "pages are 1-based"))
    return problems


class _Problems(ValueError):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p}: {m}" for p, m in problems))


def _unique(problems: list[tuple[str, str]], section: str, ids: Iterable[str]) -> None:
    seen: dict[str, int] = {}
    for i, ident in enumerate(ids):
        if ident in seen:
            problems.append((f"{section}[{i}].id",
                             f"duplicate id {ident!r} (first at {section}[{seen[ident]}])"))
        else:
            seen[ident] = i


class CitationsError(InvalidFileError):
    """A citations file that cannot be used: the file, and each problem's JSON path."""

    what = "citations file"


def json_path(loc: tuple[int | str, ...]) -> str:
    out = "$"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def other_kind(data: Any) -> str:
    """What a JSON file citeview also writes is, when ``data`` is one ("" otherwise): a
    review file would otherwise read as claims with no text, and a check report as
    claims whose quotes are missing.

    >>> other_kind({"version": 1, "citations": "a.cite", "evidence": [], "history": []})
    "a citeview review file (the decisions about 'a.cite'; open that file instead)"
    >>> other_kind({"claims": []})
    ''
    """
    if not isinstance(data, dict):
        return ""
    if isinstance(data.get("citations"), str) and isinstance(data.get("history"), list):
        return (f"a citeview review file (the decisions about {data['citations']!r}; open "
                "that file instead)")
    claims = data.get("claims")
    if isinstance(data.get("summary"), dict) and isinstance(claims, list) and any(
            isinstance(c, dict) and isinstance(c.get("evidence"), list) and any(
                isinstance(e, dict) and "status" in e for e in c["evidence"])
            for c in claims):
        return "a citeview check report (citeview check --json's output)"
    return ""


def refuse_other(data: Any, *, path: Path | str) -> None:
    """The CitationsError for JSON of another version, or of another file citeview
    writes (:func:`other_kind`): told before anything else about it."""
    if isinstance(data, dict) and "version" in data:
        version = data["version"]
        # `type(...) is int`: JSON's true and 1.0 compare equal to 1 but are not version 1.
        if type(version) is not int or version != FORMAT_VERSION:
            raise CitationsError(path, [("$.version", f"version {json.dumps(version)[:40]} "
                                                      "is not supported (this citeview "
                                                      f"reads version {FORMAT_VERSION})")])
    other = other_kind(data)
    if other:
        raise CitationsError(path, [("$", f"is {other}")])


def parse_citations(data: Any, *, path: Path | str = "<memory>") -> CitationsFile:
    """Validate already-decoded JSON as a citations file, or raise :class:`CitationsError`."""
    refuse_other(data, path=path)
    structure = list(structure_problems(data))
    if structure:
        raise CitationsError(path, structure)
    data, assigned = _assign_claim_ids(data)
    try:
        cf = CitationsFile.model_validate(data)
    except ValidationError as exc:
        problems: list[tuple[str, str]] = []
        for err in exc.errors():
            ctx_err = (err.get("ctx") or {}).get("error")
            if isinstance(ctx_err, _Problems):
                problems += [(f"$.{p}", m) for p, m in ctx_err.problems]
            else:
                problems.append((json_path(tuple(err["loc"])), err["msg"]))
        raise CitationsError(path, problems) from None
    cf._assigned_ids = assigned
    return cf


def _assign_claim_ids(data: Any) -> tuple[Any, tuple[str, ...]]:
    """Give claims without an ``id`` key ``c1``, ``c2``, … in file order, skipping ids the
    file uses; return the data (a shallow copy when anything changed) and the ids given."""
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        return data, ()
    claims: list[Any] = data["claims"]
    missing = [i for i, c in enumerate(claims) if isinstance(c, dict) and "id" not in c]
    if not missing:
        return data, ()
    taken = {c.get("id") for c in claims if isinstance(c, dict) and isinstance(c.get("id"), str)}
    out, given, n = list(claims), [], 0
    for i in missing:
        n += 1
        while f"c{n}" in taken:
            n += 1
        given.append(f"c{n}")
        out[i] = {"id": f"c{n}", **claims[i]}
    return {**data, "claims": out}, tuple(given)


def load_citations(path: Path | str, *, max_bytes: int | None = None,
                   raw: bytes | None = None) -> CitationsFile:
    """Read and validate a citations file; every failure is a :class:`CitationsError`.

    Only a regular file of at most ``max_bytes`` (default :func:`size_limit`) is read; a
    PDF is told apart by its content, whatever its name. ``raw``: the file's bytes,
    already read (by :func:`matcher.files.read_bounded`), validated as if read here.
    """
    p = Path(path)
    text = read_text(p, max_bytes=max_bytes, raw=raw)
    with json_problems(p):
        data = json.loads(text)
        del text
        return parse_citations(data, path=p)


def read_text(p: Path, *, max_bytes: int | None = None, raw: bytes | None = None) -> str:
    """The text of citations file ``p`` (see :func:`load_citations`), or CitationsError."""
    limit = size_limit() if max_bytes is None else max_bytes
    try:
        if raw is None:
            raw = read_bounded(p, limit=limit)
    except InputFileError as exc:
        reason = exc.reason
        if exc.kind == "too_large":
            reason += (f"; raise it with --max-size MB or {SIZE_LIMIT_ENV}"
                       if max_bytes is None else "; raise it with --max-size MB")
        raise CitationsError(p, [("$", reason)]) from None
    if is_pdf_content(raw[:1024]):
        raise CitationsError(p, [("$", "is a PDF, not a citations file (open it with "
                                       "'citeview FILE', or place a quote on it with "
                                       "'citeview locate')")])
    with json_problems(p):
        return raw.decode("utf-8-sig")


@contextmanager
def json_problems(p: Path) -> Iterator[None]:
    """Text that is not UTF-8 or not JSON, JSON nested too deep for the parser, or a file
    too large for the memory left, as the CitationsError naming it."""
    try:
        yield
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CitationsError(p, [("$", json_problem(exc))]) from None
    except RecursionError:
        raise CitationsError(p, [("$", f"JSON nested more than {MAX_NESTING} levels deep")]
                             ) from None
    except MemoryError:
        raise CitationsError(p, [("$", "not enough memory to load it; check a smaller "
                                       "file, or free memory")]) from None


def resolve_document_path(citations_path: Path | str, ref: DocumentRef) -> Path:
    """Where a document lives (:func:`matcher.files.document_location` of its ``path``)."""
    return document_location(citations_path, ref.path)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the citations file (printed by ``citeview schema``)."""
    schema = CitationsFile.model_json_schema()
    schema["title"] = "citeview citations file, version 1"
    claim = schema["$defs"]["Claim"]
    claim["required"] = [r for r in claim.get("required", []) if r != "id"]
    claim["properties"]["id"]["description"] = (
        "optional: claims without one get c1, c2, … in file order")
    return schema
