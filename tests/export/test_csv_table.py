"""The CSV table: read back by the csv module as written, one row per evidence item, and
no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from viewer.export.csv_table import COLUMNS, FORMULA_STARTS, safe_cell

from .conftest import PLACEMENTS, Exported


def rows(export: Exported) -> list[dict[str, str]]:
    raw = export.csv.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8, marked for spreadsheets
    text = raw.decode("utf-8-sig")
    assert "\r\n" in text
    reader = csv.DictReader(io.StringIO(text, newline=""))
    assert tuple(reader.fieldnames or ()) == COLUMNS
    return list(reader)


def test_one_row_per_evidence_item(demo_export: Exported) -> None:
    got = rows(demo_export)
    want = [(c["id"], str(e["index"]), e["status"], e["quote"])
            for c in demo_export.report["claims"] for e in c["evidence"]]
    assert [(r["claim_id"], r["evidence_index"], r["status"], r["quote"].lstrip("'"))
            for r in got if r["evidence_index"]] == want
    uncited = [r for r in got if not r["evidence_index"]]
    assert [r["status"] for r in uncited] == ["uncited"]


def test_decisions_in_their_columns(reviewed_export: Exported) -> None:
    by_key = {f"{r['claim_id']}#{r['evidence_index']}": r for r in rows(reviewed_export)}
    for key, decision in PLACEMENTS.items():
        row = by_key[key]
        assert row["placement"] == decision["placement"]
        assert row["reviewer"] == "jdoe" and row["decided_at"] == "2026-12-01T13:00:00Z"
        assert row["note"] == decision["note"]  # HOSTILE survives as text, with its quotes
    assert by_key["c1#0"]["support"] == "supported"
    assert by_key["c9#0"]["support_note"] == "'=cmd|' /C calc'!A0"  # not a formula
    assert by_key["c2#0"]["placement"] == "" and by_key["c2#0"]["support"] == ""


@given(st.text(alphabet=st.sampled_from("=+-@\t\r\n,\"' ab1"), max_size=12))
def test_cells_round_trip_and_never_start_a_formula(value: str) -> None:
    cell = safe_cell(value)
    assert not cell.startswith(FORMULA_STARTS)
    assert cell == value or cell == "'" + value
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerow([cell, "x"])
    [back] = list(csv.reader(io.StringIO(buffer.getvalue(), newline="")))
    assert back == [cell, "x"]
