"""A PDF as the window knows it: usable or why not, and each page's size and rotation.

The check process opens the document (:mod:`viewer.checker.inspection`) and sends these
records back; they are plain data, safe in any thread, and nothing here imports Qt or
PyMuPDF. The page transform built from a :class:`PageInfo` is :mod:`viewer.render.page`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

DocState = Literal["unknown", "ok", "missing", "unreadable", "empty", "corrupt", "encrypted",
                   "bad_password"]
# PyMuPDF's (a, b, c, d, e, f): x' = a·x + c·y + e, y' = b·x + d·y + f — the same
# row-vector convention as QTransform(m11, m12, m21, m22, dx, dy).
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class PageInfo:
    """Facts about one PDF page, read once from PyMuPDF."""

    index: int  # 0-based
    width: float  # of page.rect, in points (after /Rotate, CropBox applied)
    height: float
    rotation: int
    rotation_matrix: Matrix  # words space → page.rect space
    label: str = ""  # the page's label ("xi", "A-3") where the PDF gives pages labels


@dataclass(frozen=True, slots=True)
class Inspection:
    """What opening a document found: its state, a sentence when it is not usable, pages."""

    path: Path
    state: DocState
    message: str = ""
    pages: tuple[PageInfo, ...] = ()
    sha256: str | None = None  # of the file's bytes, when they could be read
