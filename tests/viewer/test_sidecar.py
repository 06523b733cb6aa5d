"""The review sidecar, version 1: what is written reads back the same, keys a newer writer
added survive a rewrite, every problem of a bad file is named with its JSON path, saving
is atomic and refuses to overwrite another program's changes, merging keeps everything,
and the file lives beside its citations file unless that folder cannot be written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.state import review_store
from viewer.state.files import demo_path
from viewer.state.review import (
    PLACEMENTS,
    SUPPORTS,
    ClaimDecision,
    Decisions,
    EvidenceDecision,
    HistoryEntry,
)
from viewer.state.review_store import ConflictError, ReviewStore
from viewer.state.sidecar import SidecarError, dumps, loads, merge, to_json

hashes = st.binary(min_size=32, max_size=32).map(bytes.hex)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
times = st.sampled_from(["2026-12-01T13:00:00Z", "2026-12-01T13:00:05Z", ""])
finite = st.floats(-1e4, 1e4, allow_nan=False)


@st.composite
def rects(draw: st.DrawFn) -> tuple[float, float, float, float]:
    x0, y0 = draw(finite), draw(finite)
    return x0, y0, x0 + draw(st.floats(0, 500)), y0 + draw(st.floats(0, 50))


@st.composite
def evidence_decisions(draw: st.DrawFn) -> EvidenceDecision:
    placement = draw(st.sampled_from(PLACEMENTS))
    placed = placement == "relocated" or draw(st.booleans())
    return EvidenceDecision(
        draw(st.text(min_size=1, max_size=8)), draw(st.integers(0, 5)), placement,
        draw(hashes), draw(st.none() | hashes),
        draw(st.integers(1, 900)) if placed else None,
        tuple(draw(st.lists(rects(), min_size=1, max_size=3))) if placed else (),
        draw(texts), draw(texts), draw(times), draw(st.none() | st.just("policy")),
        draw(st.none() | texts), draw(st.dictionaries(st.sampled_from(["x_new", "score"]),
                                                      st.integers() | texts, max_size=2)))


@st.composite
def claim_decisions(draw: st.DrawFn) -> ClaimDecision:
    return ClaimDecision(draw(st.text(min_size=1, max_size=8)),
                         draw(st.sampled_from(SUPPORTS)), draw(st.none() | hashes),
                         draw(st.none() | st.lists(hashes, max_size=3).map(tuple)),
                         draw(texts), draw(texts), draw(times),
                         draw(st.dictionaries(st.just("confidence"), st.integers(), max_size=1)))


@st.composite
def decision_sets(draw: st.DrawFn) -> Decisions:
    d = Decisions(draw(texts), extra=draw(st.dictionaries(st.just("generator"), texts,
                                                          max_size=1)))
    for e in draw(st.lists(evidence_decisions(), max_size=4)):
        d.evidence[e.key] = e
    for c in draw(st.lists(claim_decisions(), max_size=3)):
        d.claims[c.claim] = c
    return d


@given(decision_sets())
def test_what_is_written_reads_back_the_same(decisions: Decisions) -> None:
    again = loads(dumps(decisions))
    assert again == decisions
    assert dumps(again) == dumps(decisions)


@given(decision_sets(), evidence_decisions())
def test_history_reads_back_as_the_json_it_was(decisions: Decisions,
                                               old: EvidenceDecision) -> None:
    decisions.history.append(HistoryEntry("changed", old, "jdoe", "2026-12-01T13:00:00Z"))
    again = loads(dumps(decisions))
    assert [json.dumps(h, sort_keys=True) for h in again.history] == \
        [json.dumps(h, sort_keys=True) for h in to_json(decisions)["history"]]
    assert again.history[0]["previous"]["placement"] == old.placement  # type: ignore[index]


GOOD = {"claim": "c1", "index": 0, "quote_sha256": "a" * 64, "document_sha256": None,
        "placement": "confirmed", "page": None, "rects": [], "note": "", "reviewer": "j",
        "at": "2026-12-01T13:00:00Z"}


def test_unknown_keys_survive_a_rewrite() -> None:
    raw = {"version": 1, "citations": "a.cite", "generator": {"name": "other", "v": 2},
           "evidence": [{**GOOD, "confidence": 0.9}],
           "claims": [{"claim": "c1", "support": "partly", "tags": ["x"]}],
           "history": [{"whatever": "an older writer said"}]}
    again = json.loads(dumps(loads(json.dumps(raw).encode())))
    assert again["generator"] == raw["generator"]
    assert again["evidence"][0]["confidence"] == 0.9
    assert again["claims"][0]["tags"] == ["x"]
    assert again["history"] == raw["history"]


def test_every_problem_is_named_with_its_json_path(tmp_path: Path) -> None:
    bad = {"version": 1, "evidence": [
        {**GOOD, "placement": "confrimed"},
        {**GOOD, "index": -1, "quote_sha256": "xyz"},
        {**GOOD, "placement": "relocated"},
        {**GOOD, "rects": [[5, 5, 1, 1]], "at": "yesterday"},
        "not an object"],
        "claims": [{"claim": "c1", "support": "maybe"}, {"support": "partly"}],
        "history": [3]}
    path = tmp_path / "a.review.json"
    with pytest.raises(SidecarError) as caught:
        loads(json.dumps(bad).encode(), path=path)
    where = [w for w, _ in caught.value.problems]
    assert where == ["$.evidence[0].placement", "$.evidence[1].index",
                     "$.evidence[1].quote_sha256", "$.evidence[2]", "$.evidence[3].at",
                     "$.evidence[3].rects[0]", "$.evidence[4]", "$.claims[0].support",
                     "$.claims[1].claim", "$.history[0]"]
    text = str(caught.value)
    assert text.startswith(f"{path}: not a valid review file")
    assert "'confrimed'" not in text and '"confrimed"' in text
    assert "a relocated item needs its page and rects" in text


@pytest.mark.parametrize("raw,problem", [
    (b"{", "not valid JSON"), (b"\xff\xfe", "not UTF-8"), (b"[]", "expected a JSON object"),
    (b'{"version": 2}', "version 2 is not supported"),
    (b'{"version": true}', "version true is not supported"),
    (json.dumps({"version": 1, "evidence": [GOOD, GOOD]}).encode(), "a second decision")])
def test_unusable_files(raw: bytes, problem: str) -> None:
    with pytest.raises(SidecarError, match=problem):
        loads(raw)


def decision(placement: str = "confirmed", at: str = "2026-12-01T13:00:00Z",
             index: int = 0) -> EvidenceDecision:
    return EvidenceDecision("c1", index, placement, "a" * 64, at=at)  # type: ignore[arg-type]


def saved_once(path: Path) -> tuple[ReviewStore, Decisions]:
    """A store at ``path`` that has saved one decision, and those decisions."""
    store = ReviewStore(path)
    d = Decisions("a.cite")
    d.evidence[("c1", 0)] = decision()
    store.save(d)
    return store, d


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "a.review.json"
    store, d = saved_once(path)
    assert loads(path.read_bytes()) == d
    # A temporary file a killed writer left (its pid is no longer running) is cleared.
    leftover = tmp_path / f".{path.name}.999999999.abcd.tmp"
    leftover.write_bytes(b"half")
    store.save(d)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.review.json"]


def test_a_file_changed_by_another_program_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "a.review.json"
    ours, d = saved_once(path)
    theirs = Decisions("a.cite")
    theirs.evidence[("c1", 0)] = decision("absent", at="2026-12-01T14:00:00Z")
    theirs.evidence[("c2", 0)] = EvidenceDecision("c2", 0, "confirmed", "b" * 64)
    path.write_bytes(dumps(theirs))  # another program (or another citeview) saves
    d.claims["c1"] = ClaimDecision("c1", "supported", at="2026-12-01T13:30:00Z")
    with pytest.raises(ConflictError, match="changed by another program"):
        ours.save(d)
    assert loads(path.read_bytes()) == theirs  # their work is untouched
    merged = ours.merge(d, by="jdoe", at="2026-12-01T15:00:00Z")
    on_disk = loads(path.read_bytes())
    assert to_json(on_disk) == to_json(merged)
    assert on_disk.evidence[("c1", 0)].placement == "absent"  # the later decision stays
    assert ("c2", 0) in on_disk.evidence and "c1" in on_disk.claims
    assert on_disk.history[-1]["action"] == "merged"  # type: ignore[index]
    assert on_disk.history[-1]["previous"]["placement"] == "confirmed"  # type: ignore[index]
    ours.save(merged)  # the store now knows the file as it wrote it


def test_merging_keeps_each_history_item_once() -> None:
    shared = {"entry": "claim", "claim": "c1", "action": "changed", "previous": {}}
    ours, theirs = Decisions(history=[dict(shared)]), Decisions(history=[dict(shared)])
    ours.history.append(HistoryEntry("removed", decision(), "j", "t"))
    assert len(merge(ours, theirs, by="j", at="t").history) == 2


def test_where_the_review_is_kept(tmp_path: Path, user_data_in_tmp: Path) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    cite = folder / "answer.cite"
    cite.write_text("{}")
    assert review_store.beside(cite) == folder / "answer.review.json"
    assert review_store.beside(folder / "x.json") == folder / "x.review.json"
    path, where, _ = review_store.location(cite)
    assert (path, where) == (folder / "answer.review.json", "beside")
    far = review_store.in_data_folder(cite)
    assert far.parent == review_store.review_folder()
    assert far.name.startswith("answer-") and far.name.endswith(".review.json")
    assert far != review_store.in_data_folder(tmp_path / "answer.cite")  # by full path
    path, where, why = review_store.location(demo_path())
    assert where == "data" and "demo" in why
    assert review_store.review_folder().is_relative_to(user_data_in_tmp)  # not the user's


def test_an_unwritable_folder_sends_the_review_to_the_data_folder(
        tmp_path: Path, readonly_folder: Path) -> None:
    cite = readonly_folder / "plain.cite"
    assert cite.is_file()
    path, where, why = review_store.location(cite)
    assert where == "data" and path == review_store.in_data_folder(cite)
    assert str(readonly_folder) in why
    # Once a review exists there, it is found there (also by check).
    d = Decisions("plain.cite")
    d.evidence[("c1", 0)] = decision()
    path.parent.mkdir(parents=True, exist_ok=True)
    ReviewStore(path).save(d)
    assert review_store.existing(cite) == path
    assert ReviewStore.for_citations(cite).load() == d


def test_a_read_only_folder_gives_a_plain_message_and_keeps_the_file(
        readonly_folder: Path) -> None:
    path = readonly_folder / "answer.review.json"
    before = path.read_bytes()
    store = ReviewStore(path)
    d = store.load()
    d.evidence[("c9", 0)] = decision(index=0)
    with pytest.raises(review_store.SaveError) as caught:
        store.save(d)
    assert caught.value.reason in ("the file system is read-only",
                                   "permission denied (a folder on the path cannot be "
                                   "searched, or the file cannot be written, by this user)")
    assert path.read_bytes() == before
    assert not [n for n in os.listdir(readonly_folder) if n.endswith(".tmp")]
