"""``citeview check`` with review decisions: ``decision`` and ``support`` in ``--json``, the
sidecar found beside the file or named with ``--review``, ``--fail-on`` exit statuses,
stale decisions, and a malformed sidecar refused with its file and JSON path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from viewer.state.review import sha256_text
from viewer.state.review_store import in_data_folder

REPO = Path(__file__).resolve().parents[1]


def citeview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def quote(cite: Path, claim: str, index: int = 0) -> str:
    data = json.loads(cite.read_text(encoding="utf-8"))
    return next(c for c in data["claims"] if c["id"] == claim)["evidence"][index]["quote"]


def pdf_hash(cite: Path) -> str:
    import hashlib

    return hashlib.sha256((cite.parent / "policy.pdf").read_bytes()).hexdigest()


def item(cite: Path, claim: str, placement: str, **kw: Any) -> dict[str, Any]:
    return {"claim": claim, "index": 0, "quote_sha256": sha256_text(quote(cite, claim)),
            "document_sha256": pdf_hash(cite), "placement": placement, "page": None,
            "rects": [], "note": "", "reviewer": "jdoe", "at": "2026-12-01T13:00:00Z", **kw}


def support(claim: str, value: str, note: str = "") -> dict[str, Any]:
    return {"claim": claim, "support": value, "note": note, "reviewer": "jdoe",
            "at": "2026-12-01T13:00:05Z"}


def write_review(path: Path, evidence: list[dict[str, Any]], claims: list[dict[str, Any]]
                 ) -> Path:
    path.write_text(json.dumps({"version": 1, "citations": "demo.cite", "evidence": evidence,
                                "claims": claims, "history": []}), encoding="utf-8")
    return path


@pytest.fixture
def reviewed(demo: Path) -> Path:
    """The demo with c8 (review) confirmed and supported, c9 (not located) confirmed
    absent and not supported, c13 and c14 (review: a changed figure) found in the wrong
    place, c11 (rejected) left undecided."""
    write_review(demo.with_name("demo.review.json"),
                 [item(demo, "c8", "confirmed", note="ok"),  # as written before rects
                  item(demo, "c9", "absent"), item(demo, "c13", "wrong_place"),
                  item(demo, "c14", "wrong_place")],
                 [support("c8", "supported"), support("c9", "not_supported", "invented")])
    return demo


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in report["claims"]}


def test_json_carries_decisions_and_keeps_the_matchers_own_result(reviewed: Path) -> None:
    plain = json.loads(citeview("check", str(reviewed), "--json",
                                "--review", str(reviewed.with_name("none.json"))).stdout
                       or "{}")
    assert plain == {}  # an explicit review file that does not exist is refused
    out = citeview("check", str(reviewed), "--json")
    assert out.returncode == 0, out.stderr
    claims = by_id(json.loads(out.stdout))
    c8 = claims["c8"]
    assert c8["evidence"][0]["decision"] == {
        "placement": "confirmed", "page": None, "rects": [], "text": None, "note": "ok",
        "reviewer": "jdoe", "at": "2026-12-01T13:00:00Z", "stale": False}
    assert c8["support"] == {"support": "supported", "note": "", "reviewer": "jdoe",
                             "at": "2026-12-01T13:00:05Z", "stale": False}
    # The matcher's own status, page and rects stay as it found them.
    assert c8["evidence"][0]["status"] == "review" and c8["evidence"][0]["page"] == 2
    assert c8["evidence"][0]["rects"]
    assert claims["c9"]["support"]["support"] == "not_supported"
    assert claims["c11"]["support"] is None and claims["c11"]["evidence"][0]["decision"] is None
    assert claims["c10"]["support"] is None and claims["c10"]["evidence"] == []
    assert claims["c13"]["evidence"][0]["decision"]["placement"] == "wrong_place"
    assert all(ev["decision"] is None for c in claims.values()
               if c["id"] not in ("c8", "c9", "c13", "c14") for ev in c["evidence"])


def test_without_a_review_every_decision_is_null(demo: Path) -> None:
    out = citeview("check", str(demo), "--json")
    assert out.returncode == 0, out.stderr
    claims = json.loads(out.stdout)["claims"]
    assert all(c["support"] is None for c in claims)
    assert all(ev["decision"] is None for c in claims for ev in c["evidence"])


@pytest.mark.parametrize("states,status", [
    (None, 0), ("undecided", 1), ("review", 0), ("not_located", 1), ("not_supported", 1),
    ("review,undecided", 1)])
def test_fail_on(reviewed: Path, states: str | None, status: int) -> None:
    out = citeview("check", str(reviewed), *(["--fail-on", states] if states else []))
    assert out.returncode == status, out.stderr
    if status == 1:
        assert "citeview: claim '" in out.stderr
    assert "decision" in out.stdout.splitlines()[0]  # the table's decision column


def test_fail_on_undecided_passes_once_everything_is_decided(reviewed: Path) -> None:
    review = reviewed.with_name("demo.review.json")
    data = json.loads(review.read_text())
    data["evidence"].append(item(reviewed, "c11", "absent"))
    data["claims"] += [support("c11", "uncitable"), support("c13", "not_supported"),
                       support("c14", "not_supported")]
    review.write_text(json.dumps(data))
    out = citeview("check", str(reviewed), "--fail-on", "undecided,review")
    assert out.returncode == 1  # c15's premium differs from its evidence: undecided
    assert out.stderr.strip() == "citeview: claim 'c15': undecided"
    data["claims"] += [support("c15", "not_supported")]
    review.write_text(json.dumps(data))
    out = citeview("check", str(reviewed), "--fail-on", "undecided,review")
    assert out.returncode == 0, out.stderr
    assert "review (" in out.stdout and "6 of 6 to review decided" in out.stdout
    # A differing claim decided is the reviewer's call; --fail-on differs still tells it.
    out = citeview("check", str(reviewed), "--fail-on", "differs")
    assert out.returncode == 1 and "claim 'c15'" in out.stderr


def test_missing_documents_outrank_fail_on(reviewed: Path) -> None:
    (reviewed.parent / "policy.pdf").unlink()
    out = citeview("check", str(reviewed), "--json", "--fail-on", "undecided")
    assert out.returncode == 2
    c8 = by_id(json.loads(out.stdout))["c8"]["evidence"][0]
    assert c8["decision"]["stale"] is True  # the document cannot be confirmed


def test_a_changed_quote_or_document_makes_decisions_stale(reviewed: Path) -> None:
    data = json.loads(reviewed.read_text(encoding="utf-8"))
    c8 = next(c for c in data["claims"] if c["id"] == "c8")
    c8["evidence"][0]["quote"] += " "  # the same words to the matcher, another quote
    reviewed.write_text(json.dumps(data), encoding="utf-8")
    out = citeview("check", str(reviewed), "--json", "--fail-on", "review")
    assert out.returncode == 1  # a stale decision settles nothing
    claims = by_id(json.loads(out.stdout))
    assert claims["c8"]["evidence"][0]["decision"]["stale"] is True
    assert claims["c8"]["support"]["stale"] is False  # no fingerprint: nothing to compare
    assert claims["c9"]["evidence"][0]["decision"]["stale"] is False
    with (reviewed.parent / "policy.pdf").open("ab") as fh:
        fh.write(b"%% a byte more\n")  # still a PDF, but not the one decided on
    claims = by_id(json.loads(citeview("check", str(reviewed), "--json").stdout))
    assert claims["c9"]["evidence"][0]["decision"]["stale"] is True


def test_review_named_explicitly_or_kept_in_the_data_folder(demo: Path, tmp_path: Path,
                                                             user_data_in_tmp: Path) -> None:
    elsewhere = write_review(tmp_path / "mine.json", [item(demo, "c9", "absent")], [])
    claims = by_id(json.loads(citeview("check", str(demo), "--json", "--review",
                                       str(elsewhere)).stdout))
    assert claims["c9"]["evidence"][0]["decision"]["placement"] == "absent"
    kept = in_data_folder(demo)
    kept.parent.mkdir(parents=True)
    write_review(kept, [item(demo, "c8", "wrong_place")], [])
    claims = by_id(json.loads(citeview("check", str(demo), "--json").stdout))
    assert claims["c8"]["evidence"][0]["decision"]["placement"] == "wrong_place"


def test_a_malformed_review_is_refused_with_its_file_and_json_path(demo: Path) -> None:
    review = write_review(demo.with_name("demo.review.json"),
                          [item(demo, "c8", "confirmd"), item(demo, "c9", "relocated")], [])
    out = citeview("check", str(demo), "--json")
    assert out.returncode == 2 and out.stdout == ""
    assert f"{review}: not a valid review file" in out.stderr
    assert "at $.evidence[0].placement" in out.stderr
    assert "at $.evidence[1]: a relocated item needs its page and rects" in out.stderr
    assert "Traceback" not in out.stderr
    missing = citeview("check", str(demo), "--review", str(demo.with_name("nope.json")))
    assert missing.returncode == 2 and "nope.json: not a valid review file" in missing.stderr


def test_bad_fail_on_is_a_usage_error(demo: Path) -> None:
    out = citeview("check", str(demo), "--fail-on", "undecided,maybe")
    assert out.returncode == 2 and "'maybe'" in out.stderr and "Traceback" not in out.stderr


def test_a_confirmation_of_the_words_drawn_holds_and_of_other_words_is_stale(
        demo: Path) -> None:
    """A confirmation records the page, rects and words it confirmed; ``check --json``
    carries them. Confirming the very words the check draws holds; a file confirming
    other words than the check draws today reads back stale, and the item needs a person
    again (``--fail-on undecided`` finds it)."""
    checked = by_id(json.loads(citeview("check", str(demo), "--json").stdout))
    ev = checked["c8"]["evidence"][0]
    assert ev["status"] == "review" and ev["rects"]
    seen = item(demo, "c8", "confirmed", page=ev["page"], rects=ev["rects"],
                text=ev["found_text"], document="policy")
    review = write_review(demo.with_name("demo.review.json"), [seen],
                          [support("c8", "supported")])
    out = citeview("check", str(demo), "--json")
    decision = by_id(json.loads(out.stdout))["c8"]["evidence"][0]["decision"]
    assert (decision["page"], decision["rects"], decision["text"], decision["stale"]) == (
        ev["page"], ev["rects"], ev["found_text"], False)
    assert "claim 'c8'" not in citeview("check", str(demo), "--fail-on", "undecided").stderr

    moved = [[r[0], r[1] + 40, r[2], r[3] + 40] for r in ev["rects"]]  # the lines below
    for other in ({"rects": moved}, {"page": ev["page"] + 1}):
        write_review(review, [{**seen, **other}], [support("c8", "supported")])
        out = citeview("check", str(demo), "--json")
        decision = by_id(json.loads(out.stdout))["c8"]["evidence"][0]["decision"]
        assert decision["stale"] is True, other
        failed = citeview("check", str(demo), "--fail-on", "undecided")
        assert failed.returncode == 1 and "claim 'c8': undecided" in failed.stderr
