"""Fuzzing ``citeview check`` with mutated citations files: every file gives exit status 0
or 2 with a readable answer, and never a traceback."""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.simplepdf import paragraph, write_pdf
from viewer.cli import main

LINES = ["The insurer will pay the reasonable cost of temporary repairs made",
         "solely to protect covered property from further damage after a loss."]
TEMPLATE: dict[str, Any] = {
    "version": 1,
    "documents": [{"id": "policy", "path": "policy.pdf"}],
    "chunks": [{"id": "policy#0", "document": "policy", "text": "\n".join(LINES),
                "pages": [1]}],
    "claims": [
        {"id": "c1", "text": "Repairs", "evidence": [
            {"chunk_id": "policy#0", "quote": LINES[0]},
            {"document": "policy", "page": 1, "quote": LINES[1]}]},
        {"id": "c2", "text": "Uncited", "evidence": []},
        {"text": "No id", "evidence": [{"quote": "reasonable cost"}]},
    ],
}

BAD_PATHS = ["missing.pdf", ".", "/dev/null", "/dev/zero", "policy.pdf/inner.pdf", "x" * 300,
             "~nosuchuser-citeview/policy.pdf", "answer.cite"]
# Any JSON value, lone surrogates and control characters included.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
    | st.text(st.characters(), max_size=20) | st.sampled_from(["", "policy", "policy#0",
                                                               "c1", "policy.pdf", "/"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``node`` (the root included)."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _places(v, (*path, i))
    return out


@st.composite
def citation_files(draw: st.DrawFn) -> bytes:
    """The template with a few values replaced, removed or added; sometimes the bytes
    themselves cut short or corrupted."""
    data: Any = copy.deepcopy(TEMPLATE)
    if draw(st.integers(0, 3)) == 0:  # a document that cannot be used
        data["documents"][0]["path"] = draw(st.sampled_from(BAD_PATHS))
    for _ in range(draw(st.integers(0, 4))):
        path = draw(st.sampled_from(_places(data)))
        value = draw(json_values)
        if not path:
            data = value if draw(st.booleans()) else data
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = value
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], value)
        else:
            parent[draw(st.text(max_size=8))] = value
    raw = json.dumps(data, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    corruption = draw(st.sampled_from(["none", "none", "none", "cut", "bytes"]))
    if corruption == "cut" and raw:
        raw = raw[:draw(st.integers(0, len(raw) - 1))]
    elif corruption == "bytes":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    return raw


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_pdf(tmp_path / "policy.pdf", [paragraph(LINES)])
    monkeypatch.setenv("CITEVIEW_OCR_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


seen: Counter[str] = Counter()


@settings(max_examples=int(os.environ.get("CITEVIEW_FUZZ_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=citation_files())
def test_every_citations_file_gives_exit_0_or_2(folder: Path, raw: bytes,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    path = folder / "answer.cite"
    path.write_bytes(raw)
    capfd.readouterr()
    code = main(["check", str(path), "--json", "--quiet"])  # an exception fails the test
    out, err = capfd.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in err
    if code == 0:
        seen["valid"] += 1
        report = json.loads(out)
        loaded = json.loads(raw.decode("utf-8-sig"))
        items = sum(len(c.get("evidence", [])) for c in loaded["claims"])
        counted = report["summary"]
        assert sum(counted[k] for k in ("located", "review", "not_located", "rejected")) \
            == items
        assert counted["uncited"] == sum(1 for c in loaded["claims"] if not c.get("evidence"))
        assert report["problems"] == [] and err == ""
    elif out:
        seen["unusable document"] += 1
        report = json.loads(out)  # the full report, and stderr names each problem
        assert report["problems"]
        assert err.splitlines() == [f"citeview: {p}" for p in report["problems"]]
    else:
        seen["unusable file"] += 1
        assert err.startswith(f"citeview: {path}: ") and "\n  at $" in err


def test_the_fuzzing_reached_every_outcome() -> None:
    """Runs after the fuzz test (file order): each way a file can end was generated."""
    if not seen:
        pytest.skip("run together with test_every_citations_file_gives_exit_0_or_2")
    assert set(seen) == {"valid", "unusable document", "unusable file"}, seen
