"""The W3C Web Annotations export: valid by the Working Group's own test suite, and read
back by a JSON-LD processor against the published context (served from disk)."""

from __future__ import annotations

import json
import shutil
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from tests.further_questions import FAIRNESS, SOURCE
from viewer.export.run import export
from viewer.export.webanno import CONTEXT, RFC3778
from viewer.state import questions
from viewer.state.exports import ExportTargets
from viewer.state.files import demo_path
from viewer.state.presentation import STALE_NOTE

from .conftest import Exported
from .helpers import AT, checked, decide, drawn

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "tests" / "data" / "w3c-web-annotation-tests"
CONTEXT_FILE = REPO / "tests" / "data" / "w3c-anno-context" / "anno.jsonld"
OA = "http://www.w3.org/ns/oa#"


def assertions(test: str) -> list[dict[str, Any]]:
    listed = json.loads((SUITE / test).read_text(encoding="utf-8"))["assertions"]
    return [json.loads((SUITE / a).read_text(encoding="utf-8")) for a in listed]


def failures(instance: dict[str, Any], test: str) -> list[str]:
    """The suite's error message for every assertion of ``test`` that ``instance`` fails."""
    jsonschema = pytest.importorskip("jsonschema")
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in SUITE.rglob("*.json")]
    registry = Registry().with_resources(
        (s["id"], Resource.from_contents(s, default_specification=DRAFT4)) for s in schemas)
    out = []
    for schema in assertions(test):
        assert schema["expectedResult"] == "valid"
        validator = jsonschema.Draft4Validator(schema, registry=registry)
        if not validator.is_valid(instance):
            out.append(f"{schema['id']}: {schema.get('errorMessage', '')}")
    return out


def collection(export: Exported) -> dict[str, Any]:
    return json.loads(export.annotations.read_text(encoding="utf-8"))


def test_the_suite_is_here_and_can_fail() -> None:
    """The schemas are read and do reject what the model forbids."""
    assert len(assertions("annotations/annotationMusts.test")) > 40
    bad = {"@context": CONTEXT, "type": "Annotation", "id": "not a uri",
           "body": "x", "bodyValue": "y"}
    assert len(failures(bad, "annotations/annotationMusts.test")) >= 2


def test_every_annotation_passes_the_models_musts(demo_export: Exported) -> None:
    anno = collection(demo_export)
    items = anno["first"]["items"]
    placed = sum(1 for c in demo_export.report["claims"] for e in c["evidence"]
                 if drawn(e))
    assert len(items) == anno["total"] == placed
    for item in items:
        assert failures(item, "annotations/annotationMusts.test") == []


def test_the_collection_and_its_page_pass_theirs(demo_export: Exported) -> None:
    anno = collection(demo_export)
    assert failures(anno, "collections/collectionMusts.test") == []
    assert failures(anno["first"], "collections/pages/pageMusts.test") == []


def _loader(url: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    assert url == CONTEXT, f"a JSON-LD document outside the export was asked for: {url}"
    return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url,
            "document": json.loads(CONTEXT_FILE.read_text(encoding="utf-8"))}


def test_sources_are_relative_unless_asked_absolute(reviewed_export: Exported) -> None:
    from viewer.export.webanno import source_iri

    anno = collection(reviewed_export)
    ids = {t["source"]["id"] for a in anno["first"]["items"]
           for t in (a["target"] if isinstance(a["target"], list) else [a["target"]])}
    assert ids and all(not i.startswith(("file:", "/")) for i in ids), ids
    assert "file:" not in json.dumps(anno)  # no absolute path anywhere in the file
    pdf = Path("/cases/a b/policy.pdf")
    assert source_iri(pdf, None) == "file:///cases/a%20b/policy.pdf"
    assert source_iri(pdf, Path("/cases/a b/policy.jsonld")) == "policy.pdf"


def test_read_back_by_a_json_ld_processor(reviewed_export: Exported) -> None:
    jsonld = pytest.importorskip("pyld.jsonld")
    anno = collection(reviewed_export)
    # The PDFs are named relative to the file (no absolute path in it); a processor
    # resolves them against where the file is.
    base = reviewed_export.annotations.absolute().as_uri()
    [expanded] = jsonld.expand(anno, {"documentLoader": _loader, "base": base})
    items = expanded["http://www.w3.org/ns/activitystreams#first"][0][
        "http://www.w3.org/ns/activitystreams#items"][0]["@list"]
    assert len(items) == anno["total"]
    by_id = {a["@id"]: a for a in items}
    for plain in anno["first"]["items"]:
        got = by_id[plain["id"]]
        assert got["@type"] == [OA + "Annotation"]
        assert got[OA + "motivatedBy"] == [{"@id": OA + "highlighting"}]
        purposes = [b[OA + "hasPurpose"][0]["@id"] for b in got[OA + "hasBody"]]
        assert purposes[:2] == [OA + "describing", OA + "assessing"]
        plain_targets = plain["target"] if isinstance(plain["target"], list) \
            else [plain["target"]]
        assert len(got[OA + "hasTarget"]) == len(plain_targets)
        for target, plain_target in zip(got[OA + "hasTarget"], plain_targets, strict=True):
            [source] = target[OA + "hasSource"]
            assert source["@id"].startswith("file:///")
            assert source["@id"].endswith("policy.pdf")
            assert Path(urllib.parse.unquote(source["@id"].removeprefix("file://"))
                        ).is_file()  # resolves to the very PDF
            assert source[OA + "canonical"][0]["@id"].startswith("ni:///sha-256;")
            fragment, refined = target[OA + "hasSelector"]
            assert fragment["http://purl.org/dc/terms/conformsTo"] == [{"@id": RFC3778}]
            value = fragment["http://www.w3.org/1999/02/22-rdf-syntax-ns#value"][0]["@value"]
            assert value.startswith("page=") and "&viewrect=" in value
            [quote] = refined[OA + "refinedBy"]
            assert quote["@type"] == [OA + "TextQuoteSelector"]
            exact = quote[OA + "exact"][0]["@value"]
            assert exact == plain_target["selector"][1]["refinedBy"]["exact"]
    # Every term the export uses is known to the context: nothing is dropped.
    dropped = jsonld.compact(expanded, CONTEXT, {"documentLoader": _loader})
    assert len(json.dumps(dropped)) > 0.9 * len(json.dumps(anno))


def test_text_quotes_come_from_the_page(plain_export: Exported) -> None:
    """The exact text is the page's words under the highlight, with 32 characters of the
    page before and after (fewer at the page's edge)."""
    import pymupdf

    anno = collection(plain_export)
    with pymupdf.open(plain_export.cite.parent / "policy.pdf") as doc:
        pages = {n + 1: " ".join(w[4] for w in doc[n].get_text("words"))
                 for n in range(doc.page_count)}
    several = 0
    for item in anno["first"]["items"]:
        targets = item["target"] if isinstance(item["target"], list) else [item["target"]]
        several += len(targets) > 1
        for target in targets:
            fragment, refined = target["selector"]
            page = int(fragment["value"].split("&")[0].removeprefix("page="))
            q = refined["refinedBy"]
            assert len(q["prefix"]) <= 32 and len(q["suffix"]) <= 32
            assert q["exact"] and q["exact"] in pages[page]
    # The signature block's quote pairs values printed above their labels: read in the
    # page's order, its words are two runs apart, so the annotation has two targets.
    assert several >= 1


def test_the_further_questions_answers_are_bodies(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each question asked is an ``assessing`` body of its item's annotation (undecided
    as the other exports say it), and its note a ``commenting`` one."""
    monkeypatch.setattr(questions, "QUESTIONS", (*questions.QUESTIONS, FAIRNESS, SOURCE))
    shutil.copytree(demo_path().parent, tmp_path / "demo", ignore=shutil.ignore_patterns("__*"))
    cite = tmp_path / "demo" / "demo.cite"
    report, citations = checked(cite)
    report = decide(report, {"c1#0": {"placement": "confirmed"}})
    claims = {c["id"]: c for c in report["claims"]}
    said = {"reviewer": "ana", "at": AT, "stale": False}
    claims["c1"]["answers"] = {
        "fairness": {**said, "value": "misleading", "note": "says always; the page: usually"},
        "source#0": {**said, "value": "primary", "note": "", "stale": True}}
    out = tmp_path / "r.jsonld"
    export(report, citations_path=cite, citations=citations,
           targets=ExportTargets(annotations=out))
    items = json.loads(out.read_text(encoding="utf-8"))["first"]["items"]

    def bodies(claim_id: str) -> list[tuple[str, str]]:
        [anno] = [a for a in items if a["body"][0]["value"].startswith(f"Claim {claim_id}:")]
        assert failures(anno, "annotations/annotationMusts.test") == []
        return [(b["purpose"], b["value"]) for b in anno["body"]]

    c1 = bodies("c1")
    fair = c1.index(("assessing", "Fairness: misleadingly worded by ana, "
                                  "2026-12-01 13:00 UTC."))
    assert c1[fair + 1] == ("commenting", "says always; the page: usually")
    assert ("assessing", f"Source: a primary source by ana, 2026-12-01 13:00 UTC "
                         f"({STALE_NOTE}).") in c1
    # A claim no one answered them for says so, as the HTML report and the PDF notes do.
    c2 = bodies("c2")
    assert ("assessing", "Fairness: undecided.") in c2
    assert ("assessing", "Source: undecided.") in c2
