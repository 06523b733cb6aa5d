"""What the window may ask the check process, and what comes back: one typed message each.

The check process (:mod:`viewer.checker.server`) reads citations files, inspects PDFs,
checks quotes and recognises scanned pages, so the GUI process never imports pydantic,
PyMuPDF, pytesseract or the matcher's search code. The two speak over a
:mod:`multiprocessing` connection, which pickles these dataclasses:

    to the process     Call(rid, request)            answer ``request`` (served in order)
                       Prepare(path)                 no reply: answer the window's first
                                                     requests for ``path`` before they come
                       Cancel(rid)                   stop request ``rid`` early (a check
                                                     stops between evidence items; what it
                                                     replies is discarded by the caller)
                       None                          stop the process
    from the process   Progressed(rid, done, total)  any number, while a check runs
                       Found(rid, items)             any number, while a find runs: the
                                                     results so far (streamed)
                       Done(rid, value)              the request's reply, typed by it
                       Failed(rid, message)          a sentence for the person

Every request is a frozen, hashable dataclass naming its reply type (``Open`` is a
``Request[Citations]``), so the client's one generic call is typed, and a prepared answer
is found by the request itself. A new capability (an export, a find, a page's words for
text selection, saving a review, a claim's consistency once a person decides where its
evidence stands) is a request class here, a handler in the server and a method on
:class:`viewer.checker.client.CheckClient`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from matcher.vocabulary import Rect

from ..state.documents import Inspection
from ..state.files import resolved
from ..state.find import FindHit
from ..state.records import Citations, Consistency, Report
from ..state.selection import PageWordBoxes

T = TypeVar("T")


class CheckerError(Exception):
    """A request failed: the message is a sentence for the person."""


def request_path(path: Path | str) -> str:
    """How a file is named in requests: absolute, so a prepared answer is found."""
    return str(resolved(path))


# -- requests ------------------------------------------------------------------------------
class Request(Generic[T]):
    """A question for the check process whose answer is a ``T``."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Open(Request[Citations]):
    """Read and validate a citations file (``path`` as :func:`request_path` names it)."""

    path: str


@dataclass(frozen=True, slots=True)
class Inspect(Request[Inspection]):
    """Open a PDF: usable or why not, and every page's size and rotation."""

    path: str
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Check(Request[Report]):
    """Check the citations file at ``path`` as last opened, some documents moved."""

    path: str
    moved: tuple[tuple[str, str], ...] = ()  # (document id, where it is now)
    passwords: tuple[tuple[str, str], ...] = field(default=(), repr=False)  # (id, password)


@dataclass(frozen=True, slots=True)
class ScannedPages(Request[tuple[int, ...]]):
    """Which of these 0-based pages are scans without text and without stored OCR."""

    path: str
    pages: tuple[int, ...]
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class OcrPage(Request[int]):
    """Recognise one 0-based page now and store its word boxes; replies the word count."""

    path: str
    page: int
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote, and the documents it could not use (sentences)."""

    written: tuple[str, ...]
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Export(Request[Exported]):
    """Check the citations file at ``path`` (documents moved as given), apply its review,
    and write the outputs named (None: not wanted). ``review`` None: the review beside
    the file (``NAME.review.json``), when there is one."""

    path: str
    pdf: str | None = None
    html: str | None = None
    csv: str | None = None
    annotations: str | None = None
    review: str | None = None
    moved: tuple[tuple[str, str], ...] = ()
    passwords: tuple[tuple[str, str], ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class PrintCopy(Request[int]):
    """Write the PDF to print to ``out``: the ``pages`` named (document id, 0-based
    page), in that order, taken from the annotated copies the export makes of the
    citations file at ``path`` (checked and reviewed as for :class:`Export`), or, with
    no ``path`` (a bare PDF), from the ``documents`` themselves. Replies the page count;
    nothing is written when cancelled."""

    out: str
    pages: tuple[tuple[str, int], ...]
    documents: tuple[tuple[str, str], ...]  # document id → its PDF, as the window has it
    path: str | None = None
    moved: tuple[tuple[str, str], ...] = ()
    passwords: tuple[tuple[str, str], ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import made: the citations file to open, and a line per file written or
    kept (as ``citeview import`` says them)."""

    path: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Import(Request[Imported]):
    """Import the answer at ``response`` as ``citeview import`` does (its format
    recognised; RESPONSE.cite beside it), with its documents (in its order) or the
    request that carried them."""

    response: str
    documents: tuple[str, ...] = ()
    request: str | None = None
    by_title: bool = False  # the documents' order unknown: matched to the answer's titles


@dataclass(frozen=True, slots=True)
class Words(Request[PageWordBoxes]):
    """One 0-based page's words with their boxes (words space), in reading order: the
    text layer's, or the stored OCR boxes of a scanned page."""

    path: str
    page: int
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Find(Request[int]):
    """Find ``query`` on every page from 0-based ``start`` on (wrapping round), streaming
    the hits as :class:`Found` messages of :class:`~viewer.state.find.FindHit`; replies
    how many pages were read."""

    path: str
    query: str
    start: int = 0
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One bookmark of a PDF's outline: its depth (1 = top), title and 0-based page, and
    the point on that page it goes to (words space), when it names one."""

    level: int
    title: str
    page: int | None  # None: the bookmark points nowhere in this document
    point: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Outline(Request[tuple[OutlineEntry, ...]]):
    """The PDF's outline (bookmarks), in order; empty when it has none."""

    path: str
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class PlaceOn(Request[dict[int, tuple[Rect, ...]]]):
    """Place ``quote`` on each of these 0-based pages (a quote that fits several pages
    equally well): page → its rectangles, for the pages it is placed on."""

    path: str
    quote: str
    pages: tuple[int, ...]
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Reconsider(Request[Consistency]):
    """Read ``claim``'s figures, dates and negations against ``texts``, the words its
    evidence stands on now that a person decided where (:mod:`viewer.state.standing`),
    on these 1-based ``pages``: its consistency, as ``check`` works it out."""

    claim: str
    texts: tuple[str, ...]
    pages: tuple[int, ...] = ()


# -- messages ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Call:
    rid: int
    request: Request[Any]


@dataclass(frozen=True, slots=True)
class Prepare:
    path: str


@dataclass(frozen=True, slots=True)
class Cancel:
    rid: int


@dataclass(frozen=True, slots=True)
class Progressed:
    rid: int
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Found:
    rid: int
    items: tuple[FindHit, ...]


@dataclass(frozen=True, slots=True)
class Done:
    rid: int
    value: object


@dataclass(frozen=True, slots=True)
class Failed:
    rid: int
    message: str


ToServer = Call | Prepare | Cancel | None
FromServer = Progressed | Found | Done | Failed
