"""Inputs that once ended in a traceback: each is now exit 2 with the file and the reason —
review and output paths the system refuses, ``--max-size inf``, a lone surrogate in a
review file, a review's rectangles off the page; and check's table shows a claim id's
control characters instead of letting the terminal act on them."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from tests.export.test_export_cli import sidecar
from tests.test_cli_hardening import citeview, without_privileges
from viewer.state.files import demo_path

LONG = "n" * 300  # a file name over the 255-byte limit


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    folder = tmp_path / "case"
    shutil.copytree(demo_path().parent, folder, ignore=shutil.ignore_patterns("__*"))
    return folder / "demo.cite"


def refused(done: object, *said: str) -> None:
    assert done.returncode == 2, done.stderr  # type: ignore[attr-defined]
    stderr = done.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in stderr and all(s in stderr for s in said), stderr


@pytest.mark.parametrize("size", ["inf", "-inf", "nan", "0", "-3"])
def test_max_size_that_is_no_size_is_a_usage_error(demo: Path, size: str) -> None:
    for command in (("check", str(demo)), ("export", str(demo), "--csv", "x.csv")):
        refused(citeview(*command, f"--max-size={size}"), "--max-size needs a number of MB")


def test_a_review_or_output_name_over_255_bytes_is_named(demo: Path) -> None:
    review = demo.parent / f"{LONG}.json"
    for command in (("check", str(demo)), ("export", str(demo), "--csv", str(demo) + ".csv")):
        refused(citeview(*command, "--review", str(review)), str(review),
                "a name in the path is too long")
    for option in ("--pdf", "--html", "--csv"):
        out = demo.parent / f"{LONG}.out"
        refused(citeview("export", str(demo), option, str(out)), str(out),
                "a name in the path is too long", "nothing was written")


def test_a_review_or_output_in_a_locked_folder_is_named(demo: Path) -> None:
    prefix = without_privileges()
    locked = demo.parent / "locked"
    locked.mkdir()
    sidecar(locked / "r.review.json")
    locked.chmod(0)
    try:
        refused(citeview("check", str(demo), "--review", str(locked / "r.review.json"),
                         prefix=prefix), str(locked / "r.review.json"), "permission denied")
        done = citeview("export", str(demo), "--csv", str(demo.parent / "t.csv"), "--pdf",
                        str(locked / "copy.pdf"), prefix=prefix)
        refused(done, str(locked / "copy.pdf"), "permission denied", "nothing was written")
        assert not (demo.parent / "t.csv").exists() and done.stdout == ""
    finally:
        locked.chmod(0o700)
    assert sorted(p.name for p in locked.iterdir()) == ["r.review.json"]


@pytest.mark.parametrize("field", ["note", "reviewer"])
def test_a_lone_surrogate_in_a_review_is_named_not_a_crash(demo: Path, field: str) -> None:
    review = sidecar(demo.with_name("demo.review.json"))
    text = review.read_text().replace(
        f'"{field}": "{"checked" if field == "note" else "ana"}"', f'"{field}": "x\\ud800y"', 1)
    assert "\\ud800" in text
    review.write_text(text)
    for command in (("check", str(demo)), ("export", str(demo), "--html",
                                           str(demo.parent / "r.html"))):
        refused(citeview(*command), str(review), f"$.evidence[0].{field}",
                "lone surrogate")
    assert not (demo.parent / "r.html").exists()


@pytest.mark.parametrize("rects, said", [
    ([[0, 0, 1e300, 1e300]], "reach beyond page 1; cut to the page"),
    ([[0, 0, 1e18, 20]], "reach beyond page 1; cut to the page"),
    ([[5000, 5000, 6000, 6000]], "lie off page 1; not drawn"),
    ([[-300, -300, -200, -200]], "lie off page 1; not drawn"),
])
def test_relocated_rectangles_huge_or_off_the_page_are_cut_or_left_out(
        demo: Path, rects: list[list[float]], said: str) -> None:
    review = sidecar(demo.with_name("demo.review.json"), "relocated", page=1, rects=rects)
    outs = {o: demo.parent / f"r.{o}" for o in ("html", "csv", "pdf")}
    done = citeview("export", str(demo), *(a for o, p in outs.items()
                                           for a in (f"--{o}", str(p))))
    refused(done, str(review), "claim 'c2', evidence 1", said)
    assert done.stdout.split() == [str(p) for p in outs.values()]  # written all the same
    import pymupdf

    with pymupdf.open(outs["pdf"]) as doc:  # every highlight's corners on its page
        corners = [pymupdf.Point(p) for page in doc for a in page.annots()
                   for p in a.vertices or ()]
        w, h = doc[0].rect.width, doc[0].rect.height
        assert corners and all(0 <= p.x <= w and 0 <= p.y <= h for p in corners), corners


def test_the_check_table_shows_control_characters_in_ids_as_escapes(tmp_path: Path) -> None:
    data = json.loads(demo_path().read_text(encoding="utf-8"))
    data["claims"][0]["id"] = "c1\x1b[2K\r\x1b[32mlocated\x1b[0m\u202e"
    data["documents"][0]["path"] = str(demo_path().parent / "policy.pdf")
    cite = tmp_path / "hostile.cite"
    cite.write_text(json.dumps(data), encoding="utf-8")
    done = citeview("check", str(cite))
    assert "Traceback" not in done.stderr
    for stream in (done.stdout, done.stderr):
        assert not [c for c in stream if (ord(c) < 32 and c != "\n") or c == "\u202e"], stream
    assert "c1\\x1b[2K\\r\\x1b[32mlocated\\x1b[0m\\u202e" in done.stdout
    assert stat.S_ISREG(cite.stat().st_mode)
