"""The documents an answer cites, in its order: PDFs or text files given by name, or the
``document`` blocks of the request that carried them.

A request's PDF arrives as base64 bytes and a plain-text or custom-content document as
its text; both are kept in memory until the import has found nothing wrong, so a bad
input writes nothing. A URL or Files-API source cannot be read offline: it is named,
with what to give instead.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from matcher.document import DocumentError, count_pages
from matcher.files import MB, InputFileError, looks_like_pdf, read_bounded

from .model import ImportProblem, read_json

# The largest text document read with --document (a text, not a book of scans).
MAX_TEXT_BYTES = 50 * MB

Kind = Literal["pdf", "text", "blocks"]


class RequestProblem(ImportProblem):
    what = "request to import"


class DocumentProblem(ImportProblem):
    what = "document to import"


@dataclass(frozen=True)
class Document:
    """One document of the answer: a PDF (a file, or bytes out of the request), a plain
    text, or custom content blocks."""

    index: int  # the answer's document_index
    title: str  # the request's title, else the file's name, else ""
    kind: Kind
    where: str  # where it came from, for messages ("--document 2", "$.messages[0]…")
    path: Path | None = None  # an existing PDF given by name
    data: bytes | None = None  # a PDF's bytes, out of the request
    pages: int | None = None  # a PDF's page count (None: password-protected)
    text: str = ""  # kind "text"
    blocks: tuple[str, ...] = ()  # kind "blocks": each block's text ("" for an image)

    def describe(self) -> str:
        """The document in a few words, for a message."""
        name = f" ({self.title})" if self.title else ""
        return f"document {self.index}{name}"


def from_files(paths: tuple[Path, ...]) -> list[Document]:
    """``--document`` files in order: PDFs (by content), else UTF-8 text files."""
    out: list[Document] = []
    for i, path in enumerate(paths):
        where = f"--document {i + 1}"
        if looks_like_pdf(path):
            try:
                pages = count_pages(path)
            except DocumentError as exc:
                raise DocumentProblem(path, [(where, exc.detail)]) from None
            out.append(Document(i, path.stem, "pdf", where, path=path, pages=pages))
            continue
        try:
            raw = read_bounded(path, limit=MAX_TEXT_BYTES)
            text = raw.decode("utf-8-sig")
        except InputFileError as exc:
            raise DocumentProblem(path, [(where, exc.reason)]) from None
        except UnicodeDecodeError:
            raise DocumentProblem(path, [(where, "neither a PDF nor a UTF-8 text file")]
                                  ) from None
        out.append(Document(i, path.stem, "text", where, path=path, text=text))
    return out


def from_request(path: Path) -> list[Document]:
    """The ``document`` blocks of a Messages API request body, in document_index order."""
    data = read_json(path, what=RequestProblem)
    problems: list[tuple[str, str]] = []
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        raise RequestProblem(path, [("$.messages", "missing: not a Messages API request "
                                                   "body (an object with 'messages')")])
    out: list[Document] = []
    for m, message in enumerate(data["messages"]):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue  # a string content holds no document
        for c, block in enumerate(content):
            if isinstance(block, dict) and block.get("type") == "document":
                where = f"$.messages[{m}].content[{c}]"
                doc = _document(len(out), block, where, problems)
                if doc is not None:
                    out.append(doc)
                else:
                    out.append(Document(len(out), "", "text", where))  # keeps the indices
    if problems:
        raise RequestProblem(path, problems)
    return out


def _document(index: int, block: dict[str, Any], where: str,
              problems: list[tuple[str, str]]) -> Document | None:
    raw_title = block.get("title")
    title = raw_title if isinstance(raw_title, str) else ""
    source = block.get("source")
    if not isinstance(source, dict):
        problems.append((f"{where}.source", "missing: a document block needs a source"))
        return None
    kind = source.get("type")
    at = f"{where}.source"
    if kind == "base64":
        return _base64_pdf(index, title, source, at, problems)
    if kind == "text":
        text = source.get("data")
        if not isinstance(text, str):
            problems.append((f"{at}.data", "a text source's data must be a string"))
            return None
        return Document(index, title, "text", where, text=text)
    if kind == "content":
        blocks = _blocks(source.get("content"), f"{at}.content", problems)
        return None if blocks is None else Document(index, title, "blocks", where,
                                                    blocks=blocks)
    if kind in ("url", "file"):
        what = (f"a PDF at a URL ({source.get('url')})" if kind == "url" else
                f"a file of the Files API ({source.get('file_id')})")
        problems.append((at, f"{what} is not available offline: download it and give the "
                             "documents with --document FILE, one for each document "
                             "block in order, instead of --request"))
        return None
    problems.append((f"{at}.type", f"a source of type {kind!r}, which citeview does not "
                                   "read (base64, text, content)"))
    return None


def _base64_pdf(index: int, title: str, source: dict[str, Any], at: str,
                problems: list[tuple[str, str]]) -> Document | None:
    raw = source.get("data")
    if not isinstance(raw, str):
        problems.append((f"{at}.data", "a base64 source's data must be a string"))
        return None
    try:
        data = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        problems.append((f"{at}.data", "not valid base64"))
        return None
    try:
        pages = count_pages(data, name=title or f"document {index}")
    except DocumentError as exc:
        problems.append((f"{at}.data", f"the base64 data is not a usable PDF: {exc.detail}"))
        return None
    return Document(index, title, "pdf", at.removesuffix(".source"), data=data, pages=pages)


def _blocks(content: Any, at: str, problems: list[tuple[str, str]]
            ) -> tuple[str, ...] | None:
    if isinstance(content, str):
        return (content,)
    if not isinstance(content, list):
        problems.append((at, "a content source needs a list of blocks (or a string)"))
        return None
    out: list[str] = []
    for i, block in enumerate(content):
        if isinstance(block, dict) and block.get("type") == "text" \
                and isinstance(block.get("text"), str):
            out.append(block["text"])
        elif isinstance(block, dict) and block.get("type") == "image":
            out.append("")  # an image block counts in the indices and holds no words
        else:
            problems.append((f"{at}[{i}]", "a content block must be {\"type\": \"text\", "
                                           "\"text\": …} or an image"))
    return tuple(out)
