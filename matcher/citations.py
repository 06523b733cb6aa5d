"""The citations file (``*.cite`` or ``*.json``), version 1: models, loading, validation.

A citations file lists documents, optional text chunks, and claims whose evidence items
quote either a chunk (``chunk_id``) or a document page (``document`` + optional ``page``).
Problems are collected, not raised one at a time: :class:`CitationsError` names the file
and the JSON path of every problem so the author can fix them all in one pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

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


class Claim(_Model):
    """A statement of the answer; its evidence items together (a union) support it."""

    id: str = Field(min_length=1)
    text: str = ""
    evidence: list[Evidence] = Field(default_factory=list)


class CitationsFile(_Model):
    """The whole citations file, version 1."""

    version: Literal[1] = 1
    documents: list[DocumentRef] = Field(default_factory=list)
    chunks: list[Chunk] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)

    @model_validator(mode="after")
    def _ids_resolve(self) -> CitationsFile:
        problems: list[tuple[str, str]] = []
        _unique(problems, "documents", [d.id for d in self.documents])
        _unique(problems, "chunks", [c.id for c in self.chunks])
        _unique(problems, "claims", [c.id for c in self.claims])
        doc_ids = {d.id for d in self.documents}
        for i, ch in enumerate(self.chunks):
            if ch.document is None and len(self.documents) != 1:
                problems.append((f"chunks[{i}].document",
                                 "required when the file lists more than one document"))
            elif ch.document is not None and ch.document not in doc_ids:
                problems.append((f"chunks[{i}].document", f"unknown document id {ch.document!r}"))
            for k, p in enumerate(ch.pages or []):
                if p < 1:
                    problems.append((f"chunks[{i}].pages[{k}]", "pages are 1-based"))
        for i, cl in enumerate(self.claims):
            for k, ev in enumerate(cl.evidence):
                where = f"claims[{i}].evidence[{k}]"
                if ev.chunk_id is None and ev.document is None and len(self.documents) != 1:
                    problems.append((where, "needs 'chunk_id' or 'document' (the file lists "
                                            f"{len(self.documents)} documents)"))
                if ev.page is not None and ev.page < 1:
                    problems.append((f"{where}.page", "pages are 1-based"))
        if problems:
            raise _Problems(problems)
        return self

    def document(self, doc_id: str) -> DocumentRef | None:
        return next((d for d in self.documents if d.id == doc_id), None)

    def chunk(self, chunk_id: str) -> Chunk | None:
        return next((c for c in self.chunks if c.id == chunk_id), None)

    def chunk_document(self, chunk: Chunk) -> str | None:
        """The document id a chunk belongs to (the only document when it does not say)."""
        if chunk.document is not None:
            return chunk.document
        return self.documents[0].id if len(self.documents) == 1 else None


class _Problems(ValueError):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p}: {m}" for p, m in problems))


def _unique(problems: list[tuple[str, str]], section: str, ids: list[str]) -> None:
    seen: dict[str, int] = {}
    for i, ident in enumerate(ids):
        if ident in seen:
            problems.append((f"{section}[{i}].id",
                             f"duplicate id {ident!r} (first at {section}[{seen[ident]}])"))
        else:
            seen[ident] = i


class CitationsError(Exception):
    """A citations file that cannot be used: the file, and each problem's JSON path."""

    def __init__(self, path: Path | str, problems: list[tuple[str, str]]) -> None:
        self.path = Path(path)
        self.problems = problems
        lines = [f"{self.path}: not a valid citations file"]
        lines += [f"  at {where}: {msg}" for where, msg in problems]
        super().__init__("\n".join(lines))


def _json_path(loc: tuple[int | str, ...]) -> str:
    out = "$"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def parse_citations(data: Any, *, path: Path | str = "<memory>") -> CitationsFile:
    """Validate already-decoded JSON as a citations file, or raise :class:`CitationsError`."""
    if isinstance(data, dict) and "version" in data and data["version"] != FORMAT_VERSION:
        raise CitationsError(path, [("$.version", f"version {data['version']!r} is not "
                                                  f"supported (this citeview reads version "
                                                  f"{FORMAT_VERSION})")])
    try:
        return CitationsFile.model_validate(data)
    except ValidationError as exc:
        problems: list[tuple[str, str]] = []
        for err in exc.errors():
            ctx_err = (err.get("ctx") or {}).get("error")
            if isinstance(ctx_err, _Problems):
                problems += [(f"$.{p}", m) for p, m in ctx_err.problems]
            else:
                problems.append((_json_path(tuple(err["loc"])), err["msg"]))
        raise CitationsError(path, problems) from None


def load_citations(path: Path | str) -> CitationsFile:
    """Read and validate a citations file; every failure is a :class:`CitationsError`."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise CitationsError(p, [("$", "file not found")]) from None
    except OSError as exc:
        raise CitationsError(p, [("$", f"cannot be read ({exc.strerror})")]) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise CitationsError(p, [("$", f"not UTF-8 text (byte {exc.start})")]) from None
    except json.JSONDecodeError as exc:
        raise CitationsError(p, [("$", f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                                       f"column {exc.colno}")]) from None
    return parse_citations(data, path=p)


def resolve_document_path(citations_path: Path | str, ref: DocumentRef) -> Path:
    """Where a document lives: ``path`` relative to the citations file's folder, or absolute."""
    p = Path(ref.path).expanduser()
    return p if p.is_absolute() else (Path(citations_path).resolve().parent / p)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the citations file (printed by ``citeview schema``)."""
    schema = CitationsFile.model_json_schema()
    schema["title"] = "citeview citations file, version 1"
    return schema
