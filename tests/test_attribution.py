"""Chunk ids are validated, and repaired only when exactly one other chunk holds the quote."""

from matcher.attribution import attribute
from matcher.citations import Chunk

A = Chunk(id="p#0", text="The deductible is $500 per claim.")
B = Chunk(id="p#1", text="Flood damage is covered up to $10,000 per year.")
C = Chunk(id="p#2", text="Flood damage is covered up to $10,000 per year. Fire too.")
D = Chunk(id="p#3", text="Theft cover requires a police report within 48 hours.")


def test_quote_in_its_own_chunk_is_located() -> None:
    r = attribute([A, B, D], "p#0", "deductible is $500")
    assert r.outcome == "located" and r.chunk_id == "p#0" and r.repaired_from is None
    assert r.span is not None and A.text[r.span.start:r.span.end] == "deductible is $500"


def test_exactly_one_other_holder_repairs_the_id() -> None:
    r = attribute([A, B, D], "p#0", "police report within 48 hours")
    assert r.outcome == "located" and r.chunk_id == "p#3" and r.repaired_from == "p#0"
    assert r.span is not None
    assert D.text[r.span.start:r.span.end] == "police report within 48 hours"


def test_two_other_holders_are_ambiguous_and_rejected() -> None:
    r = attribute([A, B, C, D], "p#0", "Flood damage is covered up to $10,000")
    assert r.outcome == "rejected" and "2 other chunks" in r.reason
    assert r.span is None


def test_no_holder_is_not_located() -> None:
    r = attribute([A, B, D], "p#0", "Earthquakes are excluded everywhere")
    assert r.outcome == "not_located" and r.span is None


def test_unknown_id_is_rejected_even_if_a_chunk_holds_the_quote() -> None:
    r = attribute([A, B, D], "p#9", "deductible is $500")
    assert r.outcome == "rejected" and "unknown chunk id" in r.reason
