"""The review sidecar, version 1 — a public format: decisions read with validation, written
as JSON, and two versions of one file merged.

``NAME.review.json`` beside ``NAME.cite`` holds a person's decisions about that citations
file (the README has the format). Reading collects every problem and names the file and
the JSON path of each (``$.evidence[3].placement: …``), so a hand-edited file can be fixed
in one pass; keys this version does not know are kept and written back unchanged, since a
newer citeview may have added them. Writing the file safely is :mod:`.review_store`'s job.

>>> decisions = parse(json.loads(dumps(Decisions("a.cite"))), path="a.review.json")
>>> decisions.citations, decisions.evidence, decisions.history
('a.cite', {}, [])
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from matcher.files import InvalidFileError, json_problem
from matcher.jsonshape import MAX_NESTING, structure_problems
from matcher.vocabulary import Rect

from .decisions import (
    Answer,
    ClaimDecision,
    Decisions,
    Entry,
    EvidenceDecision,
    HistoryEntry,
    Placement,
    Support,
)
from .questions import questions
from .review import PLACEMENTS, SUPPORTS

FORMAT_VERSION = 1
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
# The keys this version reads in each part; any other key is kept as it is.
TOP_KEYS = ("version", "citations", "documents", "evidence", "claims", "answers", "history")
EVIDENCE_KEYS = ("claim", "index", "quote_sha256", "document_sha256", "placement", "page",
                 "rects", "note", "reviewer", "at", "document", "text")
CLAIM_KEYS = ("claim", "support", "claim_sha256", "quotes_sha256", "note", "reviewer", "at")
ANSWER_KEYS = ("question", "claim", "index", "value", "subject_sha256", "note", "reviewer",
               "at")
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class SidecarError(InvalidFileError):
    """A review file that cannot be used: the file, and each problem with its JSON path."""

    what = "review file"


# -- writing ---------------------------------------------------------------------------
def evidence_json(d: EvidenceDecision) -> dict[str, Any]:
    out: dict[str, Any] = {
        "claim": d.claim, "index": d.index, "quote_sha256": d.quote_sha256,
        "document_sha256": d.document_sha256, "placement": d.placement, "page": d.page,
        "rects": [list(r) for r in d.rects], "note": d.note, "reviewer": d.reviewer,
        "at": d.at}
    if d.document is not None:
        out["document"] = d.document
    if d.text is not None:
        out["text"] = d.text
    return {**out, **{k: v for k, v in d.extra.items() if k not in out}}


def claim_json(d: ClaimDecision) -> dict[str, Any]:
    out: dict[str, Any] = {"claim": d.claim, "support": d.support}
    if d.claim_sha256 is not None:
        out["claim_sha256"] = d.claim_sha256
    if d.quotes_sha256 is not None:
        out["quotes_sha256"] = list(d.quotes_sha256)
    out.update(note=d.note, reviewer=d.reviewer, at=d.at)
    return {**out, **{k: v for k, v in d.extra.items() if k not in out}}


def answer_json(a: Answer) -> dict[str, Any]:
    out: dict[str, Any] = {"question": a.question, "claim": a.claim}
    if a.index is not None:
        out["index"] = a.index
    out.update(value=a.value, subject_sha256=a.subject_sha256, note=a.note,
               reviewer=a.reviewer, at=a.at)
    return {**out, **{k: v for k, v in a.extra.items() if k not in out}}


def entry_json(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, EvidenceDecision):
        return evidence_json(entry)
    return answer_json(entry) if isinstance(entry, Answer) else claim_json(entry)


def history_json(item: HistoryEntry | dict[str, Any]) -> dict[str, Any]:
    """A history item as written: which entry, what happened to it, its earlier value."""
    if isinstance(item, dict):
        return item
    previous = item.previous
    kind = "evidence" if isinstance(previous, EvidenceDecision) else \
        "answer" if isinstance(previous, Answer) else "claim"
    where: dict[str, Any] = {"entry": kind, "claim": previous.claim}
    if isinstance(previous, Answer):
        where["question"] = previous.question
    if isinstance(previous, EvidenceDecision | Answer) and previous.index is not None:
        where["index"] = previous.index
    return {**where, "action": item.action, "by": item.by, "at": item.at,
            "previous": entry_json(previous)}


def to_json(decisions: Decisions) -> dict[str, Any]:
    """The whole sidecar as JSON data, unknown top-level keys kept."""
    out: dict[str, Any] = {
        "version": FORMAT_VERSION, "citations": decisions.citations,
        **({"documents": dict(decisions.documents)} if decisions.documents else {}),
        "evidence": [evidence_json(d) for d in decisions.evidence.values()],
        "claims": [claim_json(d) for d in decisions.claims.values()],
        **({"answers": [answer_json(a) for a in decisions.answers.values()]}
           if decisions.answers else {}),
        "history": [history_json(h) for h in decisions.history]}
    return {**out, **{k: v for k, v in decisions.extra.items() if k not in out}}


# One encoder for every entry (json.dumps would build one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def dumps(decisions: Decisions) -> bytes:
    """The sidecar's bytes: UTF-8 JSON with one top-level key, and one decision or history
    item, a line — as readable in a diff as indented JSON, and written by the json
    module's C encoder (indenting falls back to its Python one, five times slower)."""
    encode = _ENCODER.encode
    parts = []
    for key, value in to_json(decisions).items():
        if isinstance(value, list) and value:
            lines = ",\n  ".join(map(encode, value))
            parts.append(f"{encode(key)}: [\n  {lines}]")
        else:
            parts.append(f"{encode(key)}: {encode(value)}")
    text = "{" + ",\n ".join(parts) + "}\n"
    return text.encode("utf-8", "backslashreplace")


# -- reading ---------------------------------------------------------------------------
class _Checker:
    """Collects problems, each with its JSON path, while values are read."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append((where, message))

    def get(self, obj: Mapping[str, Any], key: str, where: str, test: Callable[[Any], bool],
            expected: str, default: T, *, required: bool = False) -> Any:
        if key not in obj:
            if required:
                self.fail(f"{where}.{key}", "required")
            return default
        value = obj[key]
        if not test(value):
            self.fail(f"{where}.{key}", f"expected {expected}, not {_show(value)}")
            return default
        return value


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:60]


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_index(v: Any) -> bool:
    return type(v) is int and v >= 0


def _is_page(v: Any) -> bool:
    return v is None or (type(v) is int and v >= 1)


def _is_hash(v: Any) -> bool:
    return isinstance(v, str) and bool(_SHA256.match(v))


def _is_hash_or_null(v: Any) -> bool:
    return v is None or _is_hash(v)


def _is_time(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    if v == "":
        return True
    try:
        datetime.fromisoformat(v)
    except ValueError:
        return False
    return True


def _is_text_or_null(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _rects(c: _Checker, value: Any, where: str) -> tuple[Rect, ...]:
    if not isinstance(value, list):
        c.fail(where, f"expected a list of [x0, y0, x1, y1], not {_show(value)}")
        return ()
    out: list[Rect] = []
    for k, r in enumerate(value):
        ok = isinstance(r, list) and len(r) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in r)
        if not ok or r[0] > r[2] or r[1] > r[3]:
            c.fail(f"{where}[{k}]", "expected [x0, y0, x1, y1] with x0 ≤ x1 and y0 ≤ y1, "
                                    f"not {_show(r)}")
            continue
        out.append((float(r[0]), float(r[1]), float(r[2]), float(r[3])))
    return tuple(out)


def _is_object(c: _Checker, obj: Any, where: str) -> bool:
    if not isinstance(obj, dict):
        c.fail(where, f"expected an object, not {_show(obj)}")
        return False
    return True


def _common(c: _Checker, obj: Mapping[str, Any], where: str) -> tuple[str, str, str, str]:
    """The claim id, note, reviewer and time every entry has."""
    claim = c.get(obj, "claim", where, lambda v: isinstance(v, str) and v != "",
                  "a claim id", "", required=True)
    note = c.get(obj, "note", where, _is_str, "a string", "")
    reviewer = c.get(obj, "reviewer", where, _is_str, "a string", "")
    at = c.get(obj, "at", where, _is_time, "an ISO 8601 time such as 2026-12-01T13:00:00Z",
               "")
    return claim, note, reviewer, at


def _evidence(c: _Checker, obj: Any, where: str) -> EvidenceDecision | None:
    if not _is_object(c, obj, where):
        return None
    before = len(c.problems)
    claim, note, reviewer, at = _common(c, obj, where)
    index = c.get(obj, "index", where, _is_index, "an index (0, 1, …)", 0, required=True)
    quote = c.get(obj, "quote_sha256", where, _is_hash, "a SHA-256 in hex (64 of 0-9a-f)",
                  "", required=True)
    document = c.get(obj, "document_sha256", where, _is_hash_or_null,
                     "a SHA-256 in hex or null", None)
    placement = c.get(obj, "placement", where, lambda v: v in PLACEMENTS,
                      f"one of {', '.join(PLACEMENTS)}", "confirmed", required=True)
    page = c.get(obj, "page", where, _is_page, "a 1-based page number or null", None)
    rects = _rects(c, obj["rects"], f"{where}.rects") if "rects" in obj else ()
    if placement == "relocated" and (page is None or not rects):
        c.fail(where, "a relocated item needs its page and rects")
    doc_id = c.get(obj, "document", where, _is_text_or_null, "a document id or null", None)
    text = c.get(obj, "text", where, _is_text_or_null, "a string or null", None)
    if len(c.problems) > before:
        return None
    extra = {k: v for k, v in obj.items() if k not in EVIDENCE_KEYS}
    return EvidenceDecision(claim, index, cast(Placement, placement), quote, document, page,
                            rects, note, reviewer, at, doc_id, text, extra)


def _claim(c: _Checker, obj: Any, where: str) -> ClaimDecision | None:
    if not _is_object(c, obj, where):
        return None
    before = len(c.problems)
    claim, note, reviewer, at = _common(c, obj, where)
    support = c.get(obj, "support", where, lambda v: v in SUPPORTS,
                    f"one of {', '.join(SUPPORTS)}", "supported", required=True)
    text_hash = c.get(obj, "claim_sha256", where, _is_hash_or_null,
                      "a SHA-256 in hex or null", None)
    quotes = c.get(obj, "quotes_sha256", where,
                   lambda v: v is None or (isinstance(v, list) and all(map(_is_hash, v))),
                   "a list of SHA-256s in hex, or null", None)
    if len(c.problems) > before:
        return None
    extra = {k: v for k, v in obj.items() if k not in CLAIM_KEYS}
    return ClaimDecision(claim, cast(Support, support), text_hash,
                         tuple(quotes) if quotes is not None else None, note, reviewer, at,
                         extra)


def _answer(c: _Checker, obj: Any, where: str) -> Answer | None:
    """An answer to a further question. One to a question this version does not ask is
    kept as it is (a newer citeview asked it); one it asks must take one of its values."""
    if not _is_object(c, obj, where):
        return None
    before = len(c.problems)
    claim, note, reviewer, at = _common(c, obj, where)
    asked = c.get(obj, "question", where, lambda v: isinstance(v, str) and v != "",
                  "a question id", "", required=True)
    index = c.get(obj, "index", where, _is_index, "an index (0, 1, …)", None)
    known = {q.id: q for q in questions()}.get(asked)
    value = c.get(obj, "value", where,
                  lambda v: isinstance(v, str) and (known is None or v in known.values),
                  f"one of {', '.join(known.values)}" if known else "a string", "",
                  required=True)
    subject = c.get(obj, "subject_sha256", where, _is_hash,
                    "a SHA-256 in hex (64 of 0-9a-f)", "", required=True)
    if len(c.problems) > before:
        return None
    extra = {k: v for k, v in obj.items() if k not in ANSWER_KEYS}
    return Answer(asked, claim, index, value, subject, note, reviewer, at, extra)



def _put_once(c: _Checker, table: dict[K, V], key: K, value: V, where: str, twice: str
              ) -> None:
    """``table[key] = value``, or the problem ``twice`` at ``where`` when the file already
    gave a decision for that key (the first one is kept)."""
    if key in table:
        c.fail(where, twice)
    else:
        table[key] = value

def parse(data: Any, *, path: Path | str = "<memory>") -> Decisions:
    """Validate decoded JSON as a version-1 sidecar, or raise :class:`SidecarError`."""
    c = _Checker()
    if not isinstance(data, dict):
        raise SidecarError(path, [("$", f"expected a JSON object, not {_show(data)}")])
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise SidecarError(path, [("$.version", f"version {_show(version)} is not supported "
                                                f"(this citeview reads version "
                                                f"{FORMAT_VERSION})")])
    citations = c.get(data, "citations", "$", _is_str, "the citations file's name", "")
    lists = {key: c.get(data, key, "$", lambda v: isinstance(v, list), "a list", [])
             for key in ("evidence", "claims", "answers", "history")}
    out = Decisions(citations, extra={k: v for k, v in data.items() if k not in TOP_KEYS})
    out.documents = dict(c.get(
        data, "documents", "$", lambda v: isinstance(v, dict) and all(
            isinstance(k, str) and isinstance(p, str) and p for k, p in v.items()),
        "an object of document id → path", {}))
    for i, obj in enumerate(lists["evidence"]):
        if (d := _evidence(c, obj, f"$.evidence[{i}]")) is not None:
            _put_once(c, out.evidence, d.key, d, f"$.evidence[{i}]",
                      f"a second decision for claim {d.claim!r} item {d.index}")
    for i, obj in enumerate(lists["claims"]):
        if (s := _claim(c, obj, f"$.claims[{i}]")) is not None:
            _put_once(c, out.claims, s.claim, s, f"$.claims[{i}]",
                      f"a second decision for claim {s.claim!r}")
    for i, obj in enumerate(lists["answers"]):
        if (a := _answer(c, obj, f"$.answers[{i}]")) is not None:
            _put_once(c, out.answers, a.key, a, f"$.answers[{i}]",
                      f"a second answer to {a.question!r} for claim {a.claim!r}")
    for i, item in enumerate(lists["history"]):
        if _is_object(c, item, f"$.history[{i}]"):
            out.history.append(item)
    if c.problems:
        raise SidecarError(path, c.problems)
    return out


def loads(raw: bytes, *, path: Path | str = "<memory>") -> Decisions:
    """Decode and validate a sidecar's bytes (UTF-8 JSON), or raise SidecarError."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SidecarError(path, [("$", json_problem(exc))]) from None
    except RecursionError:
        raise SidecarError(path, [("$", f"JSON nested more than {MAX_NESTING} levels deep")]
                           ) from None
    problems = list(structure_problems(data))  # the limits of a citations file, on read
    if problems:
        raise SidecarError(path, problems)
    return parse(data, path=path)


# -- merging ---------------------------------------------------------------------------
def merge(ours: Decisions, theirs: Decisions, *, by: str, at: str) -> Decisions:
    """One file from two versions of it: for an entry both changed, the later decision
    (by ``at``; ours on a tie) stays and the other goes to the history; entries only one
    has are kept; both histories are kept, each item once."""
    out = theirs.copy()
    out.extra = {**theirs.extra, **ours.extra}
    out.citations = ours.citations or theirs.citations
    out.documents = {**theirs.documents, **ours.documents}
    for key, mine in ours.evidence.items():
        out.evidence[key] = _later(mine, theirs.evidence.get(key), out, by, at)
    for claim, support in ours.claims.items():
        out.claims[claim] = _later(support, theirs.claims.get(claim), out, by, at)
    for akey, answer in ours.answers.items():
        out.answers[akey] = _later(answer, theirs.answers.get(akey), out, by, at)
    seen = {json.dumps(history_json(h), sort_keys=True) for h in theirs.history}
    for item in ours.history:
        text = json.dumps(history_json(item), sort_keys=True)
        if text not in seen:
            seen.add(text)
            out.history.append(item)
    return out


E = TypeVar("E", EvidenceDecision, ClaimDecision, Answer)


def _later(mine: E, other: E | None, out: Decisions, by: str, at: str) -> E:
    if other is None or other == mine:
        return mine
    newer, older = (mine, other) if mine.at >= other.at else (other, mine)
    out.history.append(HistoryEntry("merged", older, by, at))
    return newer
