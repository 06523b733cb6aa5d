"""Real PDFs, texts and Anthropic Messages API answers written by hand in the documented
shape (the API reference's examples and the SDKs' types: ``page_location`` with an
exclusive ``end_page_number``, ``char_location``, ``content_block_location``,
``web_search_result_location``), for the import tests."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from tests.simplepdf import paragraph, write_pdf

POLICY = [
    ["Declarations", "Policy number AB-1234", "Insured: Jordan Lee"],
    ["Section 2. Cover", "The insurer will pay for loss of or damage to the insured vehicle",
     "caused by fire, theft or accidental collision."],
    ["Section 3. Excess", "The excess for each claim is $500 for accidental damage",
     "and $250 for windscreen repairs only."],
    ["Section 4. Exclusions", "Loss caused by flood or storm surge is not covered",
     "when the vehicle was parked in a designated flood zone."],
]
SCHEDULE = [
    ["Vehicle schedule", "Make and model: Volvo XC60 2019", "Registration: KX19 ABC"],
    ["Drivers", "Named driver: Sam Lee, born 1990", "No other drivers are insured."],
]
NOTES = ("Underwriting notes\n\nThe applicant reported no claims in the last five years.\n"
         "A telematics device is fitted to the vehicle.\n")
NOTES_QUOTE = "The applicant reported no claims in the last five years."
HANDBOOK = ["Claims handbook", "Report every claim within 30 days of the loss.",
            "Keep receipts for repairs."]


def pdf(path: Path, pages: list[list[str]]) -> Path:
    return write_pdf(path, [paragraph(lines) for lines in pages])


def documents(folder: Path) -> dict[str, Path]:
    """The answer's documents as files: two PDFs and a plain text."""
    folder.mkdir(parents=True, exist_ok=True)
    notes = folder / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    return {"policy": pdf(folder / "policy.pdf", POLICY),
            "schedule": pdf(folder / "schedule.pdf", SCHEDULE), "notes": notes}


def page(text: str, doc: int, title: str, start: int, end: int) -> dict[str, Any]:
    return {"type": "page_location", "cited_text": text, "document_index": doc,
            "document_title": title, "start_page_number": start, "end_page_number": end}


def response(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A Messages API response body as the API returns it."""
    return {"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": list(blocks),
            "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 2095, "output_tokens": 503}}


def text(t: str, *citations: dict[str, Any]) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": t}
    if citations:
        block["citations"] = list(citations)
    return block


def pdf_answer() -> dict[str, Any]:
    """Two PDFs and a text document: a two-page range whose text is on its second page
    (with the line break the API keeps), a citation outside its cited pages, a second
    document, a char location, an uncited block, a whitespace block, a web citation."""
    start = NOTES.index(NOTES_QUOTE)
    return response(
        text("Based on the policy, "),
        text("the excess is $500 for accidental damage",
             page("The excess for each claim is $500 for accidental damage\nand $250 for "
                  "windscreen repairs only.", 0, "policy", 2, 4)),
        text("\n\n"),
        text("Flood is not covered in a flood zone",
             page("Loss caused by flood or storm surge is not covered\n", 0, "policy", 1, 2)),
        text("The vehicle is a 2019 Volvo XC60.",
             page("Make and model: Volvo XC60 2019", 1, "schedule", 1, 2)),
        text("The applicant has had no claims for five years.",
             {"type": "char_location", "cited_text": NOTES_QUOTE, "document_index": 2,
              "document_title": "notes", "start_char_index": start,
              "end_char_index": start + len(NOTES_QUOTE)}),
        text("Rates rose this year.",
             {"type": "web_search_result_location", "cited_text": "premiums rose 12%",
              "url": "https://example.com/rates", "title": "Motor rates 2026",
              "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm"}),
    )


def request(docs: dict[str, Path], *, extra: list[dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    """The request body that carried ``docs``: base64 PDFs, the text as a text source."""
    blocks: list[dict[str, Any]] = []
    for name in ("policy", "schedule"):
        data = base64.b64encode(docs[name].read_bytes()).decode("ascii")
        blocks.append({"type": "document", "title": name, "citations": {"enabled": True},
                       "source": {"type": "base64", "media_type": "application/pdf",
                                  "data": data}})
    blocks.append({"type": "document", "title": "notes", "citations": {"enabled": True},
                   "source": {"type": "text", "media_type": "text/plain", "data": NOTES}})
    blocks += extra or []
    blocks.append({"type": "text", "text": "What does the cover say?"})
    return {"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "messages": [{"role": "user", "content": blocks}]}


def save(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path
