"""What "Copy Quote", "Copy Found Text" and "Copy Citation" put on the clipboard.

Plain text, built from the session's evidence views, one line per evidence item:

>>> from viewer.state.rows import EvidenceView
>>> v = EvidenceView(0, "located", "the premium is due", "The premium is due", 97.0, "",
...                  3, "policy.pdf", "")
>>> citation_text("c1", "When is it due?", [v])
'c1 — When is it due?\\n“the premium is due” (policy.pdf, page 3, located)'
"""

from __future__ import annotations

from collections.abc import Sequence

from .presentation import status_word
from .rows import EvidenceView


def quotes_text(views: Sequence[EvidenceView]) -> str:
    """The claim's quotes as the citations file gives them, one a line."""
    return "\n".join(v.quote for v in views)


def found_text(views: Sequence[EvidenceView]) -> str:
    """The words under the highlights, one item a line ("" when none was placed)."""
    return "\n".join(v.found_text for v in views if v.found_text)


def citation_text(claim_id: str, claim_text: str, views: Sequence[EvidenceView]) -> str:
    """The claim and, for each item, its quote, document, page and status."""
    lines = [f"{claim_id} — {claim_text}" if claim_text else claim_id]
    for v in views:
        where = [v.document_name or "the document"]
        if v.page is not None:
            where.append(f"page {v.page}")
        where.append(status_word(v.status) if v.status != "pending" else "not checked yet")
        lines.append(f"“{v.quote}” ({', '.join(where)})")
    return "\n".join(lines)
