"""The check process: what the window asks of it, prepared or not, cancelled, or gone.

Real processes, real PDFs and citations files, the real check; no Qt involved.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from viewer.checker import protocol as p
from viewer.checker.client import CheckClient
from viewer.checker.protocol import CheckerError, request_path
from viewer.checker.server import Server
from viewer.render import process as render_process
from viewer.state.documents import Inspection
from viewer.state.records import Citations, Report

from .helpers import paragraph_lines, text_pdf, write_citations


@pytest.fixture
def client() -> Iterator[CheckClient]:
    c = CheckClient()
    yield c
    c.stop()


@pytest.fixture
def cite(tmp_path: Path) -> Path:
    text_pdf(tmp_path / "policy.pdf", pages=3)
    lines = paragraph_lines(1, 40)
    claims = [{"id": f"c{i}", "text": f"claim {i}", "evidence": [
        {"document": "policy", "quote": f"{lines[i]} {lines[i + 1]}"}]} for i in range(0, 30, 3)]
    claims.append({"id": "made-up", "text": "invented", "evidence": [
        {"document": "policy", "quote": "The insured owns a purple submarine."}]})
    return write_citations(tmp_path / "claims.cite", "policy.pdf", claims)


class Counting(Server):
    """The real server, noting each piece of work it does."""

    def __init__(self, conn: Any) -> None:
        super().__init__(conn)
        self.done: list[str] = []

    def answer(self, request: p.Request[Any], rid: int) -> Any:
        self.done.append(type(request).__name__)
        return super().answer(request, rid)


def session(c: CheckClient, cite: Path, passwords: dict[str, str] | None = None
            ) -> tuple[Citations, list[Inspection], Report]:
    """What the window asks, in its order: open, inspect each document, check."""
    citations = c.open(cite)
    inspected = [c.inspect(d.path) for d in citations.documents]
    return citations, inspected, c.check(cite, passwords=passwords)


def test_prepared_answers_are_the_answers(client: CheckClient, cite: Path) -> None:
    client.prepare(cite)  # the window's requests arrive while, or after, it prepares
    prepared = session(client, cite)
    fresh = CheckClient()
    try:
        assert prepared == session(fresh, cite)
    finally:
        fresh.stop()
    report = prepared[2]
    assert [tuple(e.status for e in c.evidence) for c in report.claims] == \
        [("located",)] * 10 + [("not_located",)]


def test_requests_sent_before_their_answers_are_prepared_wait_for_them(cite: Path) -> None:
    # Everything is in the pipe before the server reads anything: each request arrives
    # while the preparing is still ahead of it, and must get the prepared answer.
    path = request_path(cite)
    doc = str(cite.parent.resolve() / "policy.pdf")
    ours, theirs = multiprocessing.Pipe()
    for msg in (p.Prepare(path), p.Call(1, p.Open(path)), p.Call(2, p.Inspect(doc)),
                p.Call(3, p.Check(path))):
        ours.send(msg)
    counting = Counting(theirs)
    server = threading.Thread(target=counting.run)
    server.start()
    replies = {}
    while len(replies) < 3:
        reply = ours.recv()
        if not isinstance(reply, p.Progressed):
            replies[reply.rid] = reply
    ours.send(None)
    server.join()
    fresh = CheckClient()
    try:
        opened, [inspected], checked = session(fresh, cite)
        assert replies == {1: p.Done(1, opened), 2: p.Done(2, inspected),
                           3: p.Done(3, checked)}
    finally:
        fresh.stop()
    assert counting.done == ["Open", "Inspect", "Check"]  # each once, by the preparing


def test_an_unforeseen_request_is_answered_for_itself(client: CheckClient, cite: Path,
                                                      tmp_path: Path) -> None:
    with pymupdf.open(tmp_path / "policy.pdf") as doc:
        doc.save(tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                 user_pw="secret", owner_pw="owner")
    locked = write_citations(tmp_path / "locked.cite", "locked.pdf", json.loads(
        cite.read_text())["claims"])
    client.prepare(locked)  # prepares a check without the password: of no use here
    _, [inspected], report = session(client, locked, {"policy": "secret"})
    assert inspected.state == "encrypted"
    assert report.summary.located == 10 and report.summary.not_located == 1


def test_a_bad_citations_file_is_a_plain_error(client: CheckClient, tmp_path: Path) -> None:
    bad = tmp_path / "broken.cite"
    bad.write_text('{"version": 1, "claims": [{"id": 5}]}')
    client.prepare(bad)
    with pytest.raises(CheckerError) as err:
        client.open(bad)
    assert "broken.cite" in str(err.value) and "claims[0].id" in str(err.value)
    assert client.is_alive()  # and it goes on serving
    assert client.inspect(tmp_path / "none.pdf").state == "missing"


def test_a_cancel_waiting_before_a_check_stops_it_before_any_item(cite: Path) -> None:
    ours, theirs = multiprocessing.Pipe()
    server = Server(theirs)
    server.open(0, p.Open(request_path(cite)))
    ours.send(p.Call(8, p.Inspect("x.pdf")))  # arrives meanwhile: waits its turn
    ours.send(p.Cancel(7))
    report = server.check(7, p.Check(request_path(cite)))
    assert all(c.evidence == () for c in report.claims)
    assert [m.rid for m in server.backlog if isinstance(m, p.Call)] == [8]


def test_progress_reaches_the_caller(client: CheckClient, cite: Path) -> None:
    seen: list[tuple[int, int]] = []
    client.open(cite)
    client.check(cite, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(n, 11) for n in range(1, 12)]


def test_a_process_that_died_is_reported_not_waited_for(client: CheckClient, cite: Path
                                                       ) -> None:
    assert client.pid is not None
    os.kill(client.pid, signal.SIGKILL)
    with pytest.raises(CheckerError, match="stopped"):
        client.open(cite)
    assert not client.is_alive()


def test_the_window_reads_check_json_as_the_command_writes_it(client: CheckClient, cite: Path
                                                              ) -> None:
    out = subprocess.run([sys.executable, "-m", "viewer.cli", "check", str(cite), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    raw = json.loads(out.stdout)
    _, _, checked = session(client, cite)
    report = Report.from_json(raw)
    assert report == checked
    for claim, got in zip(raw["claims"], report.claims, strict=True):
        for ev, outcome in zip(claim["evidence"], got.evidence, strict=True):
            assert (outcome.status, outcome.page, outcome.score, outcome.found_text) == \
                (ev["status"], ev.get("page"), ev.get("score"), ev.get("found_text"))
            assert [list(r) for r in outcome.rects] == ev["rects"]
            assert (outcome.index, outcome.chunk_id, outcome.repaired_from,
                    outcome.char_span, outcome.text_match, outcome.document_path,
                    list(outcome.other_pages), list(outcome.alternatives)) == \
                (ev["index"], ev["chunk_id"], ev["repaired_from"], ev["char_span"],
                 ev["text_match"], ev["document_path"], ev["other_pages"],
                 ev["alternatives"])


def test_citations_record_resolves_documents_beside_the_file(client: CheckClient, cite: Path
                                                             ) -> None:
    citations = client.open(cite)
    assert [d.path for d in citations.documents] == [cite.parent.resolve() / "policy.pdf"]
    assert [c.id for c in citations.claims][-1] == "made-up"


def test_the_render_process_forked_by_the_check_process_serves_and_leaves(cite: Path) -> None:
    handoff = render_process.prestart()
    if handoff is None:
        pytest.skip("the render process is forked by the check process on Linux only")
    e = CheckClient(render=handoff)
    worker, conn = render_process.take()
    try:
        conn.send((1, str(cite.parent / "policy.pdf"), None, 0, 1.0, (0, 0, 100, 50)))
        kind, job, _x, _y, w, h, stride = conn.recv()
        assert (kind, job, w, h) == ("ok", 1, 100, 50) and len(conn.recv_bytes()) == h * stride
        with open(f"/proc/{worker.pid}/stat") as f:
            parent = int(f.read().rsplit(")", 1)[1].split()[1])
        assert parent == e.pid
    finally:
        e.stop()
    # The check process is known to have ended while the render process still runs: the
    # render process holds none of its descriptors (its end-of-life pipe above all).
    assert multiprocessing.connection.wait([e._process.sentinel], timeout=0)
    assert worker.is_alive()
    conn.send(None)
    worker.join(10)
    assert not worker.is_alive()


class OutlineDuringCheck(Counting):
    """The real server; as its prepared check starts, the window asks for an outline."""

    def __init__(self, conn: Any, window: Any, doc: str) -> None:
        super().__init__(conn)
        self.window, self.doc = window, doc
        self.check_done = threading.Event()

    def answer(self, request: p.Request[Any], rid: int) -> Any:
        if isinstance(request, p.Check) and rid == -1:
            self.window.send(p.Call(9, p.Outline(self.doc)))
        answer = super().answer(request, rid)
        if isinstance(request, p.Check):
            self.check_done.set()
        return answer


def test_an_outline_asked_for_while_preparing_neither_stops_nor_spoils_it(cite: Path) -> None:
    # The window shows the first page before the file is read, and its side panel asks
    # for that document's outline: once while the prepared check runs, once after it.
    path = request_path(cite)
    doc = str(cite.parent.resolve() / "policy.pdf")
    ours, theirs = multiprocessing.Pipe()
    ours.send(p.Prepare(path))
    ours.send(p.Call(1, p.Open(path)))
    counting = OutlineDuringCheck(theirs, ours, doc)
    server = threading.Thread(target=counting.run, daemon=True)
    server.start()
    replies: dict[int, Any] = {}

    def read_until(rid: int) -> None:
        while rid not in replies:
            reply = ours.recv()
            if not isinstance(reply, p.Progressed):
                replies[reply.rid] = reply

    try:
        read_until(1)
        assert counting.check_done.wait(60)  # the preparing went on to the end
        for msg in (p.Call(2, p.Inspect(doc)), p.Call(8, p.Outline(doc)),
                    p.Call(3, p.Check(path))):
            ours.send(msg)
        read_until(3)
    finally:
        ours.send(None)
        server.join(10)
    assert sorted(replies) == [1, 2, 3, 8, 9]
    assert all(isinstance(r, p.Done) for r in replies.values())
    assert replies[8].value == replies[9].value == ()  # text_pdf makes no bookmarks
    assert counting.done.count("Check") == 1  # the prepared check, answered as it was
