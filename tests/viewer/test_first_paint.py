"""The first page of a citations file is painted before the check process has read it
(viewer.window.first_paint), and what the file says wins once it is read.

The check process is real; its reading of the file is held back (a real client whose
``open`` waits to be let go), so "before" is an order of events, not a race: the page
must be painted while the window has heard nothing of the file from that process.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytestqt.qtbot import QtBot

from matcher.citations import DocumentRef, load_citations, resolve_document_path
from viewer.checker.citations import citations_record
from viewer.checker.client import CheckClient
from viewer.checker.protocol import CheckerError
from viewer.state.glimpse import glimpse
from viewer.state.records import Citations
from viewer.state.session import Session
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, write_citations

MakeWindow = Callable[..., MainWindow]


class HeldOpen(CheckClient):
    """A real check client whose reading of a citations file waits to be let go."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def open(self, path: Path | str, **kw: Any) -> Citations:
        self.release.wait(30)
        return super().open(path, **kw)


def quoting_page_2(tmp_path: Path, **extra: object) -> tuple[Path, Path]:
    """policy.pdf (3 pages) and a citations file whose claim quotes page 2, hinting at it."""
    pdf = text_pdf(tmp_path / "policy.pdf", pages=3)
    lines = paragraph_lines(1, 40)  # page 2's lines (text_pdf's seeds count from 0)
    cite = write_citations(tmp_path / "claims.cite", "policy.pdf", [
        {"id": "first", "text": "page 1", "evidence": [
            {"document": "policy", "page": 1, "quote": paragraph_lines(0, 40)[3]}]},
        {"id": "ok", "text": "page 2", "evidence": [
            {"document": "policy", "page": 2, "quote": f"{lines[20]} {lines[21]}"}]}])
    if extra:
        cite.write_text(json.dumps({**json.loads(cite.read_text()), **extra}))
    return pdf, cite


def painted_ahead(window: MainWindow) -> bool:
    return window.view.doc is not None and window.view.is_settled()


def test_the_hinted_page_is_painted_before_the_file_is_read_and_kept_after(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    pdf, cite = quoting_page_2(tmp_path)
    held = HeldOpen()
    window = make_window(checker=lambda: held)
    shown: list[object] = []
    window.view.document_changed.connect(lambda: shown.append(window.view.doc))
    window.open_path(cite)
    window.select_claim_when_ready("ok")
    qtbot.waitUntil(lambda: painted_ahead(window), timeout=30000)
    # Painted while the check process has not even handed the file over.
    assert window.controller.is_busy() and window.session.citations is None
    assert window.view.doc is not None and Path(window.view.doc.path) == pdf.resolve()
    assert 1 in window.view.painted_pages and window.view.painted_highlights == []
    top = window.view.visible_layout_rect().top()
    assert window.view.page(1).rect().top() <= top + 40  # page 2 at the top, as hinted
    held.release.set()
    qtbot.waitUntil(lambda: window.session.report is not None and window.is_settled(),
                    timeout=30000)
    assert window.session.selected == "ok"
    qtbot.waitUntil(lambda: bool(window.view.painted_highlights), timeout=30000)
    assert {page for page, _ in window.view.painted_highlights} == {1}
    # The file names the document shown ahead: the view kept it (and its tiles).
    assert shown == [window.view.doc]


def test_a_file_that_does_not_open_ends_as_without_the_head_start(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    _, cite = quoting_page_2(tmp_path, version=7)  # JSON a glimpse reads; not version 1
    with pytest.raises(CheckerError) as refused:
        probe = CheckClient()
        try:
            probe.open(cite)
        finally:
            probe.stop()
    held = HeldOpen()
    window = make_window(checker=lambda: held)
    window.open_path(cite)
    qtbot.waitUntil(lambda: painted_ahead(window), timeout=30000)
    held.release.set()
    qtbot.waitUntil(lambda: window.notice.isVisible() and not window.is_busy(), timeout=30000)
    assert window.notice.text() == str(refused.value)
    assert "version" in window.notice.text()
    assert window.view.doc is None and window.failed_to_open


def test_a_file_that_is_not_json_shows_nothing_and_the_same_error(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=1)
    cite = tmp_path / "broken.cite"
    cite.write_text('{"version": 1, "documents": [{"id": "policy", "path": "policy.pdf"}],')
    probe = CheckClient()
    try:
        with pytest.raises(CheckerError) as refused:
            probe.open(cite)
    finally:
        probe.stop()
    window = make_window()
    shown: list[object] = []
    window.view.document_changed.connect(lambda: shown.append(window.view.doc))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.notice.isVisible() and not window.is_busy(), timeout=30000)
    assert window.notice.text() == str(refused.value)
    assert shown == [] and window.view.doc is None


def test_a_missing_document_is_not_shown_ahead_and_reported_as_usual(
        qtbot: QtBot, make_window: MakeWindow, tmp_path: Path) -> None:
    cite = write_citations(tmp_path / "gone.cite", "gone.pdf", [
        {"id": "c", "text": "t", "evidence": [{"document": "policy", "page": 1,
                                                "quote": "anything at all"}]}])
    window = make_window()
    shown: list[object] = []
    window.view.document_changed.connect(lambda: shown.append(window.view.doc))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None and not window.is_busy(),
                    timeout=30000)
    assert window.view.doc is None and all(doc is None for doc in shown)
    assert window.notice.isVisible() and "gone.pdf" in window.notice.text()


@pytest.mark.parametrize("ref", ["a.pdf", "sub/../b.pdf", "/abs/c.pdf", "~/d.pdf",
                                 "~nosuchuser_citeview/e.pdf"])
def test_a_glimpsed_document_resolves_where_the_check_process_finds_it(
        tmp_path: Path, ref: str) -> None:
    cite = tmp_path / "x.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [{"id": "d", "path": ref}],
                                "claims": [{"id": "c1", "text": "t", "evidence": []}]}))
    seen = glimpse(cite)
    assert seen is not None
    assert seen.document == resolve_document_path(cite, DocumentRef(id="d", path=ref))


chunk_pages = st.one_of(st.none(), st.lists(st.integers(1, 5), max_size=2))
evidence = st.fixed_dictionaries(
    {"quote": st.just("q")},
    optional={"page": st.integers(1, 5), "chunk_id": st.sampled_from(["k0", "k1", "k9"])})
claims = st.lists(st.lists(evidence, max_size=3), min_size=1, max_size=3)


# tmp_path is shared by the examples: each writes its file afresh.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claims=claims, pages=st.tuples(chunk_pages, chunk_pages), pick=st.integers(-1, 2))
def test_the_glimpsed_page_is_the_page_the_window_goes_to_once_the_file_is_read(
        tmp_path: Path, claims: list[list[dict[str, object]]],
        pages: tuple[list[int] | None, list[int] | None], pick: int) -> None:
    data = {"version": 1, "documents": [{"id": "d", "path": "d.pdf"}],
            "chunks": [{"id": f"k{i}", "document": "d", "text": "t", "pages": p}
                       for i, p in enumerate(pages)],
            "claims": [{"id": f"c{i}", "text": "t", "evidence": ev}
                       for i, ev in enumerate(claims)]}
    cite = tmp_path / "h.cite"
    cite.write_text(json.dumps(data))
    session = Session()
    session.open_citations(cite, citations_record(load_citations(cite), cite))
    claim = f"c{pick}" if 0 <= pick < len(claims) else None
    # As the controller does: the claim asked for, else the first; page 1 without a hint.
    hint = session.hinted_page(claim or "c0")
    seen = glimpse(cite, claim)
    assert seen is not None
    assert seen.page == (hint - 1 if hint is not None else 0)
    assert seen.document == session.documents["d"].path


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["documents", "claims", "chunks", "id",
                                                       "path", "evidence", "page",
                                                       "chunk_id", "pages"]),
                                      inner, max_size=4), max_leaves=12))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_glimpse_of_any_json_is_a_page_or_none_never_an_error(tmp_path: Path,
                                                                 data: object) -> None:
    cite = tmp_path / "any.cite"
    cite.write_text(json.dumps(data))
    seen = glimpse(cite, "c")
    assert seen is None or seen.page >= 0
