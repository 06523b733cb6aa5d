"""Which exports of a review to write, and where: shared by ``citeview export``, the
window's Export dialog and the check process that writes them (plain data, no Qt, no
PyMuPDF)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ExportTargets:
    """Where each output goes (None: not wanted). ``pdf`` is a file with one document,
    a folder with several."""

    pdf: Path | None = None
    html: Path | None = None
    csv: Path | None = None
    annotations: Path | None = None

    def any(self) -> bool:
        return any(p is not None for p in (self.pdf, self.html, self.csv, self.annotations))
