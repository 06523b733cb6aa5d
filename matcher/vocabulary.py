"""The words every part of citeview uses for what became of a quote, and where it stands.

One definition each, shared by the matcher, ``citeview check --json``, the command line and
the viewer: the statuses an evidence item and a claim can have, which of them carry
rectangles and which are flagged for a person, the rectangle itself, and the progress and
cancel callbacks long work takes. It imports nothing of the matcher's search code, so the
viewer's GUI process may import it (its other matcher imports are forbidden there).

>>> EVIDENCE_STATUSES
('located', 'review', 'not_located', 'rejected')
>>> worst(["located", "review", "located"])
'review'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, get_args

# What a page placement says: the quoted words are on the page, all of them (located);
# placed but uncertain, for a person to look at (review); or not there.
PlacementStatus = Literal["located", "review", "not_located"]
# What became of one evidence item (``claims[].evidence[].status`` of ``check --json``):
# a placement's status, or rejected before any search (unknown id, empty quote, a repair
# that would be a guess).
EvidenceStatus = Literal[PlacementStatus, "rejected"]
# A claim's badge: uncited when it gives no evidence, else its worst evidence status.
ClaimStatus = Literal[EvidenceStatus, "uncited"]
# How a quote matched its chunk's text (``text_match``).
TextMatch = Literal["exact", "fuzzy", "review"]
# What a quoted word that the page lacks is (``differences[].kind``): a figure (amount,
# date, percentage, policy number), a negation one side has and the other not, or a word.
DifferenceKind = Literal["number", "negation", "word"]

# Whether a claim's figures, dates and negations are borne out by the words its located
# (or confirmed) evidence stands on (``claims[].consistency.status``): unchecked when no
# evidence item is located or confirmed. And what a claim's difference is about.
ConsistencyStatus = Literal["consistent", "differs", "unchecked"]
FactKind = Literal["number", "date", "negation"]

EVIDENCE_STATUSES: tuple[EvidenceStatus, ...] = get_args(EvidenceStatus)
CONSISTENCY_STATUSES: tuple[ConsistencyStatus, ...] = get_args(ConsistencyStatus)
CLAIM_STATUSES: tuple[ClaimStatus, ...] = get_args(ClaimStatus)
TEXT_MATCHES: tuple[TextMatch, ...] = get_args(TextMatch)
DIFFERENCE_KINDS: tuple[DifferenceKind, ...] = get_args(DifferenceKind)
# A person's decisions (the review file's values): on an evidence item, whether the
# highlighted words are the quoted words (*placement*); on a claim, whether its evidence,
# together, makes it true (*support*). Two questions, kept apart.
PlacementDecision = Literal["confirmed", "wrong_place", "relocated", "absent"]
SupportDecision = Literal["supported", "partly", "not_supported", "uncitable"]
PLACEMENT_DECISIONS: tuple[PlacementDecision, ...] = get_args(PlacementDecision)
SUPPORT_DECISIONS: tuple[SupportDecision, ...] = get_args(SupportDecision)
# Worst first: the order in which a claim's badge summarises its evidence.
STATUS_ORDER: tuple[EvidenceStatus, ...] = ("rejected", "not_located", "review", "located")
# Statuses whose evidence carries a page and rectangles.
PLACED: frozenset[EvidenceStatus] = frozenset({"located", "review"})
# Statuses a person must look at ("next flagged" stops at them).
FLAGGED: frozenset[EvidenceStatus] = frozenset({"review", "not_located"})

# (x0, y0, x1, y1) in PDF points, in PyMuPDF's ``get_text("words")`` space of a page: the
# unrotated page, origin at the top-left of its CropBox.
Rect = tuple[float, float, float, float]

# ``progress(done, total)``: called as work advances (items checked, pages read).
ProgressCallback = Callable[[int, int], None]
# ``cancel() -> True`` once the caller no longer wants the result; looked at between items.
CancelCallback = Callable[[], bool]


def evidence_status(value: object) -> EvidenceStatus:
    """``value`` as an evidence status; ValueError naming it when it is not one."""
    for status in EVIDENCE_STATUSES:
        if value == status:
            return status
    raise ValueError(f"unknown evidence status {value!r} "
                     f"(expected one of {', '.join(EVIDENCE_STATUSES)})")


def worst(statuses: Iterable[EvidenceStatus]) -> EvidenceStatus:
    """The worst of ``statuses`` by :data:`STATUS_ORDER` (ValueError when there is none)."""
    return min(statuses, key=STATUS_ORDER.index)
