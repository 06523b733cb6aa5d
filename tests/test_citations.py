"""The citations file: valid files load, malformed ones name the file and every JSON path."""

import json
from pathlib import Path

import pytest

from matcher.citations import CitationsError, json_schema, load_citations, parse_citations

GOOD = {
    "version": 1,
    "documents": [{"id": "policy", "path": "policy.pdf"}],
    "chunks": [{"id": "policy#tok:0", "document": "policy", "text": "abc", "pages": [3]}],
    "claims": [
        {"id": "c1", "text": "Who signed?", "evidence": [
            {"chunk_id": "policy#tok:0", "quote": "abc"},
            {"document": "policy", "page": 3, "quote": "abc"},
            {"quote": "abc"}]},
        {"id": "c2", "text": "Uncited", "evidence": []},
    ],
}


def write(tmp_path: Path, data: object, name: str = "a.cite") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def problems(tmp_path: Path, data: object) -> list[tuple[str, str]]:
    with pytest.raises(CitationsError) as info:
        load_citations(write(tmp_path, data))
    assert str(tmp_path / "a.cite") in str(info.value)
    return info.value.problems


def test_good_file_loads_and_keeps_unknown_fields(tmp_path: Path) -> None:
    cf = load_citations(write(tmp_path, {**GOOD, "generator": "x"}, "a.json"))
    assert [c.id for c in cf.claims] == ["c1", "c2"]
    assert cf.claims[0].evidence[1].page == 3
    assert cf.model_extra == {"generator": "x"}


def test_json_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    [(where, msg)] = problems(tmp_path, '{"version": 1,\n "claims": [}')
    assert where == "$" and "line 2" in msg


@pytest.mark.parametrize(("mutate", "path"), [
    (lambda d: d["claims"][0]["evidence"][0].pop("quote"), "$.claims[0].evidence[0].quote"),
    (lambda d: d["claims"][0].update(id=7), "$.claims[0].id"),
    (lambda d: d["claims"][1].update(id="c1"), "$.claims[1].id"),
    (lambda d: d["chunks"][0].update(document="nope"), "$.chunks[0].document"),
    (lambda d: d["claims"][0]["evidence"][1].update(page=0), "$.claims[0].evidence[1].page"),
    (lambda d: d.update(version=2), "$.version"),
    (lambda d: d["documents"].append({"id": "policy", "path": "b.pdf"}), "$.documents[1].id"),
])
def test_each_problem_is_reported_at_its_json_path(tmp_path: Path, mutate, path: str) -> None:
    data = json.loads(json.dumps(GOOD))
    mutate(data)
    assert path in [w for w, _ in problems(tmp_path, data)]


def test_evidence_needs_a_document_when_several_are_listed(tmp_path: Path) -> None:
    data = json.loads(json.dumps(GOOD))
    data["documents"].append({"id": "rider", "path": "rider.pdf"})
    data["chunks"][0]["document"] = "policy"
    found = dict(problems(tmp_path, data))
    assert "$.claims[0].evidence[2]" in found


def test_missing_empty_and_binary_files_are_clear(tmp_path: Path) -> None:
    with pytest.raises(CitationsError, match="file not found"):
        load_citations(tmp_path / "none.cite")
    (tmp_path / "bin.cite").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CitationsError, match="UTF-8"):
        load_citations(tmp_path / "bin.cite")
    with pytest.raises(CitationsError):
        parse_citations([1, 2, 3])


def test_schema_describes_the_format() -> None:
    schema = json_schema()
    assert set(schema["properties"]) >= {"version", "documents", "chunks", "claims"}


def test_claims_without_an_id_get_c1_c2_in_file_order(tmp_path: Path) -> None:
    data = json.loads(json.dumps(GOOD))
    data["claims"] = [{"text": "first", "evidence": []}, {"id": "c2", "evidence": []},
                      {"text": "third", "evidence": []}, {"text": "fourth", "evidence": []}]
    cf = load_citations(write(tmp_path, data))
    assert [c.id for c in cf.claims] == ["c1", "c2", "c3", "c4"]  # c2 was taken: skipped
    assert cf.assigned_ids == ("c1", "c3", "c4")
    assert cf.model_copy(update={"documents": []}).assigned_ids == cf.assigned_ids
    claim_schema = json_schema()["$defs"]["Claim"]
    assert "id" not in claim_schema.get("required", []) and "evidence" not in \
        claim_schema.get("required", [])


def test_a_chunk_id_path_names_its_document(tmp_path: Path) -> None:
    docs = [{"id": "rates", "path": "pricing/2025-q3-rate-card.pdf"},
            {"id": "terms", "path": "terms#1.pdf"}]
    chunks = [{"id": "pricing/2025-q3-rate-card.pdf#tok:1200", "text": "a"},
              {"id": "./pricing/2025-q3-rate-card.pdf#tok:0", "text": "b"},
              {"id": "terms#1.pdf#p3", "text": "c"}]
    cf = parse_citations({"documents": docs, "chunks": chunks, "claims": []})
    assert [cf.chunk_document(c) for c in cf.chunks] == ["rates", "rates", "terms"]
    unknown = {"documents": docs, "chunks": [{"id": "other.pdf#tok:1", "text": "x"}],
               "claims": []}
    with pytest.raises(CitationsError) as info:
        parse_citations(unknown)
    assert [w for w, _ in info.value.problems] == ["$.chunks[0].document"]
    twice = {"documents": [*docs, {"id": "copy", "path": "pricing/2025-q3-rate-card.pdf"}],
             "chunks": chunks[:1], "claims": []}
    with pytest.raises(CitationsError):  # two documents have that path: it names neither
        parse_citations(twice)


@pytest.mark.parametrize(("data", "where"), [
    ({}, "$.claims"),
    ({"documents": [], "chunks": []}, "$.claims"),
    ({"version": True, "claims": []}, "$.version"),
    ({"version": 1.0, "claims": []}, "$.version"),
    ({"claims": [], "deep": json.loads("[" * 101 + "]" * 101)}, "$.deep" + "[0]" * 99),
    ({"claims": [{"id": "c1", "text": "a\ud800"}]}, "$.claims[0].text"),
    ({"claims": [], "extra": {"k\udfff": 1}}, "$.extra"),
])
def test_structural_problems_name_their_json_path(data: object, where: str) -> None:
    with pytest.raises(CitationsError) as info:
        parse_citations(data)
    assert where in [w for w, _ in info.value.problems]


def test_deep_but_reasonable_extras_still_load() -> None:
    cf = parse_citations({"claims": [], "deep": json.loads("[" * 95 + "]" * 95)})
    assert cf.model_dump_json()


def test_reading_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from matcher.citations import DEFAULT_SIZE_LIMIT, SIZE_LIMIT_ENV, size_limit
    path = write(tmp_path, GOOD)
    size = path.stat().st_size
    assert load_citations(path, max_bytes=size).claims  # exactly at the limit: read
    with pytest.raises(CitationsError, match=f"larger than the limit of {(size - 1) / 1e6:g} MB"):
        load_citations(path, max_bytes=size - 1)
    assert size_limit() == DEFAULT_SIZE_LIMIT
    monkeypatch.setenv(SIZE_LIMIT_ENV, "0.0001")
    assert size_limit() == 100
    with pytest.raises(CitationsError, match=SIZE_LIMIT_ENV):
        load_citations(path)
    monkeypatch.setenv(SIZE_LIMIT_ENV, "lots")  # not a number: the default stands
    assert size_limit() == DEFAULT_SIZE_LIMIT


def test_a_home_folder_that_does_not_exist_is_left_as_written(tmp_path: Path) -> None:
    from matcher.citations import DocumentRef, resolve_document_path
    ref = DocumentRef(id="d", path="~nosuchuser-citeview/x.pdf")
    got = resolve_document_path(tmp_path / "a.cite", ref)
    assert got == tmp_path / "~nosuchuser-citeview" / "x.pdf"
    home = resolve_document_path(tmp_path / "a.cite", DocumentRef(id="d", path="~/x.pdf"))
    assert home == Path.home() / "x.pdf"


def test_left_out_lists_are_fresh_and_the_schema_gives_them_no_default() -> None:
    """The models' default factories are plain functions (matcher.fresh), not the
    builtins: each file and claim still gets a list of its own, and the printed schema
    still shows no default for them."""
    a = parse_citations({"claims": [{"id": "x"}, {"id": "y"}]})
    b = parse_citations({"claims": []})
    assert a.documents == a.chunks == b.documents == []
    assert a.documents is not b.documents and a.chunks is not a.documents
    x, y = a.claims
    assert x.evidence == y.evidence == [] and x.evidence is not y.evidence
    schema = json_schema()
    for where in (schema["properties"]["documents"], schema["properties"]["chunks"],
                  schema["$defs"]["Claim"]["properties"]["evidence"]):
        assert "default" not in where and where["type"] == "array"


BUILD_MODELS = """
import sys, tokenize
import matcher.citations, matcher.report
from matcher.citations import parse_citations
parse_citations({"documents": [{"id": "d", "path": "d.pdf"}], "claims": [
    {"id": "c", "evidence": [{"document": "d", "quote": "q"}]}]})
print(tokenize._compile.cache_info().currsize)
"""


def test_building_the_models_compiles_no_tokenizer_expression() -> None:
    """pydantic reads a builtin default factory's signature by tokenizing its text form,
    which compiles the tokenizer's expressions first (~3 ms of each check process)."""
    import subprocess
    import sys
    import tokenize

    if not hasattr(getattr(tokenize, "_compile", None), "cache_info"):
        pytest.skip("this Python's tokenizer keeps no compiled expressions")
    repo = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", BUILD_MODELS], cwd=repo, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"
