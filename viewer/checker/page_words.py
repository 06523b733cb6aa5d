"""A page's words with their boxes, for selecting words on the page (relocating a quote).

Runs in the check process, no Qt. The words are the matcher's own (:mod:`matcher.words`):
the text layer's, or the OCR boxes stored for a scanned page, grouped into the same lines
the matcher uses, so a selection is made of exactly the boxes a highlight is made of; they
are put in reading order as the page is shown (:mod:`viewer.state.reading_order`: rows top
to bottom, words left to right as seen, prose columns one after the other, turned pages
too). Words of diagonal lines (watermarks) are left out, as placement leaves them out. One
document stays open between requests, since a person selecting words asks for page after
page of the same file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..state.reading_order import reading_order
from ..state.selection import PageWordBoxes, WordBox
from . import protocol as p


class PageWordReader:
    """Reads pages' words, keeping the last document open while it is unchanged."""

    def __init__(self) -> None:
        self._key: tuple[str, str | None, int, int] | None = None
        self._source: Any = None

    def words(self, path: Path, page: int, *, password: str | None = None) -> PageWordBoxes:
        """The words of 0-based ``page``; CheckerError with a sentence when the document
        cannot be read or has no such page."""
        source = self._open(path, password)
        if not 0 <= page < source.page_count:
            raise p.CheckerError(f"{path.name} has no page {page + 1}")
        found = source.page_words(page)
        skewed = {i for i, line in enumerate(found.lines) if line.skewed}
        rotation = found.meta.get("rotation", 0)  # (OCR words: read from their lines)
        ordered = reading_order([(w.text, w.rect, w.line) for w in found.words
                                 if w.line not in skewed],
                                rotation=rotation if isinstance(rotation, int) else 0)
        return PageWordBoxes(page, tuple(WordBox(text, rect, line, row)
                                         for text, rect, line, row in ordered), found.source)

    def _open(self, path: Path, password: str | None) -> Any:
        from matcher.document import DocumentError, PdfSource
        from matcher.ocr.store import OcrStore

        try:
            st = os.stat(path)
        except OSError:
            st = None
        key = (str(path), password, st.st_size if st else -1, st.st_mtime_ns if st else -1)
        if key != self._key or self._source is None:
            self.close()
            try:
                self._source = PdfSource(path, password=password, ocr=OcrStore.default())
            except DocumentError as exc:
                raise p.CheckerError(str(exc)) from None
            self._key = key
        return self._source

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
        self._source, self._key = None, None
