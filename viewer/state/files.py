"""What the viewer opens: a citations file or a PDF, and where the bundled demo is."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from matcher.files import looks_like_pdf

# What the window opens as a citations file (anything else as a PDF).
CITATION_SUFFIXES = (".cite", ".json")


def is_citations_file(path: Path) -> bool:
    """Whether the window reads ``path`` as a citations file (by its suffix)."""
    return path.suffix.lower() in CITATION_SUFFIXES


def resolved(path: Path | str) -> Path:
    """``path`` made absolute with symbolic links followed, as far as they can be: a link
    loop or an unreadable folder leaves it merely absolute (opening it then says why)."""
    path = Path(path).expanduser()
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a link loop, before Python 3.13
        return Path(os.path.abspath(path))


def opens_as_pdf(path: Path) -> bool:
    """Whether the window shows ``path`` as a bare PDF: by its name, else by its first
    bytes (a PDF saved without the suffix), so only the rest is read as citations."""
    return path.suffix.lower() == ".pdf" or looks_like_pdf(path)


def demo_path() -> Path:
    """The bundled demo citations file (its PDF, ``policy.pdf``, sits beside it)."""
    return Path(str(resources.files("resources") / "demo" / "demo.cite"))
