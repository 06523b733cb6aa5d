"""An Anthropic Messages API response with citations, as a citations file.

The response's ``content`` is a list of blocks; each ``text`` block with text becomes a
claim (id ``b{i}`` from its position, ``r{k}-b{i}`` in a list of responses), and each of
its ``citations`` an evidence item:

* ``page_location`` (a PDF): the quote ``cited_text`` on the document, with
  ``cited_pages`` every page of ``start_page_number`` … ``end_page_number - 1`` (the end
  is exclusive): searched first, elsewhere only if not there, and then *review*;
* ``char_location`` (a plain-text document): the quote in a chunk holding that text,
  checked by the span matcher, then placed on the text typeset as a PDF;
* ``content_block_location`` (custom content): the cited blocks as a chunk;
* a citation of a web search result (or any other that names no document): kept,
  ``rejected`` with the reason.

Text blocks without citations are uncited claims; whitespace-only ones are no claims.
Every problem (not a response, a document_index with no document, a page range past
the document's end) is collected with its JSON path and raised together.

>>> recognises({"type": "message", "role": "assistant", "content": []})
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .documents import Document, from_files, from_request
from .model import Imported, ImportProblem, Inputs, Outgoing
from .names import safe_stem, unique

NAME = "anthropic"
SUMMARY = ("an Anthropic Messages API response with citations (page, char and "
           "content-block locations); documents by --document or --request")

Problems = list[tuple[str, str]]


def recognises(data: Any) -> bool:
    """A response body (``"type": "message"`` with ``content``), or a list of them."""
    items = data if isinstance(data, list) else [data]
    return bool(items) and all(isinstance(d, dict) and d.get("type") == "message"
                               and isinstance(d.get("content"), list) for d in items)


def convert(data: Any, *, path: Path, inputs: Inputs, out: Path) -> Imported:
    """The response(s) ``data`` read from ``path``, with the documents of ``inputs``."""
    problems: Problems = []
    responses = _responses(data, problems)
    if problems:
        raise ImportProblem(path, problems)
    if not inputs.any():
        raise ImportProblem(path, [("$", "the documents are needed: give them with "
                                         "--document FILE (in document_index order) or "
                                         "--request REQUEST.json")])
    titles = _titles(responses)
    paths = by_title(inputs.documents, titles) if inputs.by_title else inputs.documents
    docs = from_request(inputs.request) if inputs.request is not None else from_files(paths)
    conv = _Converter(docs, given="the request holds" if inputs.request is not None
                      else "--document gave", titles=titles)
    claims: list[dict[str, Any]] = []
    for where, prefix, content in responses:
        for i, block in enumerate(content):
            claim = conv.claim(block, f"{where}.content[{i}]", f"{prefix}b{i}")
            if claim is not None:
                claims.append(claim)
    if conv.problems:
        raise ImportProblem(path, conv.problems)
    return Imported({"version": 1, "documents": conv.document_refs(),
                     "chunks": list(conv.chunks.values()), "claims": claims},
                    conv.outgoing())


def _responses(data: Any, problems: Problems) -> list[tuple[str, str, list[Any]]]:
    """(JSON path, claim-id prefix, content) of each response in ``data``."""
    if isinstance(data, list):
        if not data:
            problems.append(("$", "an empty list: no response to import"))
        items = [(f"$[{k}]", f"r{k}-", r) for k, r in enumerate(data)]
    else:
        items = [("$", "", data)]
    out: list[tuple[str, str, list[Any]]] = []
    for where, prefix, r in items:
        if not isinstance(r, dict):
            problems.append((where, "not a Messages API response (a JSON object with "
                                    "\"type\": \"message\")"))
        elif r.get("type") != "message":
            got = r.get("type")
            problems.append((f"{where}.type", "not a Messages API response: expected "
                                              f"\"message\", not {_shown(got)}"))
        elif not isinstance(r.get("content"), list):
            problems.append((f"{where}.content", "missing or not a list of content blocks"))
        else:
            out.append((where, prefix, r["content"]))
    return out


def _titles(responses: list[tuple[str, str, list[Any]]]) -> dict[int, str]:
    """The first ``document_title`` the answer gives each document_index: the documents'
    ids, so an import by --document and one by --request name them alike."""
    titles: dict[int, str] = {}
    for _where, _prefix, content in responses:
        for block in content:
            cites = block.get("citations") if isinstance(block, dict) else None
            for c in cites if isinstance(cites, list) else []:
                n, title = (c.get("document_index"), c.get("document_title")) \
                    if isinstance(c, dict) else (None, None)
                if type(n) is int and isinstance(title, str) and title.strip():
                    titles.setdefault(n, title)
    return titles


def by_title(paths: tuple[Path, ...], titles: dict[int, str]) -> tuple[Path, ...]:
    """``paths`` in document_index order where the answer's titles tell it: a file whose
    name is a document's title (made safe, any case) goes to that index; the others
    fill the remaining indices in the order given.

    >>> by_title((Path("b.pdf"), Path("Policy Wording.pdf")), {0: "policy wording"})
    (PosixPath('Policy Wording.pdf'), PosixPath('b.pdf'))
    """
    wanted = {safe_stem(t).lower(): n for n, t in titles.items() if safe_stem(t)}
    placed: dict[int, Path] = {}
    rest: list[Path] = []
    for p in paths:
        n = wanted.get(safe_stem(p.stem).lower())
        if n is not None and n not in placed and n < len(paths):
            placed[n] = p
        else:
            rest.append(p)
    free = iter(rest)
    return tuple(placed[n] if n in placed else next(free) for n in range(len(paths)))


def _shown(value: Any) -> str:
    return "nothing" if value is None else repr(value)[:60]


class _Converter:
    """The documents of one import and what its citations made of them."""

    def __init__(self, docs: list[Document], *, given: str, titles: dict[int, str]) -> None:
        self.docs = docs
        self.given = given
        # Named as the answer names them, else by the request's title or the file's name.
        self.ids = unique([safe_stem(titles.get(d.index, "")) or safe_stem(d.title)
                           or f"document-{d.index + 1}" for d in docs])
        self.chunks: dict[str, dict[str, Any]] = {}
        self.problems: Problems = []

    def claim(self, block: Any, where: str, claim_id: str) -> dict[str, Any] | None:
        """A text block as a claim; None for other blocks and whitespace-only text."""
        if not isinstance(block, dict) or block.get("type") != "text":
            return None
        text = block.get("text")
        if not isinstance(text, str):
            self.problems.append((f"{where}.text", "a text block's text must be a string"))
            return None
        if not text.strip():
            return None
        citations = block.get("citations")
        if citations is not None and not isinstance(citations, list):
            self.problems.append((f"{where}.citations", "must be a list (or null)"))
            citations = None
        evidence = [ev for k, c in enumerate(citations or [])
                    if (ev := self.evidence(c, f"{where}.citations[{k}]")) is not None]
        return {"id": claim_id, "text": text.strip(), "evidence": evidence}

    def evidence(self, c: Any, where: str) -> dict[str, Any] | None:
        """One citation as an evidence item (None when it is at fault: a problem)."""
        if not isinstance(c, dict):
            self.problems.append((where, "a citation must be a JSON object"))
            return None
        kind, quote = c.get("type"), c.get("cited_text")
        if not isinstance(quote, str):
            self.problems.append((f"{where}.cited_text", "missing or not a string"))
            return None
        location = {k: v for k, v in c.items() if k not in ("cited_text", "encrypted_index")}
        if kind == "web_search_result_location":
            return {"quote": quote, "location": location, "rejected":
                    f"cites a web page ({c.get('title') or 'untitled'}, {c.get('url')}), "
                    "not a document: only the documents given can be checked"}
        if kind not in ("page_location", "char_location", "content_block_location"):
            return {"quote": quote, "location": location, "rejected":
                    f"a citation of type {_shown(kind)}, which names no document given "
                    "(citeview checks page, char and content-block locations)"}
        doc = self._document(c, where)
        if doc is None:
            return None
        ev: dict[str, Any] = {"document": self.ids[doc.index], "quote": quote,
                              "location": location}
        if kind == "page_location":
            pages = self._pages(c, where, doc)
            if pages is None:
                return None
            ev["cited_pages"] = pages
        elif doc.kind == "text" and kind == "char_location":
            chunk = self._text_chunk(c, where, doc)
            if chunk is None:
                return None
            ev = {"chunk_id": chunk, **{k: v for k, v in ev.items() if k != "document"}}
        elif doc.kind == "blocks" and kind == "content_block_location":
            chunk = self._block_chunk(c, where, doc)
            if chunk is None:
                return None
            ev = {"chunk_id": chunk, **{k: v for k, v in ev.items() if k != "document"}}
        return ev

    def _document(self, c: dict[str, Any], where: str) -> Document | None:
        n = c.get("document_index")
        if type(n) is not int:
            self.problems.append((f"{where}.document_index", "missing or not a whole number"))
            return None
        if not 0 <= n < len(self.docs):
            count = len(self.docs)
            self.problems.append((f"{where}.document_index",
                                  f"document {n} was not given ({self.given} {count} "
                                  f"document{'s' if count != 1 else ''}, numbered from 0)"))
            return None
        return self.docs[n]

    def _pages(self, c: dict[str, Any], where: str, doc: Document) -> list[int] | None:
        start, end = c.get("start_page_number"), c.get("end_page_number")
        if type(start) is not int or type(end) is not int:
            self.problems.append((where, "a page_location needs whole numbers "
                                         "start_page_number and end_page_number"))
            return None
        if doc.kind != "pdf":
            self.problems.append((where, f"a page_location on {doc.describe()}, which is a "
                                         "text, not a PDF"))
            return None
        if start < 1 or end <= start:
            self.problems.append((where, f"pages {start} to {end} (end exclusive) name no "
                                         "page: pages count from 1 and the end comes after "
                                         "the start"))
            return None
        if doc.pages is not None and end - 1 > doc.pages:
            self.problems.append((f"{where}.end_page_number",
                                  f"pages {start}–{end - 1} (end_page_number {end} is "
                                  f"exclusive) run past the end of {doc.describe()}, which "
                                  f"has {doc.pages} page{'s' if doc.pages != 1 else ''}"))
            return None
        return list(range(start, end))

    def _span(self, c: dict[str, Any], where: str, keys: tuple[str, str], size: int,
              what: str) -> tuple[int, int] | None:
        start, end = c.get(keys[0]), c.get(keys[1])
        if type(start) is not int or type(end) is not int or not 0 <= start <= end <= size:
            self.problems.append((where, f"{keys[0]} {start} to {keys[1]} {end} is not a "
                                         f"range of the document's {size} {what}"))
            return None
        return start, end

    def _text_chunk(self, c: dict[str, Any], where: str, doc: Document) -> str | None:
        if self._span(c, where, ("start_char_index", "end_char_index"), len(doc.text),
                      "characters") is None:
            return None
        chunk_id = f"{self.ids[doc.index]}#text"
        self.chunks.setdefault(chunk_id, {"id": chunk_id, "document": self.ids[doc.index],
                                          "text": doc.text})
        return chunk_id

    def _block_chunk(self, c: dict[str, Any], where: str, doc: Document) -> str | None:
        span = self._span(c, where, ("start_block_index", "end_block_index"),
                          len(doc.blocks), "content blocks")
        if span is None:
            return None
        s, e = span
        name = self.ids[doc.index]
        chunk_id = f"{name}#block:{s}" if e - s <= 1 else f"{name}#blocks:{s}-{e - 1}"
        self.chunks.setdefault(chunk_id, {"id": chunk_id, "document": name,
                                          "text": "\n".join(doc.blocks[s:max(e, s + 1)])})
        return chunk_id

    def document_refs(self) -> list[dict[str, Any]]:
        """The documents section; an outgoing document's path is its wished-for name
        (the writer puts the name it chose)."""
        refs: list[dict[str, Any]] = []
        for doc, ident in zip(self.docs, self.ids, strict=True):
            path = str(doc.path) if doc.path is not None and doc.kind == "pdf" else \
                f"{ident}.pdf"
            refs.append({"id": ident, "path": path})
        return refs

    def outgoing(self) -> list[Outgoing]:
        """The documents to write beside the citations file: a request's PDFs, and every
        text typeset as a PDF."""
        from matcher.textpdf import text_pdf

        out: list[Outgoing] = []
        for doc, ident in zip(self.docs, self.ids, strict=True):
            if doc.kind == "pdf" and doc.data is not None:
                out.append(Outgoing(ident, f"{ident}.pdf", doc.data))
            elif doc.kind == "text":
                out.append(Outgoing(ident, f"{ident}.pdf", text_pdf([doc.text],
                                                                    title=doc.title)))
            elif doc.kind == "blocks":
                out.append(Outgoing(ident, f"{ident}.pdf", text_pdf(list(doc.blocks),
                                                                    title=doc.title)))
        return out
