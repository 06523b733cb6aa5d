"""Where OCR word boxes live between runs: one small JSON file per page, keyed by content.

Store design (for the README)
-----------------------------
OCR results are kept in a per-user cache folder (``platformdirs.user_cache_dir("citeview")``
+ ``/ocr``, e.g. ``~/.cache/citeview/ocr`` on Linux; override with ``--store DIR`` or the
``CITEVIEW_OCR_STORE`` environment variable), not in a ``.citeview/`` folder beside the
documents: entries are keyed by the SHA-256 of the PDF's bytes, so a renamed or moved file
still finds its boxes wherever it lives, a changed file (new bytes, new hash) is simply
redone, document folders stay untouched (they may be read-only, synced or shared), and OCR
results are exactly what a cache is for (costly to make, safe to delete). A team that
wants to share prepared boxes points ``--store`` at a shared folder. Each page is one
JSON file, ``v1/<hash[:2]>/<hash>/page-00007.json``, holding the words as points in
PyMuPDF's unrotated ``get_text("words")`` space, each with tesseract's block/line/word
numbers and confidence, plus the render dpi, language, tesseract version, page rotation,
OCR time and a UTC timestamp. Files rather than SQLite because a page entry is written
once and read whole, several processes may write at once without locks, and a person can
inspect or delete one document's entries with a file manager. Every write goes, by
citeview's one writer (:func:`matcher.files.write_bytes_atomically`), to a temporary file
in the same folder, is flushed to disk and then renamed over the final name (atomic on
POSIX and Windows), so Ctrl-C or a crash leaves either the old entry, the new one, or a
stray ``.tmp`` file that readers never look at, never half an entry.

The root may be a symbolic link (to a shared folder); nothing below it is followed, so no
entry is read from or written to outside the store through a planted link. An entry
that is not a regular file holding a valid record (a folder, a link, ``null``, a future
format) is *damaged*: read as absent, redone by the next ``prepare`` (which replaces it),
and counted by ``citeview store``. Entries and folders are created with the modes the
umask allows, so a team's shared store is readable by the team.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ..files import WriteError, os_error_reason, write_bytes_atomically
from ..words import PageWords
from .boxes import FORMAT_VERSION, OcrPage

# Environment variable that moves the default store (tests, CI, shared team stores).
STORE_ENV = "CITEVIEW_OCR_STORE"
_HASH_RE = re.compile(r"[0-9a-f]{64}")
_PAGE_RE = re.compile(r"page-(\d{5})\.json")
# An entry is a few kilobytes (a dense page ~100 KB); a file far larger is not one.
MAX_ENTRY_BYTES = 16_000_000
# Opening with O_NOFOLLOW refuses a symbolic link where an entry should be.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class OcrStoreError(Exception):
    """The store cannot be written (or emptied): a sentence naming the store and why."""


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
    damaged: int = 0  # entries read as absent: not a regular file, or not a valid record


def _check_key(doc_hash: str, page_no: int) -> None:
    """ValueError unless ``doc_hash`` is a SHA-256 hex digest and ``page_no`` is 0 or more."""
    if not _HASH_RE.fullmatch(doc_hash):
        raise ValueError(f"not a SHA-256 hex digest: {doc_hash!r}")
    if page_no < 0:
        raise ValueError(f"page numbers are 0-based and not negative: {page_no}")


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
        _check_key(doc_hash, page_no)
        return (self.root / f"v{FORMAT_VERSION}" / doc_hash[:2] / doc_hash
                / f"page-{page_no:05d}.json")

    def entry(self, doc_hash: str, page_no: int) -> OcrPage | None:
        """The stored OCR result with its provenance, or ``None`` if absent or damaged."""
        _check_key(doc_hash, page_no)
        if not self._maybe_folder(doc_hash):
            return None
        path = self.path(doc_hash, page_no)
        if not self._real_folders(path.parent):
            return None
        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    return None
                raw = fh.read(MAX_ENTRY_BYTES + 1)
            if len(raw) > MAX_ENTRY_BYTES:
                return None
            return OcrPage.from_json(json.loads(raw.decode("utf-8")))
        except (OSError, ValueError, RecursionError):
            # Unreadable, or not ours to read (damaged by hand, a future format): absent,
            # so `prepare` redoes it instead of the matcher trusting a broken entry.
            return None

    def load(self, doc_hash: str, page_no: int) -> PageWords | None:
        """Stored words for the matcher (``source="ocr"``), or ``None`` if not prepared."""
        entry = self.entry(doc_hash, page_no)
        return entry.to_page_words() if entry is not None else None

    def has(self, doc_hash: str, page_no: int, *, lang: str | None = None) -> bool:
        """Whether the page is stored whole (and, given ``lang``, read with that language)."""
        entry = self.entry(doc_hash, page_no)
        return entry is not None and (lang is None or entry.lang == lang)

    def pages(self, doc_hash: str) -> list[int]:
        """Page numbers stored for a document, ascending (damaged entries included)."""
        folder = self.path(doc_hash, 0).parent
        if not self._real_folders(folder):
            return []
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        return sorted(int(m.group(1)) for n in names if (m := _PAGE_RE.fullmatch(n)))

    def check_writable(self) -> None:
        """Raise :class:`OcrStoreError` unless an entry could be written now (checked by
        writing and removing a probe file), so work is not done only to be thrown away."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            probe = self.root / f".probe.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666))
            os.unlink(probe)
        except OSError as exc:
            raise OcrStoreError(f"the OCR store {self.root} cannot be written: "
                                f"{os_error_reason(exc, writing=True)}") from None

    def save(self, doc_hash: str, page: OcrPage) -> Path:
        """Store one page's OCR result atomically (replacing any older or damaged entry);
        return its path. Raises :class:`OcrStoreError` when it cannot be written."""
        target = self.path(doc_hash, page.page_no)
        payload = json.dumps(page.to_json(), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
        try:
            self._make_folders(target.parent)
            if target.is_symlink():
                os.unlink(target)  # a damaged entry; what it points to is not the store's
            elif target.is_dir():
                shutil.rmtree(target)  # a damaged entry: a folder where a file should be
        except OSError as exc:
            raise OcrStoreError(f"cannot write to the OCR store {self.root}: "
                                f"{os_error_reason(exc, writing=True)}") from None
        try:  # the one writer: temporary file, fsync, rename (Ctrl-C leaves no temp file)
            write_bytes_atomically(target, payload)
        except WriteError as exc:
            raise OcrStoreError(f"cannot write to the OCR store {self.root}: "
                                f"{exc.reason}") from None
        return target

    def documents(self) -> list[StoredDocument]:
        """Every document with entries in the store (of this format), by hash; a folder
        that is a link, or an entry that is not a whole record, counts as damaged."""
        out = []
        top = self.root / f"v{FORMAT_VERSION}"
        for folder in sorted(top.glob("??/*")):
            if not _HASH_RE.fullmatch(folder.name):
                continue
            if not self._real_folders(folder):
                out.append(StoredDocument(folder.name, 0, 0, 0.0, damaged=1))
                continue
            sizes, times, damaged = [], [], 0
            for n in self.pages(folder.name):
                try:
                    st = os.lstat(self.path(folder.name, n))
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and self.entry(folder.name, n) is not None:
                    sizes.append(st.st_size)
                    times.append(st.st_mtime)
                else:
                    damaged += 1
            if sizes or damaged:
                out.append(StoredDocument(folder.name, len(sizes), sum(sizes),
                                          max(times, default=0.0), damaged))
        return out

    def forget(self, doc_hash: str) -> None:
        """Remove every entry of a document. The folder is first renamed out of the way
        (atomic), so a reader meanwhile finds the document whole or not at all; a folder
        that is a link is unlinked, leaving what it points to alone. Raises
        :class:`OcrStoreError` when the entries cannot be removed."""
        folder = self.path(doc_hash, 0).parent
        try:
            link = self._first_link(folder)
            if link is not None:
                os.unlink(link)  # what was behind it was never inside the store
                return
            doomed = folder.with_name(f".forget-{doc_hash}-{os.getpid()}")
            try:
                os.replace(folder, doomed)
            except FileNotFoundError:
                return
            shutil.rmtree(doomed)
        except OSError as exc:
            raise OcrStoreError(f"cannot remove entries from the OCR store {self.root}: "
                                f"{os_error_reason(exc, writing=True)}") from None

    def _first_link(self, folder: Path) -> Path | None:
        """The first folder from below the root down to ``folder`` that is a link."""
        here = self.root
        for part in folder.relative_to(self.root).parts:
            here = here / part
            if here.is_symlink():
                return here
        return None

    def _maybe_folder(self, doc_hash: str) -> bool:
        """False when the document has no folder in the store at all: one system call and
        no path objects, for the usual answer of a check asking page after page of a
        document nobody has OCRed (:meth:`_real_folders` then says the same, later)."""
        try:
            os.lstat(os.path.join(self.root, f"v{FORMAT_VERSION}", doc_hash[:2], doc_hash))
        except FileNotFoundError:
            return False
        except OSError:
            pass  # (anything else: the full check below says why)
        return True

    def _real_folders(self, folder: Path) -> bool:
        """Whether every folder from below the root down to ``folder`` is a real folder
        (no link): the store never follows a link it did not make."""
        try:
            rel = folder.relative_to(self.root)
        except ValueError:
            return False
        here = self.root
        for part in rel.parts:
            here = here / part
            try:
                if not stat.S_ISDIR(os.lstat(here).st_mode):
                    return False
            except OSError:
                return False
        return True

    def _make_folders(self, folder: Path) -> None:
        """Create the folders down to ``folder``; a link or file in their place is damage
        and is removed first (only the link itself: what it points to stays)."""
        self.root.mkdir(parents=True, exist_ok=True)
        here = self.root
        for part in folder.relative_to(self.root).parts:
            here = here / part
            try:
                mode = os.lstat(here).st_mode
            except FileNotFoundError:
                mode = None
            if mode is not None and not stat.S_ISDIR(mode):
                os.unlink(here)
                mode = None
            if mode is None:
                try:
                    here.mkdir()  # 0o777 less the umask
                except FileExistsError:  # another process made it meanwhile
                    if not here.is_dir() or here.is_symlink():
                        raise OSError(errno.EEXIST, "exists", str(here)) from None
