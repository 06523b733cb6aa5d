"""Where OCR word boxes live between runs: one small JSON file per page, keyed by content.

Store design (for the README)
-----------------------------
OCR results are kept in a per-user cache folder (``platformdirs.user_cache_dir("citeview")``
+ ``/ocr``, e.g. ``~/.cache/citeview/ocr`` on Linux; override with ``--store DIR`` or the
``CITEVIEW_OCR_STORE`` environment variable), not in a ``.citeview/`` folder beside the
documents: entries are keyed by the SHA-256 of the PDF's bytes, so a renamed or moved file
still finds its boxes wherever it lives, a changed file (new bytes, new hash) is simply
redone, document folders stay untouched (they may be read-only, synced or shared), and OCR
results are exactly what a cache is for (costly to make, safe to delete). A team that wants
to share prepared boxes points ``--store`` at a shared folder. Each page is one JSON file,
``v1/<hash[:2]>/<hash>/page-00007.json``, holding the words as points in PyMuPDF's unrotated
``get_text("words")`` space, each with tesseract's block/line/word numbers and confidence,
plus the render dpi, language, tesseract version, page rotation, OCR time and a UTC
timestamp. Files rather than SQLite because a page entry is written once and read whole,
several processes may write at once without locks, and a person can inspect or delete one
document's entries with a file manager. Every write goes to a temporary file in the same
folder, is flushed to disk and then renamed over the final name (``os.replace``, atomic on
POSIX and Windows), so Ctrl-C or a crash leaves either the old entry, the new one, or a
stray ``.tmp`` file that readers never look at, never half an entry.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ..words import PageWords
from .boxes import FORMAT_VERSION, OcrPage

# Environment variable that moves the default store (tests, CI, shared team stores).
STORE_ENV = "CITEVIEW_OCR_STORE"
_HASH_RE = re.compile(r"[0-9a-f]{64}")
_PAGE_RE = re.compile(r"page-(\d{5})\.json")


def default_store_dir() -> Path:
    """The store folder used when none is given: ``$CITEVIEW_OCR_STORE`` or the user cache."""
    env = os.environ.get(STORE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("citeview", appauthor=False)) / "ocr"


@dataclass(frozen=True, slots=True)
class StoredDocument:
    """One document's entries in the store."""

    doc_hash: str
    pages: int
    nbytes: int
    last_written: float  # the newest entry's modification time (seconds since the epoch)


class OcrStore:
    """OCR entries under ``root``, one per (document content hash, 0-based page number).

    Safe to share between processes and threads: writes are atomic renames, reads see a
    whole entry or none. Example::

        store = OcrStore.default()
        if not store.has(doc_hash, 0):
            store.save(doc_hash, recognize_page(page))
        words = store.load(doc_hash, 0)   # PageWords(source="ocr") or None
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    @classmethod
    def default(cls) -> OcrStore:
        """The store at :func:`default_store_dir`."""
        return cls(default_store_dir())

    def __repr__(self) -> str:
        return f"OcrStore({str(self.root)!r})"

    def path(self, doc_hash: str, page_no: int) -> Path:
        """The file that holds (or would hold) one page's entry."""
        if not _HASH_RE.fullmatch(doc_hash):
            raise ValueError(f"not a SHA-256 hex digest: {doc_hash!r}")
        if page_no < 0:
            raise ValueError(f"page numbers are 0-based and not negative: {page_no}")
        return (self.root / f"v{FORMAT_VERSION}" / doc_hash[:2] / doc_hash
                / f"page-{page_no:05d}.json")

    def entry(self, doc_hash: str, page_no: int) -> OcrPage | None:
        """The stored OCR result with its provenance, or ``None`` if absent or unreadable."""
        try:
            data = json.loads(self.path(doc_hash, page_no).read_text(encoding="utf-8"))
            return OcrPage.from_json(data)
        except (OSError, ValueError):
            # Missing, or not ours to read (damaged by hand, a future format): absent, so
            # `prepare` redoes it instead of the matcher trusting a broken entry.
            return None

    def load(self, doc_hash: str, page_no: int) -> PageWords | None:
        """Stored words for the matcher (``source="ocr"``), or ``None`` if not prepared."""
        entry = self.entry(doc_hash, page_no)
        return entry.to_page_words() if entry is not None else None

    def has(self, doc_hash: str, page_no: int, *, lang: str | None = None) -> bool:
        """Whether the page is stored (and, given ``lang``, was read with that language)."""
        if lang is None:
            return self.path(doc_hash, page_no).is_file()
        entry = self.entry(doc_hash, page_no)
        return entry is not None and entry.lang == lang

    def pages(self, doc_hash: str) -> list[int]:
        """Page numbers stored for a document, ascending."""
        folder = self.path(doc_hash, 0).parent
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        return sorted(int(m.group(1)) for n in names if (m := _PAGE_RE.fullmatch(n)))

    def save(self, doc_hash: str, page: OcrPage) -> Path:
        """Store one page's OCR result atomically (replacing any older entry); return its path."""
        target = self.path(doc_hash, page.page_no)
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps(page.to_json(), ensure_ascii=False, separators=(",", ":"))
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp",
                                        dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())  # the bytes reach the disk before the name does
            os.replace(tmp_name, target)
        except BaseException:  # including KeyboardInterrupt: leave no temp file behind
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
            raise
        return target

    def documents(self) -> list[StoredDocument]:
        """Every document with entries in the store (of this format), by hash."""
        out = []
        for folder in sorted((self.root / f"v{FORMAT_VERSION}").glob("??/*")):
            if not _HASH_RE.fullmatch(folder.name):
                continue
            files = [f for f in folder.iterdir() if _PAGE_RE.fullmatch(f.name)]
            stats = [f.stat() for f in files]
            if stats:
                out.append(StoredDocument(folder.name, len(stats),
                                          sum(st.st_size for st in stats),
                                          max(st.st_mtime for st in stats)))
        return out

    def forget(self, doc_hash: str) -> None:
        """Remove every entry of a document. The folder is first renamed out of the way
        (atomic), so a reader meanwhile finds the document whole or not at all."""
        folder = self.path(doc_hash, 0).parent
        doomed = folder.with_name(f".forget-{doc_hash}-{os.getpid()}")
        try:
            os.replace(folder, doomed)
        except FileNotFoundError:
            return
        shutil.rmtree(doomed, ignore_errors=True)
