"""Reports kept between sessions: a file reopened unchanged shows its last check at once.

Checking a citations file is the slow part of opening it (a few hundred quotes over
twenty documents take seconds; the demo's sixteen take 0.2 s, after 0.25 s of importing
pydantic and the matcher). The window's check process keeps each report it made, beside
the citations record it was made from, and gives them again when the same file is
opened and checked and nothing the check read has changed since:

- the citations file's bytes (their SHA-256: what was validated is what is read now);
- each document it names, where it is found now (links resolved) and that file's size,
  modification and change times and inode (a file replaced, touched or rewritten in
  place is another file; one missing then and present now, or the reverse, too);
- each stored OCR page the check looked for (present, absent or replaced), in the store
  it looked in;
- the code that checked: every module of citeview, and the versions of PyMuPDF,
  rapidfuzz and pydantic it ran with.

Only a check of the file as it stands is kept: not one with documents moved by hand or
unlocked with a password (a report holds text of the document, and an encrypted one's
text is not written to disk), not one cut short. A kept report is the report a new
check would make; ``tests/viewer/test_stored_reports.py`` holds that against a fresh
check after each kind of change. ``citeview check`` and ``batch`` always check.

Where: ``platformdirs.user_cache_dir("citeview")/reports``, or ``$CITEVIEW_REPORT_STORE``
(an empty value, or ``off``, keeps nothing). One file per citations file (named by the
SHA-256 of its real path), a pickle written by citeview's one atomic writer
(:func:`matcher.files.write_bytes_atomically`); only a regular file of ours is read (no
link is followed), in a folder only we can read. The newest :data:`KEEP` files are kept.
A file that cannot be read as an entry is a miss and is replaced by the next check.

Everything here is standard library only (and the viewer's own records), so a hit does
not import pydantic or the matcher's search code.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import pickle
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from matcher.citefiles import document_refs, size_limit
from matcher.files import (
    InputFileError,
    Stamp,
    WriteError,
    file_stamp,
    read_bounded,
    write_bytes_atomically,
)

from ..recache import open_own
from ..state.records import Citations, Report

if TYPE_CHECKING:
    from matcher.ocr.store import OcrStore
    from matcher.words import PageWords

log = logging.getLogger(__name__)

STORE_ENV = "CITEVIEW_REPORT_STORE"
FORMAT = 1
KEEP = 200  # entries kept (the newest); a report of 500 items is ~1 MB
_SUFFIX = ".report"
# The packages whose behaviour a report depends on, beside citeview's own modules.
_LIBRARIES = ("pymupdf", "rapidfuzz", "pydantic", "pydantic_core")


def store_dir() -> Path | None:
    """The folder reports are kept in; None when keeping them is turned off."""
    env = os.environ.get(STORE_ENV)
    if env is not None:
        return None if env.strip() in ("", "off") else Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("citeview", appauthor=False)) / "reports"


def _code_fingerprint() -> str:
    """A digest of the checking code as this process loaded it: the stamps of every
    module of ``matcher`` and ``viewer``, the libraries' and the interpreter's version."""
    h = hashlib.sha256(sys.version.encode())
    here = Path(__file__).resolve().parents[2]
    for package in ("matcher", "viewer"):
        for folder, dirs, files in os.walk(here / package):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    h.update(f"{folder}/{name}{file_stamp(Path(folder, name))}".encode())
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        h.update(f"{name}{origin}{file_stamp(origin) if origin else None}".encode())
    return h.hexdigest()


# Taken when the check process first needs it, before it checked anything: the code a
# report is labelled with is the code that made it.
_CODE: str | None = None


def code_fingerprint() -> str:
    global _CODE
    if _CODE is None:
        _CODE = _code_fingerprint()
    return _CODE


@dataclass(frozen=True, slots=True)
class Key:
    """What a report depends on (see the module's docstring); equal keys, equal reports."""

    code: str
    citations: str  # the file's real path
    sha256: str  # of its bytes
    documents: tuple[tuple[str, str, Stamp | None], ...]  # id, real path, stamp
    ocr: tuple[tuple[str, Stamp | None], ...]  # each stored page looked for, its stamp


@dataclass(frozen=True, slots=True)
class Entry:
    format: int
    key: Key
    citations: Citations
    report: Report

    def holds(self, opened: Opened) -> bool:
        """Whether nothing the report depends on changed since, for the file as opened."""
        return opened.key(path for path, _ in self.key.ocr) == self.key


@dataclass(frozen=True, slots=True)
class Opened:
    """A citations file as it was read to be opened: its bytes' hash and what they name."""

    path: str
    sha256: str
    documents: tuple[tuple[str, str, Stamp | None], ...]

    def key(self, ocr: Iterable[str]) -> Key:
        return Key(code_fingerprint(), os.path.realpath(self.path), self.sha256,
                   self.documents, tuple((p, file_stamp(p)) for p in sorted(set(ocr))))

    def still(self) -> bool:
        """Whether the documents are as they were when the file was read."""
        return all(file_stamp(real) == was for _id, real, was in self.documents)


def read(path: str) -> tuple[Opened, bytes] | None:
    """Read a citations file to open it: what it was, and its bytes; None if it cannot be
    read (the opener says why)."""
    try:
        raw = read_bounded(path, limit=size_limit())
    except InputFileError:
        return None
    documents = tuple((doc_id, real, file_stamp(real))
                      for doc_id, real in document_refs(path, raw))
    return Opened(path, hashlib.sha256(raw).hexdigest(), documents), raw


class ReportStore:
    """The kept reports, as the check process uses them."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    @classmethod
    def default(cls) -> ReportStore:
        return cls(store_dir())

    def _file(self, path: str) -> Path | None:
        if self.folder is None:
            return None
        name = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()
        return self.folder / f"v{FORMAT}" / f"{name}{_SUFFIX}"

    def find(self, opened: Opened) -> Entry | None:
        """The entry kept for the file as ``opened``, if nothing it depends on changed."""
        file = self._file(opened.path)
        if file is None:
            return None
        fh = open_own(file)
        if fh is None:  # none kept, a link where it should be, not this user's
            return None
        with fh:
            try:
                entry = pickle.load(fh)
            except Exception:  # damaged, or written by another version: a miss
                log.info("kept report %s could not be read; checking anew", file)
                return None
        if not isinstance(entry, Entry) or entry.format != FORMAT:
            return None
        return entry if entry.holds(opened) else None

    def keep(self, opened: Opened, ocr: Iterable[str], citations: Citations,
             report: Report) -> None:
        """Keep a report made from the file as ``opened``, the OCR pages it looked for."""
        file = self._file(opened.path)
        if file is None:
            return
        entry = Entry(FORMAT, opened.key(ocr), citations, report)
        try:
            file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_bytes_atomically(file, pickle.dumps(entry, pickle.HIGHEST_PROTOCOL))
        except (OSError, WriteError) as exc:  # a cache: not keeping it costs time only
            log.info("report not kept in %s: %s", file, exc)
            return
        self._prune(file.parent)

    def _prune(self, folder: Path) -> None:
        try:
            entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(folder)
                       if e.name.endswith(_SUFFIX) and e.is_file(follow_symlinks=False)]
        except OSError:
            return
        for _mtime, path in sorted(entries, reverse=True)[KEEP:]:
            try:
                os.unlink(path)
            except OSError:
                pass


class Consulted:
    """An OCR word source that notes each stored page it was asked for (the files a
    report then depends on), and answers as ``store`` does."""

    def __init__(self, store: OcrStore) -> None:
        self.store = store
        self.paths: set[str] = set()

    def load(self, doc_hash: str, page_no: int) -> PageWords | None:
        self.paths.add(str(self.store.path(doc_hash, page_no)))
        return self.store.load(doc_hash, page_no)


class Reopen:
    """The check process's side of kept reports: the file last opened, as it was read,
    and the entry kept for it."""

    def __init__(self, reports: ReportStore | None = None) -> None:
        self.reports = ReportStore.default() if reports is None else reports
        self.opened: Opened | None = None
        self.kept: Entry | None = None
        self._raw: bytes | None = None  # the file's bytes as opened, until parsed

    def open(self, path: str) -> Citations | None:
        """Read the file to open it: the record kept with its report, if that holds."""
        read_now = read(path)
        self.opened, self._raw = read_now if read_now is not None else (None, None)
        self.kept = None if self.opened is None else self.reports.find(self.opened)
        return None if self.kept is None else self.kept.citations

    def take_raw(self, path: str) -> bytes | None:
        """The bytes of ``path`` as it was opened, to be parsed, given once (None: not
        the file last opened, or given already): a large file is not held twice."""
        if self.opened is None or self.opened.path != path:
            return None
        raw, self._raw = self._raw, None
        return raw

    def report(self, path: str) -> Report | None:
        """The report kept for ``path`` as opened, if nothing it depends on changed,
        looked at again (the window may ask long after it opened the file)."""
        if self.opened is None or self.opened.path != path or self.kept is None:
            return None
        return self.kept.report if self.kept.holds(self.opened) else None

    def keep(self, path: str, ocr: Iterable[str], citations: Citations,
             report: Report) -> None:
        """Keep the report of a whole check of ``path`` as opened, which looked for the
        stored OCR pages ``ocr``; not if a document changed while it ran."""
        if self.opened is not None and self.opened.path == path and self.opened.still():
            self.reports.keep(self.opened, ocr, citations, report)
