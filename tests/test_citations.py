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
