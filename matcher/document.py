"""Open PDFs safely and hand out each page's words, from the text layer or stored OCR.

Every way a file can be unusable (missing, empty, not a PDF, damaged page tree,
encrypted) becomes a :class:`DocumentError` with a sentence a person can act on.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

import pymupdf

from .files import PDF_HEADER_WINDOW, PDF_MAGIC, InputFileError, os_error_reason, read_head
from .normalize import join_line_hyphens
from .packedwords import PackedWords, pack
from .pageatoms import raw_atom_set
from .pagecache import ByteCache, PageCache, shared_cache, shared_packed
from .words import PageWords

# "unreadable": the file is there but the system will not let it be read (permission, a
# name too long, a loop of symbolic links, an I/O error); the detail says which.
ErrorKind = Literal["missing", "unreadable", "empty", "corrupt", "encrypted", "bad_password"]


class DocumentError(Exception):
    """A PDF that cannot be used, with the reason in words and a machine-readable kind."""

    def __init__(self, path: Path | str, kind: ErrorKind, detail: str) -> None:
        self.path = Path(path)
        self.kind: ErrorKind = kind
        self.detail = detail
        super().__init__(f"{self.path}: {detail}")


class OcrWordSource(Protocol):
    """Anything that can return stored OCR words for a page of a document (by content hash)."""

    def load(self, doc_hash: str, page_no: int) -> PageWords | None: ...


def file_hash(path: Path) -> str:
    """SHA-256 of the file's bytes: the identity under which OCR boxes are stored."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def open_pdf(path: Path | str, *, password: str | None = None) -> pymupdf.Document:
    """Open ``path`` as a PDF, or raise :class:`DocumentError` saying why it cannot be used.

    The file is examined before MuPDF sees it: it must be a readable regular file (a FIFO
    would block, a device would be read forever) that is not empty and has a ``%PDF-``
    header in its first 1,024 bytes; each refusal names its real cause.
    """
    p = Path(path)
    try:
        head = read_head(p)
        size = os.stat(p).st_size
    except InputFileError as exc:
        kind: ErrorKind = "missing" if exc.kind == "missing" else "unreadable"
        if exc.kind == "not_regular":
            kind = "corrupt"
        raise DocumentError(p, kind, exc.reason) from None
    except OSError as exc:
        raise DocumentError(p, "unreadable", os_error_reason(exc)) from None
    if size == 0:
        raise DocumentError(p, "empty", "the file is empty (0 bytes)")
    if PDF_MAGIC not in head:
        raise DocumentError(p, "corrupt", "not a PDF (no '%PDF-' header at its start)")
    try:
        doc = pymupdf.open(p, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged input
        raise DocumentError(p, "corrupt", f"not a readable PDF ({_short(exc)})") from exc
    if doc.needs_pass:
        if password is None:
            doc.close()
            raise DocumentError(p, "encrypted", "the PDF is password-protected")
        if not doc.authenticate(password):
            doc.close()
            raise DocumentError(p, "bad_password", "the password is not correct")
    try:
        count = doc.page_count
        if count < 1:
            raise DocumentError(p, "corrupt", "the PDF has no pages")
        doc.load_page(0)  # damaged page trees fail here rather than later, mid-search
    except DocumentError:
        doc.close()
        raise
    except Exception as exc:
        doc.close()
        raise DocumentError(p, "corrupt", f"pages cannot be read ({_short(exc)})") from exc
    return doc


def count_pages(pdf: Path | bytes, *, name: Path | str = "<memory>") -> int | None:
    """How many pages a PDF file (or one held in memory, called ``name``) has; ``None``
    for a password-protected one (its pages are not counted without the password).

    Anything that is not a usable PDF is a :class:`DocumentError`, as from :func:`open_pdf`.
    """
    if isinstance(pdf, bytes):
        if not pdf:
            raise DocumentError(name, "empty", "the document is empty (0 bytes)")
        if PDF_MAGIC not in pdf[:PDF_HEADER_WINDOW]:
            raise DocumentError(name, "corrupt", "not a PDF (no '%PDF-' header at its start)")
        try:
            doc = pymupdf.open(stream=pdf, filetype="pdf")
        except Exception as exc:  # MuPDF raises several types for damaged input
            raise DocumentError(name, "corrupt", f"not a readable PDF ({_short(exc)})"
                                ) from exc
    else:
        try:
            doc = open_pdf(pdf)
        except DocumentError as exc:
            if exc.kind == "encrypted":
                return None
            raise
    try:
        if doc.needs_pass:
            return None
        if doc.page_count < 1:
            raise DocumentError(name if isinstance(pdf, bytes) else pdf, "corrupt",
                                "the PDF has no pages")
        return int(doc.page_count)
    finally:
        doc.close()


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]


def text_page_words(page: pymupdf.Page, raw: list[Any] | PackedWords | None = None
                    ) -> PageWords:
    """Words of one page's text layer, in PyMuPDF's unrotated ``get_text("words")`` space
    (``raw``: that list, or it packed, when the caller has read it already)."""
    if raw is None:
        raw = page.get_text("words", sort=False)
    return PageWords.from_raw(page.number or 0, raw, source="text",
                              meta={"rotation": page.rotation})


def page_text(page: pymupdf.Page) -> str:
    """The page's plain text with line-end hyphenation joined (what chunk offsets index)."""
    return join_line_hyphens(page.get_text("text"))


class PageText(NamedTuple):
    """A page's plain text and, from the same reading, its word tuples (None: unreadable)."""

    text: str
    words: Callable[[], list[Any] | None]


class PdfSource:
    """One open PDF: page count, per-page words (cached) and its content hash.

    Page models are kept in a :class:`~matcher.pagecache.PageCache` (by default the one
    the process shares), so an open document holds only the pages recently asked for; the
    word arrays :meth:`page_atoms` read without a model wait, packed, in a second cache
    (``packed``), so a page's model is built from them rather than from MuPDF again.
    MuPDF calls are serialised by a lock, so one source may be shared by the threads of
    one process; PyMuPDF objects never cross a process boundary.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        password: str | None = None,
        ocr: OcrWordSource | None = None,
        cache: PageCache | None = None,
        packed: ByteCache[PackedWords] | None = None,
    ) -> None:
        self.path = Path(path)
        self._doc = open_pdf(self.path, password=password)
        self._ocr = ocr
        self._lock = threading.RLock()
        self._cache = cache if cache is not None else shared_cache()
        self._packed = packed if packed is not None else shared_packed()
        self._owner = object()  # this source's pages in the cache
        self._hash: str | None = None
        self.page_count: int = self._doc.page_count

    def close(self) -> None:
        with self._lock:
            self._doc.close()
        self._cache.discard_owner(self._owner)
        self._packed.discard_owner(self._owner)

    def __enter__(self) -> PdfSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def content_hash(self) -> str:
        if self._hash is None:
            self._hash = file_hash(self.path)
        return self._hash

    def page_words(self, number: int, *, raw: list[Any] | None = None) -> PageWords:
        """Words of page ``number`` (0-based): stored OCR boxes if any, else the text layer
        (``raw``: its word tuples, when the caller has read them with :meth:`text_layer`).

        A page that cannot be parsed yields an empty :class:`PageWords` rather than an
        exception, so one damaged page never stops a whole search.
        """
        key = (self._owner, number)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        with self._lock:
            stored = self._stored(number)
            if stored is not None:
                words = stored
            else:
                given: list[Any] | PackedWords | None = raw
                if given is None:
                    given = self._packed.pop(key)  # (the model holds them from now on)
                try:
                    words = text_page_words(self._doc.load_page(number), given)
                except Exception:
                    words = PageWords(number, (), ())
            self._cache.put(key, words)
            return words

    def text_layer(self, number: int) -> PageText | None:
        """Page ``number``'s text layer as plain text, read once by MuPDF, with its word
        tuples a call away from the same reading; None when :meth:`page_words` takes its
        words from elsewhere (stored OCR) or the page cannot be read."""
        with self._lock:
            if self._stored(number) is not None:
                return None
            try:
                page = self._doc.load_page(number)
                textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_WORDS)
                # What get_text("text", textpage=…) returns, without its wrapper's work
                # for other formats (the page's crop box, read and dropped).
                text: str = textpage.extractText()
            except Exception:
                return None

        def words() -> list[Any] | None:
            with self._lock:
                try:
                    raw: list[Any] = page.get_text("words", sort=False, textpage=textpage)
                except Exception:
                    return None
                return raw

        return PageText(text, words)

    def page_atoms(self, number: int) -> tuple[frozenset[str], bool]:
        """The distinct atoms of page ``number`` and whether it has any word, as
        :meth:`page_words` would give them, read without building the page's model when
        its text layer allows (see :mod:`matcher.pageatoms`): what an index needs."""
        key = (self._owner, number)
        words = self._cache.get(key)
        if words is None:
            with self._lock:
                words = self._stored(number)
                if words is None:
                    try:
                        page = self._doc.load_page(number)
                        raw = page.get_text("words", sort=False)
                    except Exception:
                        return frozenset(), False
                    found = raw_atom_set(raw)
                    if found is not None:
                        if (packed := pack(raw)) is not None:
                            self._packed.put(key, packed)
                        return found, bool(raw)
                    words = text_page_words(page, raw)
                self._cache.put(key, words)
        return frozenset(words.atom_counts), bool(words.words)

    def _stored(self, number: int) -> PageWords | None:
        # A stored OCR entry exists only for pages that `citeview prepare` (or the
        # viewer's OCR button) judged to lack a usable text layer — no words, or an
        # invisible or garbage layer — so when there is one, it wins.
        return self._ocr.load(self.content_hash, number) if self._ocr else None

    def forget_page(self, number: int) -> None:
        """Drop cached words (after OCR was stored for the page)."""
        self._cache.discard((self._owner, number))
        self._packed.discard((self._owner, number))
