"""``citeview prepare`` end to end with the real tesseract: store, resume, rename, change,
failures reported, Ctrl-C, missing tesseract or language; and ``ocr_page`` for the viewer."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest
from conftest import PdfMaker, tesseract_or_skip, write_image_only_copy, write_text_pdf

from matcher.document import PdfSource, file_hash
from matcher.ocr import OcrFailed, OcrStore, ocr_page
from matcher.ocr.cli import EXIT_INTERRUPTED, EXIT_OK, EXIT_SETUP, EXIT_SOME_FAILED, main
from tests.terminal import foreground

REPO = Path(__file__).resolve().parents[2]
FAST = ["--dpi", "150", "--jobs", "2"]  # 14 pt text reads fine at 150 dpi


@pytest.fixture(autouse=True)
def _needs_tesseract() -> None:
    tesseract_or_skip()


def run(folder: Path, store: OcrStore, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main([str(folder), "--store", str(store.root), *FAST, *extra], stderr=err)
    text = err.getvalue()
    assert "Traceback" not in text
    return code, text


# A page's worth of text for a full-size page: what makes a page slow to recognise.
DENSE_LINES = tuple(f"Line {k}: the insured shall notify the insurer within thirty days"
                    for k in range(26))


def all_entries(store: OcrStore) -> list[Path]:
    return sorted(store.root.rglob("page-*.json"))


def test_prepare_stores_scanned_pages_then_resumes(scan_pdf: PdfMaker, text_pdf: PdfMaker,
                                                    tmp_path: Path, store: OcrStore) -> None:
    docs = tmp_path / "docs"
    a = scan_pdf("a.pdf", folder=docs, pages=2)
    b = scan_pdf("B.PDF", folder=docs / "sub" / "deeper", rotation=90)
    shutil.copy(text_pdf("text.pdf"), docs / "sub" / "text.pdf")

    code, out = run(docs, store)
    assert code == EXIT_OK, out
    assert "3 page(s) to OCR" in out and "1 with a text layer" in out
    assert "Done: 3 page(s) OCRed and stored" in out and "pages/s" in out
    assert "OCR 3/3 pages" in out  # the progress line reached the end
    assert len(all_entries(store)) == 3

    with PdfSource(b, ocr=store) as source:
        words = source.page_words(0)
    assert words.source == "ocr" and "Quick" in words.text()
    assert words.meta["dpi"] == 150 and words.meta["lang"] == "eng"

    # a second run finds everything stored and says so
    code, out = run(docs, store)
    assert code == EXIT_OK
    assert "0 page(s) to OCR; 3 already prepared (skipped)" in out and "Nothing to do" in out

    # renamed and moved: same bytes, same boxes, nothing to redo
    moved = a.rename(docs / "sub" / "renamed.pdf")
    code, out = run(docs, store)
    assert "3 already prepared" in out and "Nothing to do" in out
    with PdfSource(moved, ocr=store) as source:
        assert source.page_words(1).source == "ocr"

    # changed: new bytes, new hash, redone (the old entries stay, harmless)
    write_image_only_copy(write_text_pdf(tmp_path / "v2.pdf", lines=("Fresh words now",
                                                                     "second version")), b)
    code, out = run(docs, store)
    assert code == EXIT_OK
    assert "1 page(s) to OCR; 2 already prepared" in out
    stored = store.load(file_hash(b), 0)
    assert stored is not None and "Fresh" in stored.text()


def test_unreadable_files_and_failing_pages_are_reported_and_skipped(
    scan_pdf: PdfMaker, tmp_path: Path, store: OcrStore
) -> None:
    docs = tmp_path / "docs"
    scan_pdf("good.pdf", folder=docs)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n this is not a pdf")
    (docs / "empty.pdf").write_bytes(b"")
    locked = pymupdf.open()
    locked.new_page()
    locked.save(docs / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                user_pw="secret", owner_pw="owner")
    cycle = Path("../shared/corpus/bad/page_tree_cycle.pdf")
    if (REPO / cycle).is_file():
        shutil.copy(REPO / cycle, docs / "cycle.pdf")

    code, out = run(docs, store)
    assert code == EXIT_SOME_FAILED
    assert "skipped: " in out and "broken.pdf: not a readable PDF" in out
    assert "empty.pdf: the file is empty" in out
    assert "locked.pdf: the PDF is password-protected" in out
    if (docs / "cycle.pdf").exists():
        assert "failed: " in out and "cycle.pdf page 2" in out
    assert len(all_entries(store)) == 1  # the good page, despite the others


def test_missing_language_pack_is_a_clear_error(tmp_path: Path, store: OcrStore) -> None:
    (tmp_path / "docs").mkdir()
    code, out = run(tmp_path / "docs", store, "--lang", "eng+xyz")
    assert code == EXIT_SETUP
    assert "language pack(s) not installed: xyz" in out and "tesseract-ocr-xyz" in out
    assert "installed: " in out and "eng" in out


def test_bad_arguments_are_clear_errors(tmp_path: Path, store: OcrStore) -> None:
    code, out = run(tmp_path / "nowhere", store)
    assert code == EXIT_SETUP and "does not exist" in out
    (tmp_path / "docs").mkdir()
    code, out = run(tmp_path / "docs", store, "--dpi", "20")
    assert code == EXIT_SETUP and "--dpi must be between" in out


def test_missing_tesseract_is_a_clear_error_without_traceback(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    bare = tmp_path / "bin"  # a PATH holding python only: no tesseract to be found
    bare.mkdir()
    (bare / "python").symlink_to(sys.executable)
    env = {**os.environ, "PATH": str(bare), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "matcher.ocr.cli", str(tmp_path / "docs"),
                           "--store", str(tmp_path / "store")],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == EXIT_SETUP
    assert "tesseract is not installed or not on PATH" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_ctrl_c_stops_cleanly_and_the_next_run_continues(scan_pdf: PdfMaker, tmp_path: Path,
                                                         store: OcrStore) -> None:
    docs = tmp_path / "docs"
    for i in range(4):
        scan_pdf(f"doc{i}.pdf", folder=docs, pages=3)
    # Slow by construction, so a busy machine cannot finish before the interrupt: four
    # full pages of dense text (seconds each at 300 dpi), listed after the small pages.
    scan_pdf("doc9.pdf", folder=docs, pages=4, lines=DENSE_LINES, width=612.0, height=792.0)
    pages = 4 * 3 + 4
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "matcher.ocr.cli", str(docs), "--store",
                             str(store.root), "--dpi", "300", "--jobs", "2"],
                            env=env, cwd=REPO, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=foreground)
    try:
        deadline = time.monotonic() + 180  # generous: CI machines may be busy
        while not all_entries(store) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert all_entries(store), "no page was stored within the deadline"
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
        at_ctrl_c = len(all_entries(store))
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Interrupted: " in err and "Run the same command again to continue" in err
    assert not list(store.root.rglob("*.tmp"))
    done = all_entries(store)
    assert 1 <= len(done) < pages
    # It stops at once: the two pages in progress (and the one queued) are not finished
    # and stored; at most a result already on its way when Ctrl-C came is saved.
    assert len(done) - at_ctrl_c <= 1, (at_ctrl_c, len(done))
    assert "left for the next run" in err
    for entry in done:
        assert json.loads(entry.read_text())["format"] == 1  # whole, readable entries

    code, out = run(docs, store)
    assert code == EXIT_OK
    assert f"{pages - len(done)} page(s) to OCR; {len(done)} already prepared" in out
    assert len(all_entries(store)) == pages


def test_ocr_page_for_the_viewer_stores_and_returns_words(scan_pdf: PdfMaker,
                                                          store: OcrStore) -> None:
    scan = scan_pdf(rotation=270, crop_offset=(15.0, 25.0))
    stages: list[str] = []
    words = ocr_page(scan, 0, dpi=150, store=store, on_stage=stages.append)
    assert stages == ["checking", "recognizing", "storing"]
    assert words.source == "ocr" and "wizards" in words.text()
    with PdfSource(scan, ocr=store) as source:
        assert source.page_words(0).text() == words.text()

    with pytest.raises(OcrFailed, match="page 5 does not exist"):
        ocr_page(scan, 4, dpi=150, store=store, isolate=False)


def test_find_pdfs_walks_recursively_and_skips_the_store(tmp_path: Path) -> None:
    from matcher.ocr.prepare import find_pdfs

    for rel in ("a.pdf", "sub/B.PDF", "sub/deeper/c.pdf", "notes.txt", ".store/v1/x.pdf"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"")
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    found = find_pdfs(tmp_path, exclude=[tmp_path / ".store"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a.pdf", "sub/B.PDF", "sub/deeper/c.pdf"]
    assert find_pdfs(tmp_path / "a.pdf") == [tmp_path / "a.pdf"]


# --------------------------------------------------------------------------- the store


def _cli(*args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([*prefix, sys.executable, "-m", "viewer.cli", *args], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def _without_privileges() -> tuple[str, ...]:
    """Run as root with every capability dropped, so file permissions apply."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return ("setpriv", "--bounding-set", "-all", "--inh-caps", "-all")


@pytest.mark.parametrize("content", ["null", "[1, 2, 3]", '"hello"', "folder"])
def test_damaged_entries_are_redone(scan_pdf: PdfMaker, tmp_path: Path, store: OcrStore,
                                    content: str) -> None:
    docs = tmp_path / "docs"
    scan = scan_pdf("a.pdf", folder=docs)
    target = store.path(file_hash(scan), 0)
    target.parent.mkdir(parents=True)
    if content == "folder":
        target.mkdir()
    else:
        target.write_text(content)
    code, out = run(docs, store)
    assert code == EXIT_OK, out
    assert "1 page(s) to OCR" in out and "Done: 1 page(s) OCRed and stored" in out
    assert store.load(file_hash(scan), 0) is not None


def test_a_store_that_cannot_be_written_stops_prepare_before_any_page(
        scan_pdf: PdfMaker, tmp_path: Path) -> None:
    prefix = _without_privileges()
    docs = tmp_path / "docs"
    scan_pdf("a.pdf", folder=docs)
    (tmp_path / "file").write_text("x")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    for root, said in ((tmp_path / "file" / "store", "a part of the path is a file"),
                       (locked, "permission denied")):
        out = _cli("prepare", str(docs), "--store", str(root), *FAST, prefix=prefix)
        assert out.returncode == EXIT_SETUP, out.stderr
        assert f"the OCR store {root} cannot be written: {said}" in out.stderr
        assert "Traceback" not in out.stderr and "OCRed" not in out.stderr
    # emptying a store that cannot be changed is a message too
    store = OcrStore(tmp_path / "ro")
    other = scan_pdf("b.pdf", folder=tmp_path / "other")
    ocr_page(other, 0, dpi=150, store=store, isolate=False)
    for folder in [store.root, *store.root.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o555)
    try:
        out = _cli("store", "--store", str(store.root), "--forget-all", prefix=prefix)
        assert out.returncode == EXIT_SETUP and "Traceback" not in out.stderr
        assert "cannot remove entries from the OCR store" in out.stderr
        assert "permission denied" in out.stderr and "Forgot 0 documents" in out.stdout
        assert len(store.documents()) == 1  # nothing claimed that was not done
    finally:
        for folder in [store.root, *store.root.rglob("*")]:
            if folder.is_dir():
                folder.chmod(0o755)


def test_a_store_that_stops_taking_entries_stops_the_run_and_keeps_what_was_written(
        scan_pdf: PdfMaker, tmp_path: Path, store: OcrStore) -> None:
    prefix = _without_privileges()
    docs = tmp_path / "docs"
    scan_pdf("a.pdf", folder=docs, pages=2)
    late = scan_pdf("b.pdf", folder=docs, lines=("Another document here", "with words"))
    shut = store.path(file_hash(late), 0).parent
    shut.mkdir(parents=True)
    shut.chmod(0o555)  # b.pdf's entries cannot be written; a.pdf's can
    try:
        out = _cli("prepare", str(docs), "--store", str(store.root), "--dpi", "150",
                   "--jobs", "1", prefix=prefix)
    finally:
        shut.chmod(0o755)
    assert out.returncode == EXIT_SOME_FAILED, out.stderr
    assert "Stopped: cannot write to the OCR store" in out.stderr
    assert "permission denied" in out.stderr and "Traceback" not in out.stderr
    assert "2 page(s) OCRed and stored" in out.stderr
    assert len(all_entries(store)) == 2
