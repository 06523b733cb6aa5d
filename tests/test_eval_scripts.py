"""Smoke tests for the evaluation scripts and benchmarks, so they cannot rot.

Each script's ``main`` runs end to end on a tiny corpus of PDFs generated here (no
``../shared/corpus`` needed), and the verdict arithmetic the accuracy table rests on is
checked directly.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pymupdf
import pytest

from matcher.normalize import fold

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path[:0] = [str(SCRIPTS), str(BENCHMARKS)]

import bench_placement  # noqa: E402
import bench_span  # noqa: E402
import eval_placement  # noqa: E402
import eval_spans  # noqa: E402
import evalcases  # noqa: E402

_WORDS = ("policy insured premium coverage claim deductible dwelling liability "
          "endorsement beneficiary applicant underwriting renewal exclusion vehicle "
          "property damage limit occurrence notice period written company officer agent "
          "statement answer medical history physician flood theft fire water finance "
          "signature declaration effective office").split()


def _sentence(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(8, 12))
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words.insert(3, "self-insured")
    if rng.random() < 0.3:
        words.insert(2, "\u201cfinal\u201d")
    return " ".join(words) + "."


def _write_doc(path: Path, seed: int, pages: int = 2) -> Path:
    """Pages of short paragraphs of insurance-flavoured sentences, a repeated line on each."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page(width=612, height=792)
        y = 60.0
        for para in range(6):
            text = " ".join(_sentence(rng) for _ in range(3))
            lines, line = [], ""
            for w in text.split():
                if len(line) + len(w) > 80:
                    lines.append(line)
                    line = w
                else:
                    line = f"{line} {w}".strip()
            lines.append(line)
            if para % 2:
                lines.append("Any person who knowingly files a false claim commits fraud.")
            for ln in lines:
                page.insert_text((60, y), ln, fontsize=10, fontname="helv")
                y += 12.5
            y += 14
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    _write_doc(folder / "text_alpha.pdf", 1)
    _write_doc(folder / "text_beta.pdf", 2)
    _write_doc(folder / "form_gamma.pdf", 3)
    return folder


def test_eval_spans_runs(tiny_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_spans.main(["--corpus", str(tiny_corpus), "--limit", "4"]) == 0
    out = capsys.readouterr().out
    assert "exact-span accuracy" in out
    for kind in ("exact", "typography", "repair-one", "invented"):
        assert kind in out


def test_eval_spans_json(tiny_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_spans.main(["--corpus", str(tiny_corpus), "--limit", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cases"]
    for case in data["cases"]:
        if case["kind"] == "exact" and case["ok"]:
            assert case["found"] == case["quote"]


def test_eval_placement_runs(tiny_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--corpus", str(tiny_corpus), "--limit", "2", "--no-generated", "--show-wrong"]
    assert eval_placement.main(args) == 0
    out = capsys.readouterr().out
    assert "hinted" in out and "unhinted" in out
    assert "verbatim" in out and "fabricated-other" in out


def test_eval_placement_json(tiny_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--corpus", str(tiny_corpus), "--limit", "2", "--no-generated", "--json",
            "--kinds", "verbatim,repeated"]
    assert eval_placement.main(args) == 0
    data = json.loads(capsys.readouterr().out)
    kinds = {c["case"]["kind"] for c in data["cases"]}
    assert kinds <= {"verbatim", "repeated"} and "verbatim" in kinds
    for c in data["cases"]:
        assert set(c["outcomes"]) == {"hinted", "unhinted"}


def test_benchmarks_run(tiny_corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_span.main(["--corpus", str(tiny_corpus), "--chunks", "3", "--repeat", "1",
                            "--rounds", "1", "--scale", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "locate_span" in out and "same answer as the reference" in out
    assert "citeview check --json on that file" in out and "200 claims over a 4-page" in out
    pdf = str(tiny_corpus / "text_alpha.pdf")
    assert bench_placement.main(["--pdf", pdf, "--quotes", "4", "--baseline-quotes", "1"]) == 0
    out = capsys.readouterr().out
    assert "search_for" in out and "peak memory" in out


def test_missing_corpus_exits_with_a_message(tmp_path: Path) -> None:
    for main in (eval_spans.main, eval_placement.main):
        with pytest.raises(SystemExit) as exc:
            main(["--corpus", str(tmp_path / "absent")])
        assert "no corpus" in str(exc.value)


def test_typography_variants_differ_but_fold_equal() -> None:
    text = 'The insured\'s "final" deduct-ible: fire and flood\nfees apply'
    for seed in range(40):
        alt = evalcases.alter_typography(text, random.Random(seed))
        assert alt is not None
        changed, used = alt
        assert changed != text and used
        assert evalcases.ref_fold(changed) == evalcases.ref_fold(text)
        assert fold(changed).text == fold(text).text  # the matcher agrees they are the same


BOX = tuple[float, float, float, float]


def _row(y: float, n: int) -> list[BOX]:
    return [(10.0 + 30 * i, y, 35.0 + 30 * i, y + 10) for i in range(n)]


def test_judge_right_wrong_none() -> None:
    line_a, line_b = _row(100, 5), _row(200, 5)
    page = line_a + line_b
    truth = evalcases.Truth(0, (tuple(line_a),))
    covering_a = [(9.0, 99.0, 156.0, 111.0)]
    assert evalcases.judge(0, covering_a, page, [truth]).outcome == "right"
    assert evalcases.judge(1, covering_a, page, [truth]).detail == "other page"
    one_box_over_both = [(9.0, 99.0, 156.0, 211.0)]  # first word to last: covers line b too
    assert evalcases.judge(0, one_box_over_both, page, [truth]).outcome == "wrong"
    assert evalcases.judge(0, [], page, [truth]).outcome == "none"
    assert evalcases.judge(0, covering_a, page, []).detail == "placed"  # fabricated


def test_judge_needs_every_part_of_an_assembled_quote() -> None:
    line_a, line_b, line_c = _row(100, 5), _row(200, 5), _row(300, 5)
    page = line_a + line_b + line_c
    truth = evalcases.Truth(0, (tuple(line_a), tuple(line_c)))
    only_a = [(9.0, 99.0, 156.0, 111.0)]
    both = [*only_a, (9.0, 299.0, 156.0, 311.0)]
    assert evalcases.judge(0, only_a, page, [truth]).detail == "partial"
    assert evalcases.judge(0, both, page, [truth]).outcome == "right"


def test_judge_lets_dropped_words_be_highlighted() -> None:
    line = _row(100, 10)
    kept = tuple(line[:3] + line[6:])  # words 3–5 were dropped from the quote
    truth = evalcases.Truth(0, (kept,), tuple(line))
    whole_line = [(9.0, 99.0, 306.0, 111.0)]
    assert evalcases.judge(0, whole_line, line, [truth]).outcome == "right"
