"""Exports of the demo, before and after a review, shared by the output tests."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from viewer.export.run import export
from viewer.state.exports import ExportTargets
from viewer.state.files import demo_path
from viewer.state.records import Citations

from .helpers import checked, decide


@dataclass(frozen=True)
class Exported:
    report: dict[str, Any]
    citations: Citations
    cite: Path
    html: Path
    csv: Path
    annotations: Path


# The review a person might make of the demo: a confirmation, a wrong copy, a word
# relocation, a quote confirmed absent, and support decisions, one with a hostile note.
HOSTILE = "<script>alert('x')</script> & <img src=http://evil.example/x.png>"
PLACEMENTS = {
    "c1#0": {"placement": "confirmed", "note": "matches the medical section"},
    "c8#0": {"placement": "wrong_place", "note": HOSTILE},
    "c9#0": {"placement": "absent", "note": "no such class on the schedule"},
}
SUPPORTS = {"c1": {"support": "supported"}, "c9": {"support": "not_supported",
                                                    "note": "=cmd|' /C calc'!A0"}}


def _export(tmp: Path, reviewed: bool) -> Exported:
    folder = tmp / ("reviewed" if reviewed else "plain")
    shutil.copytree(demo_path().parent, folder, ignore=shutil.ignore_patterns("__*"))
    cite = folder / "demo.cite"
    report, citations = checked(cite)
    if reviewed:
        report = decide(report, PLACEMENTS, SUPPORTS)
    out = folder / "out"
    out.mkdir()
    t = ExportTargets(html=out / "r.html", csv=out / "r.csv", annotations=out / "r.jsonld")
    export(report, citations_path=cite, citations=citations, targets=t)
    assert t.html and t.csv and t.annotations
    return Exported(report, citations, cite, t.html, t.csv, t.annotations)


@pytest.fixture(scope="module", params=[False, True], ids=["undecided", "reviewed"])
def demo_export(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                ) -> Exported:
    return _export(tmp_path_factory.mktemp("demo"), request.param)


@pytest.fixture(scope="module")
def reviewed_export(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    return _export(tmp_path_factory.mktemp("demo"), True)


@pytest.fixture(scope="module")
def plain_export(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """The demo exported before any decision."""
    return _export(tmp_path_factory.mktemp("demo"), False)
