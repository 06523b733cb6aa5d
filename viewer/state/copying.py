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


def citation_text(claim_id: str, claim_text: str, views: Sequence[EvidenceView],
                  decisions: Sequence[str] = (), support: str = "") -> str:
    """The claim and, for each item, its quote, document, page and status — and what the
    review decided: ``decisions`` per item ("" for none), ``support`` for the claim.

    >>> v = EvidenceView(0, "review", "q", "q", 80.0, "", 2, "policy.pdf", "")
    >>> print(citation_text("c2", "", [v], ["confirmed by jdoe"], "supported by jdoe"))
    c2 — support: supported by jdoe
    “q” (policy.pdf, page 2, needs review) — placement: confirmed by jdoe
    """
    head = f"{claim_id} — {claim_text}" if claim_text else claim_id
    lines = [head + (f" — support: {support}" if support else "")]
    for k, v in enumerate(views):
        where = [v.document_name or "the document"]
        if v.page is not None:
            where.append(f"page {v.page}")
        where.append(status_word(v.status) if v.status != "pending" else "not checked yet")
        said = decisions[k] if k < len(decisions) else ""
        lines.append(f"“{v.quote}” ({', '.join(where)})"
                     + (f" — placement: {said}" if said else ""))
    return "\n".join(lines)
