"""What the viewer opens: a citations file or a PDF, and where the bundled demo is."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

# What the window opens as a citations file (anything else as a PDF).
CITATION_SUFFIXES = (".cite", ".json")


def is_citations_file(path: Path) -> bool:
    """Whether the window reads ``path`` as a citations file (by its suffix)."""
    return path.suffix.lower() in CITATION_SUFFIXES


def demo_path() -> Path:
    """The bundled demo citations file (its PDF, ``policy.pdf``, sits beside it)."""
    return Path(str(resources.files("resources") / "demo" / "demo.cite"))
