"""Answers of any shape: the import either gives a valid citations file or names the
problems with their JSON paths; it never fails otherwise (no traceback reaches anyone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matcher.citations import parse_citations
from tests.imports import answers as A
from viewer.imports import anthropic
from viewer.imports.model import ImportProblem, Inputs

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.text(max_size=12))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
CITATION = st.fixed_dictionaries(
    {}, optional={
        "type": st.sampled_from(["page_location", "char_location", "content_block_location",
                                 "web_search_result_location", "search_result_location",
                                 "other"]) | JSON,
        "cited_text": st.sampled_from(["Declarations", "Policy number AB-1234", ""]) | JSON,
        "document_index": st.integers(-1, 4) | JSON,
        "document_title": st.text(max_size=20) | st.none(),
        "start_page_number": st.integers(-1, 6) | JSON,
        "end_page_number": st.integers(-1, 6) | JSON,
        "start_char_index": st.integers(-1, 200), "end_char_index": st.integers(-1, 200),
        "start_block_index": st.integers(-1, 3), "end_block_index": st.integers(-1, 3)})
BLOCK = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "thinking"]) | JSON},
    optional={"text": st.text(max_size=30) | JSON,
              "citations": st.lists(CITATION | JSON, max_size=3) | st.none() | JSON})
ANSWER = st.fixed_dictionaries({"type": st.just("message") | JSON},
                               optional={"content": st.lists(BLOCK | JSON, max_size=5) | JSON})
SEEN = {"valid": 0, "refused": 0}


def test_any_answer_is_imported_or_refused_with_paths(tmp_path_factory: Any) -> None:
    docs = A.documents(Path(tmp_path_factory.mktemp("docs")))
    inputs = Inputs((docs["policy"], docs["schedule"], docs["notes"]))

    @settings(max_examples=300, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.one_of(ANSWER, st.lists(ANSWER, max_size=3), JSON))
    def run(data: Any) -> None:
        try:
            imported = anthropic.convert(data, path=Path("answer.json"), inputs=inputs,
                                         out=Path("answer.cite"))
        except ImportProblem as exc:
            SEEN["refused"] += 1
            assert exc.problems and all(where.startswith("$") for where, _ in exc.problems)
            return
        SEEN["valid"] += 1
        parse_citations(imported.citations)  # an ordinary citations file

    run()
    # Both outcomes were reached, many times each.
    assert SEEN["valid"] >= 20 and SEEN["refused"] >= 20, SEEN

