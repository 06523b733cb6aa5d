"""A claim with very many evidence items: the window lists a screenful of them in the
detail pane, names how many more there are, and reviews every one of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from viewer.widgets.detail import MAX_ITEMS_SHOWN
from viewer.window.shell import MainWindow

from .helpers import paragraph_lines, text_pdf, write_citations

ITEMS = MAX_ITEMS_SHOWN + 150


def test_the_detail_pane_lists_the_first_items_and_counts_the_rest(
        make_window: Callable[..., MainWindow], qtbot: Any, tmp_path: Path) -> None:
    text_pdf(tmp_path / "policy.pdf", pages=2)
    lines = paragraph_lines(0, 40)
    claims = [{"id": "c1", "text": "one claim, many quotes", "evidence": [
        {"document": "policy", "page": 1, "quote": lines[k % 30]} for k in range(ITEMS)]}]
    cite = write_citations(tmp_path / "many.cite", "policy.pdf", claims)
    window = make_window((1000, 700))
    window.open_path(cite)
    qtbot.waitUntil(lambda: window.session.report is not None, timeout=120000)
    qtbot.waitUntil(lambda: window.session.selected == "c1", timeout=10000)
    text = window.detail.toPlainText()
    assert f"Evidence {MAX_ITEMS_SHOWN} of {ITEMS}" in text
    assert f"Evidence {MAX_ITEMS_SHOWN + 1} of {ITEMS}" not in text
    assert f"… and {ITEMS - MAX_ITEMS_SHOWN:,} more evidence items" in text
    assert len(window.session.evidence_views("c1")) == ITEMS  # the model holds them all
