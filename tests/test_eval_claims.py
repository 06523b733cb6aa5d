"""eval_claims runs end to end on a small corpus generated here, and its table adds up:
every misstated claim of a located quote is caught, no faithful one flagged."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.simplepdf import paragraph, write_pdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import eval_claims

LINES = [
    "The dwelling premium of $1,925.18 is due for 12 months from the effective date.",
    "The insurer will pay up to 3 claims a year and the deductible is $500 per claim.",
    "Water damage from a leak lasting 14 days is excluded from the coverage in full.",
    "The application was signed on 06/19/2025 and the policy will renew on its own.",
]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    for n in range(2):
        write_pdf(tmp_path / f"text_policy_{n}.pdf",
                  [paragraph(LINES[n:] + LINES[:n], y=100 + 20 * n)])
    return tmp_path


def test_eval_claims_runs_and_meets_its_targets(corpus: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_claims.main(["--corpus", str(corpus), "--quotes", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows["verbatim"]["checked"] >= 2
    assert rows["figure_changed"]["differs"] == rows["figure_changed"]["checked"] >= 2
    assert all(rows[k].get("differs", 0) == 0 for k in eval_claims.FAITHFUL)
    assert rows["verbatim"]["quotes with differing evidence statuses"] == 0
    assert eval_claims.main(["--corpus", str(corpus), "--quotes", "2"]) == 0
    out = capsys.readouterr().out
    assert "misstated caught" in out and "MISSED" not in out
