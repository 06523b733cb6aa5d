"""Where a citations file's review may be kept: beside it, or in the per-user data folder.

The names alone, without the review's model (:mod:`.review_store` reads and saves the file
itself), so that ``citeview check`` can tell there is no review without importing it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs

SUFFIX = ".review.json"


def beside(citations: Path) -> Path:
    """``NAME.review.json`` beside ``NAME.cite`` (or ``NAME.json``)."""
    return citations.with_name(citations.stem + SUFFIX)


def in_data_folder(citations: Path) -> Path:
    """Where the review of ``citations`` is kept when its own folder cannot be written."""
    full = str(citations.expanduser().absolute())
    tag = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return review_folder() / f"{citations.stem}-{tag}{SUFFIX}"


def review_folder() -> Path:
    """The per-user folder of reviews kept away from their citations files."""
    return Path(platformdirs.user_data_dir("citeview", appauthor=False)) / "reviews"


def existing(citations: Path) -> Path | None:
    """The review of ``citations`` if there is one (beside it, else in the data folder)."""
    near, far = beside(citations), in_data_folder(citations)
    return next((p for p in (near, far) if os.path.lexists(p)), None)
