"""PDFs kept open from one citations file to the next: a batch worker's documents.

``citeview check`` opens each document of a citations file, builds its page index and
closes it again. A batch worker checks many citations files over the same few policies;
:class:`OpenDocuments` keeps those sources (their pages' words) and indexes between files,
so a hundred answers over one policy open and index it once.

A document is reused only while it is the same document: the key is its resolved path,
its password and the SHA-256 of its bytes, hashed again for every citations file that
names it, so a PDF replaced between two files is opened afresh. Documents that cannot be
opened are not kept (each file reports them as ``check`` would, and one that appears
later is found). At most ``limit`` documents stay open; the least recently used are
closed between files, never while a file is being checked (:meth:`trim`).

Not shared between threads: give each thread its own.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from .document import OcrWordSource, PdfSource, file_hash
from .files import InputFileError, stat_regular
from .locate import DocumentIndex

# Open documents a worker keeps: a policy's source and index take a few MB (a 100-page
# policy's words and atoms ~5 MB), so 32 stay well under a worker's memory while covering
# the document sets of a day's answers, which repeat a handful of policies.
MAX_OPEN_DOCUMENTS = 32

_Key = tuple[str, str | None, str]


@dataclass
class _Open:
    source: PdfSource
    index: DocumentIndex | None = None


class OpenDocuments:
    """Open PDFs and their page indexes, reused across citations files (one thread's)."""

    def __init__(self, *, ocr: OcrWordSource | None, limit: int = MAX_OPEN_DOCUMENTS) -> None:
        self.ocr = ocr
        self.limit = limit
        self._open: OrderedDict[_Key, _Open] = OrderedDict()
        self._by_source: dict[int, _Key] = {}
        self.opened = 0  # documents opened (a reuse does not count): what reuse saves
        self.reused = 0

    def source(self, path: Path, *, password: str | None = None) -> PdfSource:
        """The open document at ``path``: the one kept if its bytes are unchanged, else
        newly opened (:class:`matcher.document.DocumentError` when it cannot be)."""
        try:
            stat_regular(path)  # a FIFO or a device is never read to be hashed
            key: _Key | None = (str(path.resolve()), password, file_hash(path))
        except (InputFileError, OSError, ValueError, RuntimeError):
            key = None  # unreadable: opening it says why, in check's own words
        if key is not None and key in self._open:
            self._open.move_to_end(key)
            self.reused += 1
            return self._open[key].source
        src = PdfSource(path, password=password, ocr=self.ocr)
        self.opened += 1
        if key is not None:
            self._open[key] = _Open(src)
            self._by_source[id(src)] = key
        return src

    def index(self, source: PdfSource) -> DocumentIndex:
        """The page index of ``source``, built once while it is kept."""
        key = self._by_source.get(id(source))
        kept = self._open.get(key) if key is not None else None
        if kept is None or kept.source is not source:
            return DocumentIndex(source)
        if kept.index is None:
            kept.index = DocumentIndex(source)
        return kept.index

    def kept(self, source: PdfSource) -> bool:
        """Whether ``source`` is one of ours (closed by :meth:`trim`, not by its user)."""
        key = self._by_source.get(id(source))
        return key is not None and key in self._open and self._open[key].source is source

    def trim(self) -> None:
        """Close the least recently used documents beyond ``limit`` (between files)."""
        while len(self._open) > self.limit:
            _key, old = self._open.popitem(last=False)
            self._by_source.pop(id(old.source), None)
            old.source.close()

    def close(self) -> None:
        """Close every kept document."""
        for kept in self._open.values():
            kept.source.close()
        self._open.clear()
        self._by_source.clear()
