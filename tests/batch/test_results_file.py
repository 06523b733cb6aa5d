"""The results file: lines written whole, a torn last line cut off on the next open, and
documents kept open by a batch worker giving the very report a fresh check gives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from matcher.check import check_citations
from matcher.citations import load_citations
from matcher.open_documents import OpenDocuments
from tests.batch_corpus import write_citations_files
from viewer.commands.batch.results import ResultsFile

lines_st = st.lists(st.fixed_dictionaries({
    "citations": st.text(min_size=1, max_size=20),
    "sha256": st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
    "exit": st.sampled_from([0, 1, 2])}), min_size=1, max_size=6)
REACHED = {"torn": 0}


@settings(max_examples=60, deadline=None)
@given(lines=lines_st, cut=st.integers(min_value=1, max_value=400))
def test_a_torn_last_line_is_cut_and_the_file_goes_on_whole(tmp_path_factory, lines, cut) -> None:
    path = tmp_path_factory.mktemp("r") / "r.jsonl"
    first = ResultsFile(path)
    first.open()
    for line in lines:
        first.append(line)
    first.close()
    data = path.read_bytes()
    cut = min(cut, len(data) - 1)
    path.write_bytes(data[:-cut])  # a crash mid-write of some line
    whole = data[:-cut][:data[:-cut].rfind(b"\n") + 1]
    again = ResultsFile(path)
    settled = again.open()
    if settled.torn:
        REACHED["torn"] += 1
    kept = [json.loads(x) for x in whole.splitlines()]
    assert settled.count == len(kept)
    assert settled.lines == {(x["citations"], x["sha256"]): x for x in kept}
    again.append(lines[0])
    again.close()
    assert [json.loads(x) for x in path.read_bytes().splitlines()] == [*kept, lines[0]]


def test_the_torn_examples_were_reached() -> None:
    # Runs after the property above in file order: most of its examples cut mid-line.
    assert REACHED["torn"] >= 20, REACHED


def test_documents_kept_open_give_the_reports_of_a_fresh_check(tmp_path: Path,
                                                              corpus: Path) -> None:
    files = write_citations_files(tmp_path / "in", corpus, 8, seed=4,
                                  documents=("form_irs_7004.pdf", "form_irs_940b.pdf"))
    documents = OpenDocuments(ocr=None)
    for path in files:
        cf = load_citations(path)
        assert (check_citations(cf, path, documents=documents).model_dump()
                == check_citations(cf, path).model_dump())
    assert documents.opened == 2 and documents.reused >= len(files) - 2

    # The same path with other bytes is another document: opened afresh.
    moved = tmp_path / "policy.pdf"
    shutil.copy(corpus / "form_irs_7004.pdf", moved)
    cite = tmp_path / "one.cite"
    cite.write_text(json.dumps({"documents": [{"id": "p", "path": str(moved)}], "claims": [
        {"id": "c1", "evidence": [{"document": "p", "quote": "Application for Automatic "
                                                         "Extension of Time To File"}]}]}))
    first = check_citations(load_citations(cite), cite, documents=documents)
    shutil.copy(corpus / "form_irs_940b.pdf", moved)
    second = check_citations(load_citations(cite), cite, documents=documents)
    assert second.model_dump() == check_citations(load_citations(cite), cite).model_dump()
    assert first.claims[0].evidence[0].status == "located"
    assert second.claims[0].evidence[0].status != "located"
    documents.close()


@settings(max_examples=100, deadline=None)
@given(sets=st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=12),
       workers=st.integers(min_value=1, max_value=6))
def test_the_plan_checks_every_file_once_a_document_set_on_one_worker(sets, workers) -> None:
    from viewer.commands.batch.inputs import Input
    from viewer.commands.batch.run import MAX_CHUNK_FILES, plan

    inputs = [Input(f"/a/{s}-{k}.cite", None, (f"/docs/{s}.pdf",))
              for s, n in enumerate(sets) for k in range(n)]
    chunks = plan(inputs, workers)
    paths = [p for _w, c in chunks for p in c]
    assert sorted(paths) == sorted(i.path for i in inputs)  # each file once
    fair = -(-len(inputs) // workers)
    for s, n in enumerate(sets):
        mine = [(w, c) for w, c in chunks if c[0].startswith(f"/a/{s}-")]
        assert all(all(p.startswith(f"/a/{s}-") for p in c) for _w, c in mine)  # one set each
        if n <= fair:
            assert len({w for w, _c in mine}) == 1  # the set's documents opened once
    assert all(len(c) <= MAX_CHUNK_FILES and 0 <= w < workers for w, c in chunks)
