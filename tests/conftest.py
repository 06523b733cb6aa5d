"""Shared fixtures: small real PDFs made with PyMuPDF, and the corpus folder if present."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.simplepdf import Placed, write_pdf

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"


@pytest.fixture(autouse=True)
def user_data_in_tmp(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> Path:
    """Per-user data (reviews kept away from their citations files) goes to a fresh
    folder, never the user's own — in this process and the children it starts."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder

@pytest.fixture
def make_pdf(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(10_000))

    def make(pages: Sequence[Sequence[Placed]], **kw: object) -> Path:
        return write_pdf(tmp_path / f"doc{next(counter)}.pdf", pages, **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not beside this checkout ({CORPUS})")
    return CORPUS
