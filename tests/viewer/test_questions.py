"""The review's questions are data: a third question, added as one entry of the table,
gets its row of buttons in the panel, its keys and its Review menu commands, is saved in
the sidecar and read back, keeps a claim undecided (and in ``--fail-on undecided``'s
list) until it is answered, and the claims filter counts it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from viewer.state import claim_filter, questions
from viewer.state.questions import Question
from viewer.state.review_store import ReviewStore
from viewer.window.settings import Preferences
from viewer.window.shell import MainWindow

from .review_helpers import demo_window, press, sidecar

MakeWindow = Callable[..., MainWindow]
# The one entry a third question takes: whether the claim's wording is fair to the client.
FAIRNESS = Question(
    "fairness", "claim", "Fairness", ("fair", "misleading"),
    {"fair": "fairly worded", "misleading": "misleadingly worded"},
    {"fair": "O", "misleading": "Q"},
    {"fair": ("F&air Wording", "Fair"), "misleading": ("&Misleading Wording", "Misleading")})


@pytest.fixture
def third(monkeypatch: pytest.MonkeyPatch) -> Question:
    monkeypatch.setattr(questions, "QUESTIONS", (*questions.QUESTIONS, FAIRNESS))
    return FAIRNESS


def test_a_third_question_is_one_entry(qtbot: QtBot, make_window: MakeWindow, tmp_path: Path,
                                       prefs: Preferences, third: Question) -> None:
    prefs.set_reviewer("jdoe")
    cite, window = demo_window(qtbot, make_window, tmp_path, (1280, 800))
    ui, review_file = window.review, tmp_path / "demo.review.json"
    # The panel has its row, the menu its commands, each with its key.
    buttons = [a.iconText() for a in ui.actions.answers["fairness"].values()]
    assert buttons == ["Fair (O)", "Misleading (Q)"]
    assert ("Fairness", list(ui.actions.answers["fairness"].values())) in ui.panel.actions.rows
    assert {a.text() for a in ui.menu.actions()} >= {"F&air Wording", "&Misleading Wording"}

    ui.controller.model.auto_advance = True
    window.session.select("c8")
    press(qtbot, window, "C", "S")  # placement and support: c8 still waits for fairness
    state = ui.controller.review.claim_state("c8")
    assert state is not None and not state.decided and window.session.selected == "c8"
    assert "Fairness: undecided" in ui.panel.decisions.text()
    assert any("claim 'c8': undecided" == line
               for line in ui.controller.review.remaining(["undecided"]))
    press(qtbot, window, "Q")  # answered: c8 is decided and the queue moves on
    assert window.session.selected == "c9"
    assert ui.controller.review.claim_state("c8").decided  # type: ignore[union-attr]
    assert "claim 'c8': undecided" not in ui.controller.review.remaining(["undecided"])
    assert "c8" in claim_filter.visible(window.session.rows(), window.session.citations,
                                        ui.controller.review, "decided", "")

    [answer] = sidecar(review_file)["answers"]
    assert (answer["question"], answer["claim"], answer["value"], answer["reviewer"]) == (
        "fairness", "c8", "misleading", "jdoe")
    back = ReviewStore(review_file).load()  # and it reads back as it was written
    assert back.answers == ui.controller.review.decisions.answers
    exported(cite, review_file, tmp_path)  # check --json and the exports carry it

    press(qtbot, window, "Ctrl+Z")  # undone like any decision, kept in the history
    assert "answers" not in sidecar(review_file) or sidecar(review_file)["answers"] == []
    assert sidecar(review_file)["history"][-1]["entry"] == "answer"


def test_an_answer_to_a_question_this_version_does_not_ask_is_kept(tmp_path: Path) -> None:
    """A newer citeview's question: its answers are read, kept and written back."""
    from viewer.state.sidecar import dumps, loads

    raw = (b'{"version": 1, "citations": "a.cite", "evidence": [], "claims": [], "answers": '
           b'[{"question": "tone", "claim": "c1", "value": "calm", "subject_sha256": "'
           + b"1" * 64 + b'", "note": "", "reviewer": "x", "at": "", "new": 1}], '
           b'"history": []}')
    decisions = loads(raw)
    assert [a.value for a in decisions.answers.values()] == ["calm"]
    again = loads(dumps(decisions))
    assert again.answers == decisions.answers
    assert next(iter(again.answers.values())).extra == {"new": 1}


def exported(cite: Path, review_file: Path, tmp_path: Path) -> None:
    """``check --json`` (as an export reads it) has the answer; the CSV has a column for
    the question and the HTML report a line."""
    import csv
    import io

    from matcher.check import check_citations
    from matcher.citations import load_citations
    from viewer.checker.citations import citations_record
    from viewer.checker.review import load_review, reviewed_report
    from viewer.export.run import export
    from viewer.state.exports import ExportTargets

    cf = load_citations(cite)
    review, _ = load_review(cite, review_file)
    data = reviewed_report(check_citations(cf, cite), cf, cite, review)
    claims = {c["id"]: c for c in data["claims"]}
    assert claims["c8"]["answers"]["fairness"]["value"] == "misleading"
    assert claims["c9"]["answers"] == {}
    targets = ExportTargets(csv=tmp_path / "r.csv", html=tmp_path / "r.html",
                            pdf=tmp_path / "r.pdf", annotations=tmp_path / "r.jsonld")
    export(data, citations_path=cite, citations=citations_record(cf, cite), targets=targets)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text("utf-8-sig"))))
    assert {r["claim_id"]: r["fairness"] for r in rows}["c8"] == "misleading"
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<b>Fairness:</b> misleadingly worded by jdoe" in html
    import pymupdf

    with pymupdf.open(tmp_path / "r.pdf") as doc:
        notes = [a.info["content"] for page in doc for a in page.annots()
                 if a.info["content"].startswith("Claim c8")]
    assert notes and all("\nFairness: misleadingly worded by jdoe" in n for n in notes)
    import json

    annotations = json.loads((tmp_path / "r.jsonld").read_text(encoding="utf-8"))
    said = [[b["value"] for b in a["body"]] for a in annotations["first"]["items"]
            if a["body"][0]["value"].startswith("Claim c8")]
    assert said and all(any(v.startswith("Fairness: misleadingly worded by jdoe") for v in vs)
                        for vs in said)
