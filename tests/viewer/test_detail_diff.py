"""The detail pane shows a changed figure word by word, from the real check of the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from matcher.check import check_citations
from matcher.citations import load_citations, resolve_document_path
from viewer.palette import DEFAULT_HIGHLIGHT
from viewer.state.files import demo_path
from viewer.state.records import Citations, Report
from viewer.state.session import Session
from viewer.widgets.detail import DIFF_STYLES, DetailPane


@pytest.fixture(scope="module")
def demo() -> tuple[Citations, Report]:
    path = demo_path()
    cf = load_citations(path)
    report = Report.from_json(check_citations(cf, path).model_dump(mode="json"))
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    paths = {d.id: resolve_document_path(path, d) for d in cf.documents}
    return Citations.from_json(data, paths), report


def pane_for(qtbot: QtBot, demo: tuple[Citations, Report], claim: str) -> DetailPane:
    citations, report = demo
    session = Session()
    pane = DetailPane(session, DEFAULT_HIGHLIGHT)
    qtbot.addWidget(pane)
    session.open_citations(demo_path(), citations)
    session.set_report(report)
    session.select(claim)
    return pane


def test_a_changed_figure_is_marked_on_both_sides(qtbot: QtBot,
                                                  demo: tuple[Citations, Report]) -> None:
    [ev] = demo[1].claim("c13").evidence  # the premium quoted with two digits swapped
    assert ev.status == "review"
    [d] = ev.differences
    pane = pane_for(qtbot, demo, "c13")
    html = pane.html()
    changed = f'<span style="{DIFF_STYLES["changed"]}">'
    assert f"{changed}{d.quote}</span>" in html  # the quote's figure …
    assert f"{changed}{d.page}</span>" in html  # … and the page's, in the found text
    assert f"{d.quote} ≠ {d.page}" in pane.toPlainText()
    # Only the figure is marked: every other word of the quote stands on the page.
    assert html.count(changed) == 3  # quote word, page word, the "≠" line


def test_a_located_quote_has_no_marks(qtbot: QtBot, demo: tuple[Citations, Report]) -> None:
    located = next(c for c in demo[1].claims
                   if c.evidence and all(e.status == "located" for e in c.evidence))
    html = pane_for(qtbot, demo, located.id).html()
    assert DIFF_STYLES["changed"] not in html and "Differs from the page" not in html
