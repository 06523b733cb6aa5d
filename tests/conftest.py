"""Shared fixtures: small real PDFs made with PyMuPDF, and the corpus folder if present."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.simplepdf import Placed, write_pdf

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"


@pytest.fixture(autouse=True)
def user_data_in_tmp(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> Path:
    """Per-user data (reviews kept away from their citations files), the reports the
    window keeps and the compiled code citeview keeps go to a fresh folder, never the
    user's own — in this process and the children it starts; no test sees another's
    kept report."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    monkeypatch.setenv("CITEVIEW_REPORT_STORE", str(folder / "reports"))
    monkeypatch.setenv("CITEVIEW_CODE_CACHE", str(folder / "code"))
    return folder

@pytest.fixture
def make_pdf(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(10_000))

    def make(pages: Sequence[Sequence[Placed]], **kw: object) -> Path:
        return write_pdf(tmp_path / f"doc{next(counter)}.pdf", pages, **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The bundled demo's citations file and policy, copied into ``tmp_path`` (so its
    review file is written there)."""
    from viewer.state.files import demo_path

    if not demo_path().is_file():
        pytest.skip("the bundled demo is not built")
    for name in ("demo.cite", "policy.pdf"):
        shutil.copy(demo_path().parent / name, tmp_path / name)
    return tmp_path / "demo.cite"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not beside this checkout ({CORPUS})")
    return CORPUS
