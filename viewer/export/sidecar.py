"""The review an export reads: the decisions in the sidecar beside the citations file.

:func:`apply_review` is the one door from a sidecar to the report the exporters read
(the ``check --json`` document with a ``decision`` on each evidence item and a
``support`` on each claim). The reader behind it is deliberately small: it knows the
sidecar's version 1 well enough to export it (entries matched by claim id and index,
stale when a hash no longer matches) and nothing of saving, history or merging. The
review workflow's own sidecar module, once there, takes its place behind this function.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matcher.files import InputFileError, read_bounded

SIDECAR_SUFFIX = ".review.json"
SIDECAR_VERSION = 1
# A sidecar holds a few hundred bytes per decision; this is far beyond any real review.
MAX_SIDECAR_BYTES = 256 * 1_000_000
# The keys copied from a sidecar entry into the report's objects.
DECISION_KEYS = ("placement", "page", "rects", "note", "reviewer", "at")
SUPPORT_KEYS = ("support", "note", "reviewer", "at")


class ReviewError(Exception):
    """The sidecar cannot be used; the message names the file (and the JSON path)."""


def default_review_path(citations: Path) -> Path:
    """Where the review of ``NAME.cite`` (or ``NAME.json``) is kept: ``NAME.review.json``
    beside it."""
    return citations.with_name(citations.stem + SIDECAR_SUFFIX)


def apply_review(report_json: Mapping[str, Any], review_path: Path) -> dict[str, Any]:
    """The report with the sidecar's decisions added (``decision``/``support``: an
    object or null on every item and claim); the report given is not changed.

    The sidecar's minimal reader: to be replaced by the review workflow's own module.
    """
    sidecar = _read(review_path)
    evidence = {(e["claim"], e["index"]): e for e in sidecar["evidence"]}
    claims = {c["claim"]: c for c in sidecar["claims"]}
    report = copy.deepcopy(dict(report_json))
    hashes: dict[str, str | None] = {}
    for claim in report.get("claims", ()):
        entry = claims.get(claim["id"])
        claim["support"] = None if entry is None else {
            **{k: entry.get(k) for k in SUPPORT_KEYS}, "stale": False}
        for ev in claim.get("evidence", ()):
            got = evidence.get((claim["id"], ev.get("index")))
            ev["decision"] = None if got is None else {
                **{k: got.get(k) for k in DECISION_KEYS}, "stale": _stale(got, ev, hashes)}
    return report


def _stale(entry: Mapping[str, Any], ev: Mapping[str, Any], hashes: dict[str, str | None]
           ) -> bool:
    """A decision is stale when the quote's or the document's hash no longer matches."""
    quote_hash = entry.get("quote_sha256")
    if quote_hash and quote_hash != hashlib.sha256(
            str(ev.get("quote", "")).encode("utf-8")).hexdigest():
        return True
    doc_hash, path = entry.get("document_sha256"), ev.get("document_path")
    if doc_hash and path:
        if path not in hashes:
            hashes[path] = _file_hash(Path(path))
        return hashes[path] not in (None, doc_hash)
    return False


def _file_hash(path: Path) -> str | None:
    try:
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None  # a document that cannot be read is reported by the check


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_bounded(path, limit=MAX_SIDECAR_BYTES))
    except InputFileError as exc:
        raise ReviewError(f"{path}: {exc.reason}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReviewError(f"{path}: not a review file (not valid JSON: {exc})") from None
    if not isinstance(data, dict):
        raise ReviewError(f"{path}: not a review file (expected a JSON object)")
    if data.get("version") != SIDECAR_VERSION:
        raise ReviewError(f"{path}: $.version: expected {SIDECAR_VERSION}, "
                          f"found {data.get('version')!r}")
    for key, needed in (("evidence", ("claim", "index", "placement")),
                        ("claims", ("claim", "support"))):
        entries = data.get(key, [])
        if not isinstance(entries, list):
            raise ReviewError(f"{path}: $.{key}: expected a list")
        for i, entry in enumerate(entries):
            missing = [k for k in needed if not isinstance(entry, dict) or k not in entry]
            if missing:
                raise ReviewError(f"{path}: $.{key}[{i}]: missing {', '.join(missing)}")
        data[key] = entries
    return data
