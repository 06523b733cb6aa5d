"""Reports kept between sessions (viewer.checker.stored): a reopened file's kept report is
the report a new check makes, whatever changed in between, and a reopen needs neither
pydantic nor the matcher's search code."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.document import file_hash
from matcher.ocr.boxes import OcrPage, OcrWord
from matcher.ocr.store import OcrStore
from viewer.checker import protocol as p
from viewer.checker import stored
from viewer.checker.server import Server
from viewer.state.records import Report

from .helpers import paragraph_lines, text_pdf

REPO = Path(__file__).resolve().parents[2]
SCAN_WORDS = "Flood damage is excluded from cover".split()


class Folder:
    """A citations file naming a text PDF and a scan (no text layer), the OCR store the
    check reads, and the kept reports."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pdf = text_pdf(root / "policy.pdf", pages=2)
        self.scan = root / "scan.pdf"
        self.blank_scan(self.scan)
        self.ocr = OcrStore(root / "ocr")
        self.reports = stored.ReportStore(root / "reports")
        self.cite = root / "claims.cite"
        self.figure = 0
        self.write_citations()

    @staticmethod
    def blank_scan(path: Path) -> None:
        doc = pymupdf.open()
        page = doc.new_page()
        page.draw_rect(pymupdf.Rect(72, 72, 300, 120), color=(0, 0, 0))  # no text
        doc.save(path)
        doc.close()

    def write_citations(self) -> None:
        lines = paragraph_lines(0, 40)
        quote = f"{lines[3]} {lines[4]}"
        if self.figure:
            quote = quote.replace(lines[3].split()[0], f"{self.figure}.", 1)
        data = {"version": 1,
                "documents": [{"id": "policy", "path": "policy.pdf"},
                              {"id": "scan", "path": "scan.pdf"}],
                "claims": [{"id": "c1", "text": "a claim", "evidence": [
                               {"document": "policy", "quote": quote}]},
                           {"id": "c2", "text": "flood", "evidence": [
                               {"document": "scan", "quote": " ".join(SCAN_WORDS)}]}]}
        self.cite.write_text(json.dumps(data), encoding="utf-8")

    def session(self, reports: stored.ReportStore) -> tuple[Report, bool]:
        """What the window asks of a new check process: the report, and whether it was
        the one kept."""
        server = Server(None)
        server.send = lambda msg: None  # type: ignore[method-assign]
        server.arrived = lambda rid: False  # type: ignore[method-assign]
        server.reopen = stored.Reopen(reports)
        path = str(self.cite)
        citations = server.open(0, p.Open(path))
        for doc in citations.documents:
            server.inspect(0, p.Inspect(str(doc.path)))
        return server.check(0, p.Check(path)), server.reopen.kept is not None

    # -- the changes a person's files go through between two sessions -------------------
    def change_quote(self) -> None:
        self.figure = (self.figure + 7) % 20
        self.write_citations()

    def touch_pdf(self) -> None:
        st_ = os.stat(self.pdf)
        os.utime(self.pdf, ns=(st_.st_atime_ns, st_.st_mtime_ns + 1_000_000))

    def rewrite_pdf(self) -> None:
        """Other words in a file of the same name, with the old file's times."""
        before = os.stat(self.pdf)
        doc = pymupdf.open(self.pdf)
        doc[0].insert_text((72, 770), "Endorsement 4 replaces this page", fontsize=8)
        doc.save(self.root / "new.pdf")
        doc.close()
        os.replace(self.root / "new.pdf", self.pdf)
        os.utime(self.pdf, ns=(before.st_atime_ns, before.st_mtime_ns))

    def remove_scan(self) -> None:
        if self.scan.exists():
            self.scan.rename(self.root / "away.pdf")

    def restore_scan(self) -> None:
        if (self.root / "away.pdf").exists():
            (self.root / "away.pdf").rename(self.scan)

    def recognise_scan(self) -> None:
        if not self.scan.exists():
            return
        words = tuple(OcrWord(72 + 50 * i, 90, 118 + 50 * i, 102, w, 1001, 1, i + 1, 95.0)
                      for i, w in enumerate(SCAN_WORDS))
        self.ocr.save(file_hash(self.scan),
                      OcrPage(0, words, 300, "eng", "5.3.0", 0, 1.0, "2026-12-02T00:00:00Z"))

    def forget_scan(self) -> None:
        if self.scan.exists():
            self.ocr.forget(file_hash(self.scan))


CHANGES: dict[str, Callable[[Folder], None]] = {
    "quote": Folder.change_quote, "touch": Folder.touch_pdf, "rewrite": Folder.rewrite_pdf,
    "remove scan": Folder.remove_scan, "restore scan": Folder.restore_scan,
    "recognise scan": Folder.recognise_scan, "forget scan": Folder.forget_scan,
}


def fresh(folder: Folder) -> Report:
    """The report a check makes now, nothing kept."""
    return folder.session(stored.ReportStore(None))[0]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(sorted(CHANGES)), min_size=1, max_size=5))
def test_a_kept_report_is_what_a_new_check_makes_after_any_changes(changes: list[str]
                                                                   ) -> None:
    with tempfile.TemporaryDirectory() as d:
        folder = Folder(Path(d))
        os.environ["CITEVIEW_OCR_STORE"] = str(folder.ocr.root)
        try:
            folder.session(folder.reports)  # the first session keeps its report
            for change in changes:
                CHANGES[change](folder)
                report, _kept = folder.session(folder.reports)
                assert report == fresh(folder), change
            report, kept = folder.session(folder.reports)
            assert kept, "nothing changed since the last session: its report is given"
            assert report == fresh(folder)
        finally:
            del os.environ["CITEVIEW_OCR_STORE"]


def test_each_kind_of_change_is_seen(tmp_path: Path) -> None:
    """Every change that alters the report is checked anew, and the new report kept."""
    folder = Folder(tmp_path)
    os.environ["CITEVIEW_OCR_STORE"] = str(folder.ocr.root)
    try:
        first, kept = folder.session(folder.reports)
        assert not kept
        assert folder.session(folder.reports) == (first, True)
        assert first.claims[1].evidence[0].status != "located"  # the scan is not read yet
        for change in ("quote", "touch", "rewrite", "recognise scan", "remove scan"):
            CHANGES[change](folder)
            report, kept = folder.session(folder.reports)
            assert not kept, change
            assert report == fresh(folder), change
            assert folder.session(folder.reports) == (report, True), change
        folder.restore_scan()
        recognised = folder.session(folder.reports)[0]
        assert recognised.claims[1].evidence[0].status == "located"  # its words stored
    finally:
        del os.environ["CITEVIEW_OCR_STORE"]


def test_what_is_not_kept(tmp_path: Path) -> None:
    """Documents moved by hand, passwords, a check cut short: nothing is kept."""
    folder = Folder(tmp_path)
    server = Server(None)
    server.send = lambda msg: None  # type: ignore[method-assign]
    server.reopen = stored.Reopen(folder.reports)
    path = str(folder.cite)
    server.arrived = lambda rid: False  # type: ignore[method-assign]
    server.open(0, p.Open(path))
    server.check(0, p.Check(path, moved=(("policy", str(folder.pdf)),)))
    server.check(0, p.Check(path, passwords=(("policy", "secret"),)))
    server.cancelled.add(5)
    server.arrived = lambda rid: True  # type: ignore[method-assign]
    server.check(5, p.Check(path))
    assert not (folder.reports.folder / f"v{stored.FORMAT}").exists()  # type: ignore[operator]
    assert folder.session(folder.reports)[1] is False


def test_a_damaged_or_planted_entry_is_a_miss_and_is_replaced(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    report = folder.session(folder.reports)[0]
    entry = folder.reports._file(str(folder.cite))
    assert entry is not None and entry.is_file()
    entry.write_bytes(b"not a pickle")
    assert folder.session(folder.reports) == (report, False)  # checked anew, kept again
    assert folder.session(folder.reports) == (report, True)
    planted = tmp_path / "planted"
    planted.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(planted)  # a link is never followed
    assert folder.session(folder.reports) == (report, False)
    entry.write_bytes(pickle.dumps({"format": stored.FORMAT}))  # not an entry
    assert folder.session(folder.reports) == (report, False)


def test_the_code_that_checked_is_part_of_the_key(tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    report = folder.session(folder.reports)[0]
    assert folder.session(folder.reports)[1]
    stored._CODE = "another version of citeview"
    try:
        assert folder.session(folder.reports) == (report, False)
    finally:
        stored._CODE = None


REOPEN = """
import json, sys
import viewer.checker.client
from viewer.checker import protocol as p, server
s = server.Server(None)
s.send = lambda msg: None
s.arrived = lambda rid: False
path = sys.argv[1]
citations = s.open(0, p.Open(path))
for doc in citations.documents:
    s.inspect(0, p.Inspect(str(doc.path)))
report = s.check(0, p.Check(path))
print(json.dumps({"kept": s.reopen.kept is not None, "summary": repr(report.summary),
                  "loaded": sorted(m for m in ("pydantic", "matcher.citations",
                                               "matcher.check", "rapidfuzz")
                                   if m in sys.modules)}))
"""


def test_a_reopen_in_a_new_process_needs_neither_pydantic_nor_the_search_code(
        tmp_path: Path) -> None:
    folder = Folder(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(REPO), CITEVIEW_REPORT_STORE=str(tmp_path / "r"),
               CITEVIEW_OCR_STORE=str(folder.ocr.root))

    def run() -> dict[str, object]:
        out = subprocess.run([sys.executable, "-c", REOPEN, str(folder.cite)], env=env,
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout)  # type: ignore[no-any-return]

    first, again = run(), run()
    assert first["kept"] is False and "pydantic" in first["loaded"]  # type: ignore[operator]
    assert again == {"kept": True, "summary": first["summary"], "loaded": []}
