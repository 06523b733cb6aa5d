"""Parts receive what they use (shared/STYLE.md, 13): a module of ``viewer/window/`` is
handed the session, the view, the controller, the menus and its few callbacks, not the
whole window. The modules that still name ``MainWindow`` (besides ``shell.py``, which
defines it) are listed here; the list only shrinks, and holds at most three."""

from __future__ import annotations

import re
from pathlib import Path

WINDOW = Path(__file__).resolve().parents[1] / "viewer" / "window"
# Still handed the whole window (to be given their parts, one by one).
# windows.py makes and tracks the windows themselves, so it names the class by its job.
STILL_NAMING: frozenset[str] = frozenset({"reader.py", "review_ui.py", "windows.py"})


def naming_main_window() -> set[str]:
    """The ``viewer/window/`` modules other than shell.py whose source names MainWindow."""
    return {p.name for p in WINDOW.glob("*.py") if p.name != "shell.py"
            and re.search(r"\bMainWindow\b", p.read_text(encoding="utf-8"))}


def test_no_new_module_takes_the_whole_window() -> None:
    assert naming_main_window() <= STILL_NAMING


def test_the_list_is_kept_short() -> None:
    # A module that stopped naming the window leaves the list, so the list cannot hide one
    # that starts again.
    assert naming_main_window() == STILL_NAMING


def test_at_most_three() -> None:
    assert len(STILL_NAMING) <= 3
