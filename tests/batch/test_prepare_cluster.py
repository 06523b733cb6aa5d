"""``citeview prepare`` on a Dask cluster and beside itself, with the real tesseract: the
cluster's store equals the local one, two runs share a folder's work, a worker killed
mid-run has its pages retried."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.batch.conftest import dask_cluster
from tests.ocr.conftest import CORPUS, tesseract_or_skip, write_image_only_copy, write_text_pdf

REPO = Path(__file__).resolve().parents[2]
# Fields of an entry that say when and how fast it was made, not what was read.
WHEN = ("seconds", "created")


@pytest.fixture(autouse=True)
def _needs_tesseract() -> None:
    tesseract_or_skip()


def scans(folder: Path, tmp: Path, pages: tuple[int, ...]) -> list[Path]:
    """Image-only PDFs of ``pages`` pages each, plus a real scanned page of the corpus."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for i, n in enumerate(pages):
        src = write_text_pdf(tmp / f".src{i}.pdf", pages=n, rotation=90 * (i % 2))
        made.append(write_image_only_copy(src, folder / f"scan{i}.pdf"))
    real = CORPUS / "scanned_huck_finn_page.pdf"
    if real.is_file():
        made.append(Path(shutil.copy(real, folder / real.name)))
    return made


def page_total(pages: tuple[int, ...], made: list[Path]) -> int:
    """The pages of what :func:`scans` made: ``pages``, and the real scan's one page when
    the corpus was there to copy it from."""
    return sum(pages) + len(made) - len(pages)


def entries(store: Path) -> dict[str, dict[str, object]]:
    """Every entry of a store by its path in the store, without its timing fields."""
    out = {}
    for path in sorted(store.rglob("page-*.json")):
        entry = json.loads(path.read_text())
        out[str(path.relative_to(store))] = {k: v for k, v in entry.items() if k not in WHEN}
    return out


def prepare(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "matcher.ocr.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)


def test_prepare_on_a_cluster_equals_the_local_store(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    made = scans(docs, tmp_path, (2, 1))
    total = page_total((2, 1), made)
    local = prepare(docs, "--store", tmp_path / "local", "--dpi", "150", "--jobs", "2")
    assert local.returncode == 0, local.stderr
    with dask_cluster(tmp_path) as cluster:
        far = prepare(docs, "--store", tmp_path / "far", "--dpi", "150",
                      "--scheduler", cluster.address)
        assert far.returncode == 0, far.stderr
        assert f"on the Dask cluster at {cluster.address}" in far.stderr
        again = prepare(docs, "--store", tmp_path / "far", "--dpi", "150",
                        "--scheduler", cluster.address)
    assert again.returncode == 0 and "Nothing to do" in again.stderr
    want = entries(tmp_path / "local")
    assert len(want) == total  # every page of every scan, each once
    assert entries(tmp_path / "far") == want
    assert not list((tmp_path / "far").rglob("*.tmp"))


def test_two_runs_on_one_folder_share_the_work(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    total = page_total((2, 2, 2, 2), scans(docs, tmp_path, (2, 2, 2, 2)))
    store = tmp_path / "store"
    cmd = [sys.executable, "-m", "matcher.ocr.cli", str(docs), "--store", str(store),
           "--dpi", "200", "--jobs", "1"]
    runs = [subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, cwd=REPO)
            for _ in range(2)]
    try:
        errs = [r.communicate(timeout=300)[1] for r in runs]
    finally:
        for r in runs:
            if r.poll() is None:
                r.kill()
                r.wait()
    assert [r.returncode for r in runs] == [0, 0], errs
    stored = [int(e.split("Done: ")[1].split(" page(s) OCRed")[0]) for e in errs]
    pages = len(entries(store))
    assert pages == total
    assert sum(stored) == pages, f"pages OCRed twice: {stored} for {pages} pages\n{errs}"


def test_a_killed_worker_has_its_pages_tried_again(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    total = page_total((3, 3), scans(docs, tmp_path, (3, 3)))
    store = tmp_path / "store"
    proc = subprocess.Popen([sys.executable, "-m", "matcher.ocr.cli", str(docs), "--store",
                             str(store), "--dpi", "300", "--jobs", "2"],
                            stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + 180
        while not list(store.rglob("page-*.json")) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [p for p in psutil.Process(proc.pid).children()
                   if "python" in p.name().lower()]
        assert workers, "no pool worker to kill"
        os.kill(workers[0].pid, signal.SIGKILL)  # as the OOM killer does
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "A worker died" in err and "failed" not in err
    assert len(entries(store)) == total
