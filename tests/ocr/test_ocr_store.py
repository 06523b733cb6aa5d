"""The OCR store: round trip, keyed by content, atomic writes, damaged entries ignored."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest
from conftest import PdfMaker
from hypothesis import given
from hypothesis import strategies as st

from matcher.document import PdfSource, file_hash
from matcher.ocr.boxes import COORD_DECIMALS, OcrPage, OcrWord
from matcher.ocr.cli import store_main
from matcher.ocr.store import STORE_ENV, OcrStore, OcrStoreError, default_store_dir

HASH = hashlib.sha256(b"some document").hexdigest()


def make_page(page_no: int = 0, *, lang: str = "eng", texts: tuple[str, ...] = ("alpha", "beta",
              "gamma", "delta")) -> OcrPage:
    words = tuple(
        OcrWord(10.0 + 40 * i, 20.0, 45.0 + 40 * i, 32.5, t, 1001, 1 + i // 2, 1 + i % 2,
                90.0 - i)
        for i, t in enumerate(texts)
    )
    return OcrPage(page_no, words, dpi=300, lang=lang, tesseract_version="5.3.0", rotation=90,
                   seconds=1.25, created="2026-01-01T00:00:00+00:00", extra={"pixels": [1, 2]})


def test_round_trip_keeps_words_points_and_provenance(store: OcrStore) -> None:
    page = make_page(3)
    path = store.save(HASH, page)
    assert path.name == "page-00003.json" and HASH in path.parts
    assert store.entry(HASH, 3) == page
    words = store.load(HASH, 3)
    assert words is not None
    assert words.source == "ocr" and words.number == 3
    assert [w.text for w in words.words] == ["alpha", "beta", "gamma", "delta"]
    assert words.words[1].rect == (50.0, 20.0, 85.0, 32.5)
    assert [len(line.words) for line in words.lines] == [2, 2]
    assert words.meta["dpi"] == 300 and words.meta["lang"] == "eng"
    assert words.meta["tesseract"] == "5.3.0" and words.meta["rotation"] == 90
    assert words.meta["confidences"] == (90.0, 89.0, 88.0, 87.0)


def test_absent_pages_and_languages(store: OcrStore) -> None:
    assert store.load(HASH, 0) is None
    assert not store.has(HASH, 0)
    store.save(HASH, make_page(0, lang="deu"))
    store.save(HASH, make_page(7))
    assert store.has(HASH, 0) and store.has(HASH, 0, lang="deu")
    assert not store.has(HASH, 0, lang="eng")
    assert store.pages(HASH) == [0, 7]
    assert store.pages(hashlib.sha256(b"other").hexdigest()) == []


def test_saving_again_replaces_the_entry(store: OcrStore) -> None:
    store.save(HASH, make_page(0, texts=("old", "words", "here")))
    store.save(HASH, make_page(0, texts=("new", "words", "here")))
    words = store.load(HASH, 0)
    assert words is not None and words.words[0].text == "new"
    assert [p.name for p in store.path(HASH, 0).parent.iterdir()] == ["page-00000.json"]


def test_a_leftover_temp_file_is_ignored(store: OcrStore) -> None:
    """What a Ctrl-C between writing and renaming would leave: readers never see it."""
    folder = store.path(HASH, 0).parent
    folder.mkdir(parents=True)
    half = json.dumps(make_page(0).to_json())[:40]
    (folder / ".page-00000.abc123.tmp").write_text(half)
    assert store.load(HASH, 0) is None
    assert not store.has(HASH, 0)
    assert store.pages(HASH) == []
    store.save(HASH, make_page(0))
    assert store.load(HASH, 0) is not None


def test_an_interrupted_save_keeps_the_old_entry_and_no_temp(
    store: OcrStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(HASH, make_page(0, texts=("kept", "entry", "here")))

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.save(HASH, make_page(0, texts=("lost", "entry", "here")))
    monkeypatch.undo()
    words = store.load(HASH, 0)
    assert words is not None and words.words[0].text == "kept"
    assert [p.name for p in store.path(HASH, 0).parent.iterdir()] == ["page-00000.json"]


@pytest.mark.parametrize("content", ["{not json", '{"format": 99, "words": []}', '{"format": 1}',
                                     '{"format": 1, "words": [[1, 2]]}'])
def test_damaged_or_foreign_entries_read_as_absent(store: OcrStore, content: str) -> None:
    target = store.path(HASH, 0)
    target.parent.mkdir(parents=True)
    target.write_text(content)
    assert store.entry(HASH, 0) is None and store.load(HASH, 0) is None
    assert not store.has(HASH, 0, lang="eng")


def test_keys_are_checked(store: OcrStore) -> None:
    with pytest.raises(ValueError):
        store.path("../../etc", 0)
    with pytest.raises(ValueError):
        store.path(HASH, -1)
    # Reading checks them too, though nothing is stored (it looks for no folder first).
    with pytest.raises(ValueError):
        store.entry("../../etc", 0)
    with pytest.raises(ValueError):
        store.load(HASH, -1)


def test_an_entry_saved_after_a_look_is_found_by_the_next(store: OcrStore) -> None:
    """No folder for the document is the answer of the moment, not remembered: a page
    another process (``citeview prepare``) stores meanwhile is read at the next look."""
    assert store.entry(HASH, 3) is None
    OcrStore(store.root).save(HASH, make_page(3))
    assert store.entry(HASH, 3) == make_page(3)
    assert store.entry(HASH, 4) is None  # the folder is there, that page is not


def test_default_location_honours_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "team-store"))
    assert default_store_dir() == tmp_path / "team-store"
    assert OcrStore.default().root == tmp_path / "team-store"
    monkeypatch.delenv(STORE_ENV)
    assert default_store_dir().name == "ocr" and "citeview" in default_store_dir().parts


def test_pdf_source_uses_stored_boxes_for_a_scanned_page(scan_pdf: PdfMaker,
                                                          store: OcrStore) -> None:
    """The matcher's page-words interface finds the boxes by content hash."""
    scan = scan_pdf()
    store.save(file_hash(scan), make_page(0))
    renamed = scan.rename(scan.with_name("renamed elsewhere.pdf"))
    with PdfSource(renamed, ocr=store) as source:
        words = source.page_words(0)
    assert words.source == "ocr" and words.words[0].text == "alpha"


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and s.strip())
_coord = st.floats(min_value=-5000, max_value=5000, allow_nan=False)


@given(st.lists(st.tuples(_coord, _coord, st.floats(0, 300), st.floats(0, 300), _text,
                          st.integers(0, 10**6), st.integers(0, 500),
                          st.floats(0, 100)), max_size=30))
def test_json_round_trip_is_exact_up_to_the_stored_precision(rows: list[tuple]) -> None:  # type: ignore[type-arg]
    words = tuple(OcrWord(x, y, x + w, y + h, t, b, ln, i, c)
                  for i, (x, y, w, h, t, b, ln, c) in enumerate(rows))
    page = OcrPage(0, words, 300, "eng", "5.3.0", 0, 0.5, "2026-01-01T00:00:00+00:00")
    back = OcrPage.from_json(json.loads(json.dumps(page.to_json())))
    tolerance = 10 ** -COORD_DECIMALS
    assert [w.text for w in back.words] == [w.text for w in words]
    for a, b in zip(back.words, words, strict=True):
        assert abs(a.x0 - b.x0) <= tolerance and abs(a.y1 - b.y1) <= tolerance
        assert (a.block_no, a.line_no, a.word_no) == (b.block_no, b.line_no, b.word_no)
        assert a.x0 <= a.x1 + tolerance and a.y0 <= a.y1 + tolerance


def test_documents_are_listed_with_their_pages_and_forgotten_whole(store: OcrStore) -> None:
    other = hashlib.sha256(b"another document").hexdigest()
    for n in (0, 2, 5):
        store.save(HASH, make_page(n))
    store.save(other, make_page(1))
    listed = {d.doc_hash: d for d in store.documents()}
    assert {h: d.pages for h, d in listed.items()} == {HASH: 3, other: 1}
    assert listed[HASH].nbytes == sum(store.path(HASH, n).stat().st_size for n in (0, 2, 5))
    store.forget(HASH)
    assert [d.doc_hash for d in store.documents()] == [other]
    assert store.load(HASH, 2) is None and store.load(other, 1) is not None
    assert not store.path(HASH, 0).parent.exists()
    store.forget(HASH)  # forgetting what is not there is no error


def test_the_store_command_forgets_only_what_is_old(store: OcrStore) -> None:
    old, fresh = HASH, hashlib.sha256(b"fresh").hexdigest()
    store.save(old, make_page(0))
    store.save(old, make_page(1))
    store.save(fresh, make_page(0))
    forty_days_ago = time.time() - 40 * 86400
    for n in (0, 1):
        os.utime(store.path(old, n), (forty_days_ago, forty_days_ago))
    out = io.StringIO()
    assert store_main(["--store", str(store.root)], stdout=out) == 0
    assert "2 documents, 3 pages" in out.getvalue()
    out = io.StringIO()
    assert store_main(["--store", str(store.root), "--forget-older-than", "30"],
                      stdout=out) == 0
    assert "Forgot 1 document, 2 pages" in out.getvalue()
    assert [d.doc_hash for d in store.documents()] == [fresh]
    assert store_main(["--store", str(store.root), "--forget-all"], stdout=io.StringIO()) == 0
    assert store.documents() == []


# --------------------------------------------------------------------------- damage


def _damage(store: OcrStore, how: str, outside: Path) -> Path:
    """Put a damaged entry where page 0 of HASH belongs."""
    target = store.path(HASH, 0)
    target.parent.mkdir(parents=True, exist_ok=True)
    if how in ("[1, 2, 3]", '"hello"', "null", "{}"):
        target.write_text(how)
    elif how == "folder":
        (target / "inside").mkdir(parents=True)
    elif how == "dangling link":
        target.symlink_to(outside / "nowhere.json")
    elif how == "link to an entry":
        outside.mkdir(exist_ok=True)
        (outside / "real.json").write_text(json.dumps(make_page(0).to_json()))
        target.symlink_to(outside / "real.json")
    return target


DAMAGE = ["[1, 2, 3]", '"hello"', "null", "{}", "folder", "dangling link", "link to an entry"]


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_entry_reads_as_absent_is_reported_and_replaced(
        store: OcrStore, tmp_path: Path, how: str) -> None:
    _damage(store, how, tmp_path / "outside")
    assert store.entry(HASH, 0) is None and store.load(HASH, 0) is None
    assert not store.has(HASH, 0) and not store.has(HASH, 0, lang="eng")
    [doc] = store.documents()
    assert (doc.pages, doc.damaged) == (0, 1)
    out = io.StringIO()
    assert store_main(["--store", str(store.root)], stdout=out) == 0
    assert "1 damaged entry" in out.getvalue() and "redone by the next prepare" in out.getvalue()
    store.save(HASH, make_page(0))  # what prepare does with it
    assert store.entry(HASH, 0) == make_page(0)
    assert store.path(HASH, 0).is_file() and not store.path(HASH, 0).is_symlink()
    assert [(d.pages, d.damaged) for d in store.documents()] == [(1, 0)]
    if how == "link to an entry":  # the file it pointed to was left alone
        assert json.loads((tmp_path / "outside" / "real.json").read_text()) == \
            make_page(0).to_json()


@pytest.mark.parametrize("level", [1, 2, 3])  # v1/ → v1/ab/ → v1/ab/<hash>/ is a link
def test_nothing_is_written_or_forgotten_through_a_linked_folder(
        store: OcrStore, tmp_path: Path, level: int) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not the store's")
    linked = store.path(HASH, 0).parents[3 - level]
    linked.parent.mkdir(parents=True, exist_ok=True)
    linked.symlink_to(outside, target_is_directory=True)
    assert store.entry(HASH, 0) is None and store.pages(HASH) == []
    store.save(HASH, make_page(0))
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]  # nothing written out there
    assert not linked.is_symlink() and store.entry(HASH, 0) == make_page(0)
    linked_again = store.path(HASH, 0).parent
    shutil.rmtree(linked_again)
    linked_again.symlink_to(outside, target_is_directory=True)
    out = io.StringIO()
    assert store_main(["--store", str(store.root), "--forget-all"], stdout=out) == 0
    assert not linked_again.exists() and not linked_again.is_symlink()
    assert [p.name for p in outside.iterdir()] == ["keep.txt"]  # forgetting left it alone
    assert store.documents() == []


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_entries_and_folders_follow_the_umask(store: OcrStore, umask: int) -> None:
    old = os.umask(umask)
    try:
        path = store.save(HASH, make_page(0))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o777 & ~umask


def test_a_store_that_cannot_be_written_is_a_plain_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for root, said in ((tmp_path / "file" / "store", "a part of the path is a file"),
                       (tmp_path / "file", "a file stands where a folder should be")):
        with pytest.raises(OcrStoreError, match=said):
            OcrStore(root).check_writable()
        with pytest.raises(OcrStoreError, match=said):
            OcrStore(root).save(HASH, make_page(0))
    OcrStore(tmp_path / "fine" / "store").check_writable()
    assert list((tmp_path / "fine" / "store").iterdir()) == []  # the probe is gone
