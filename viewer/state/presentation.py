"""How citeview says what it found, in words: one place for the CLI table, the status bar,
the detail pane and the exports (the HTML report, the annotated PDF's notes, the CSV).

Statuses are :mod:`matcher.vocabulary`'s; this module only chooses the words a person
reads for them.

>>> status_word("review")
'needs review'
>>> evidence_sentence("located", page=3, lines=2, document="policy.pdf")
'Highlighted on page 3 of policy.pdf (2 lines)'
>>> summary_line(Summary(located=9, review=1, not_located=1, rejected=1, uncited=1))
'9 located · 1 needs review · 1 not located · 1 rejected · 1 uncited'
>>> claims_summary(["located", "located", "missing", "uncited"])
'4 claims: 2 located · 1 document missing · 1 uncited'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from matcher.vocabulary import PLACED, ClaimStatus, EvidenceStatus

from .records import Summary, WordDiff

# What a claim-list badge can say: a claim's status, "pending" while the check runs, or
# "missing" for an item not located because its document is missing (the check says
# not_located with that reason; the window tells the two apart, as they need different
# things done: find the file, or look for the words).
# "unreadable" likewise when the document is there but cannot be read (damaged, empty,
# not a PDF): the check says not_located, but the quote was never looked for.
# "differs" is a claim's own badge, after its items': its figures, dates or negations
# are not borne out by its evidence (the check's ``consistency``).
BadgeStatus = Literal[ClaimStatus, "pending", "missing", "unreadable", "differs"]

# What a badge says, per status. "needs review" rather than "review": it is an instruction.
STATUS_WORDS: dict[BadgeStatus, str] = {
    "located": "located",
    "review": "needs review",
    "not_located": "not located",
    "rejected": "rejected",
    "uncited": "uncited",
    "pending": "checking…",
    "missing": "document missing",
    "unreadable": "document unreadable",
    "differs": "claim differs",
}
# What each badge means, for tooltips and Help ▸ What the Badges Mean.
STATUS_EXPLANATIONS: dict[BadgeStatus, str] = {
    "located": "Every quoted word stands on the page; the highlight covers them.",
    "review": "Placed, but a person should look: some words differ, the words stand in "
              "more than one place, or the page was not the one the citation named.",
    "not_located": "The quoted words are not in the document (or not enough of them): "
                   "no highlight is shown.",
    "rejected": "The citation itself is broken (an unknown document or chunk id, an "
                "empty quote, or a repair that would be a guess): no highlight is shown.",
    "uncited": "The claim gives no evidence at all, so there is nothing to check.",
    "pending": "The check has not reached this item yet.",
    "missing": "The document the citation names cannot be found: locate it (File ▸ "
               "Locate Document) and the quote is checked.",
    "unreadable": "The document is there but cannot be read (damaged, empty, or not a "
                  "PDF), so the quote was not looked for: open another copy (the notice "
                  "above the pages offers it) and the quote is checked.",
    "differs": "A figure, a date or a negation of the claim is not in the words its "
               "evidence stands on: the quote may be right and the claim still misstate "
               "it. Decide whether it is supported.",
}
# What the score is, for its tooltip and the help.
SCORE_EXPLANATION = ("The score (0–100) is the share of the quote's words found under the "
                     "highlight, each word weighted by how rare it is on the page; a word "
                     "changed, dropped or out of order costs. It says how well the text "
                     "matches, not whether it supports the claim: that is for you to judge.")

# Said of a claim that gives no evidence.
UNCITED_SENTENCE = ("This claim is uncited: it gives no evidence, so there is nothing to "
                    "highlight.")


def status_word(status: BadgeStatus) -> str:
    """The word a person reads for ``status`` ("needs review" for ``review``)."""
    return STATUS_WORDS[status]


def evidence_sentence(status: EvidenceStatus, *, page: int | None, lines: int,
                      document: str | None) -> str:
    """One plain sentence about an evidence item's highlight, or why there is none.

    ``page`` is 1-based, ``lines`` the number of rectangles (one per line), ``document``
    the file's name (None: "the document"). The status itself is not repeated: the
    sentence stands beside its badge.
    """
    where = document or "the document"
    if status in PLACED and page is not None and lines:
        return (f"Highlighted on page {page} of {where} "
                f"({lines} line{'s' if lines != 1 else ''})")
    if status == "rejected":
        return "Rejected — no highlight shown"
    return f"Not found in {where} — no highlight shown"


def either_of(statuses: Iterable[BadgeStatus]) -> str:
    """Badges' words as a list a sentence can hold, in the summary's order.

    >>> either_of(["missing", "review", "not_located"])
    'needs review, not located or document missing'
    """
    chosen = set(statuses)
    words = [status_word(st) for st in SUMMARY_ORDER if st in chosen]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def explain(status: BadgeStatus) -> str:
    """What a badge means, in a sentence (its tooltip)."""
    return f"{status_word(status)}: {STATUS_EXPLANATIONS[status]}"


# Claims are counted in this order, worst first (as a badge summarises its claim).
SUMMARY_ORDER: tuple[BadgeStatus, ...] = ("located", "review", "differs", "not_located",
                                          "missing", "unreadable", "rejected", "pending",
                                          "uncited")


def claims_summary(statuses: Iterable[BadgeStatus], *, separator: str = " · ") -> str:
    """How many claims have each badge (a claim counts once, by its worst item's badge);
    statuses no claim has are left out, but for "located"."""
    counts = dict.fromkeys(SUMMARY_ORDER, 0)
    total = 0
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
        total += 1
    parts = [_counted(st, n) for st, n in counts.items() if n or st == "located"]
    return f"{total} claim{'s' if total != 1 else ''}: " + separator.join(parts)


def _counted(status: BadgeStatus, n: int) -> str:
    """``n`` claims with the badge ``status``: "2 needs review", "2 claims differ"."""
    if status == "differs":
        return f"{n} claim differs" if n == 1 else f"{n} claims differ"
    return f"{n} {status_word(status)}"


def summary_line(summary: Summary, *, separator: str = " · ") -> str:
    """The whole check in one line: how many items have each status, uncited claims, and
    claims whose figures their evidence does not bear out (when there are any)."""
    needs = "needs" if summary.review == 1 else "need"
    parts = [f"{summary.located} located", f"{summary.review} {needs} review",
             f"{summary.not_located} not located",
             f"{summary.rejected} rejected", f"{summary.uncited} uncited"]
    if summary.differs:
        parts.append("1 claim differs from its evidence" if summary.differs == 1 else
                     f"{summary.differs} claims differ from their evidence")
    return separator.join(parts)


# What the claims list badge, the detail pane and the CLI table call a claim whose
# figures, dates or negations its evidence does not bear out.
CLAIM_DIFFERS = STATUS_WORDS["differs"]


def consistency_sentence(kind: str, claim: str | None, evidence: str | None) -> str:
    """One difference between the claim and its evidence, in the words of the quote's
    differences (:func:`difference_sentence`), the claim in the quote's place.

    >>> consistency_sentence("number", "$952.18", "$925.18")
    'The claim says $952.18; its evidence says $925.18'
    >>> consistency_sentence("negation", "not", None)
    "The claim says 'not', which its evidence does not"
    >>> consistency_sentence("negation", None, "not")
    "Its evidence says 'not', which the claim leaves out"
    """
    del kind  # the same words for a figure, a date and a negation
    if claim is None:
        return f"Its evidence says {evidence!r}, which the claim leaves out"
    if evidence is None:
        return f"The claim says {claim!r}, which its evidence does not"
    return f"The claim says {claim}; its evidence says {evidence}"


# -- review decisions, differences and what an exported item shows ----------------------
# A reviewer's placement decision on an evidence item, and its support decision on a claim
# (the review sidecar's values), in the words a reader of an export sees.
PLACEMENT_WORDS: dict[str, str] = {  # one per PlacementDecision (a test holds it)
    "confirmed": "confirmed",
    "wrong_place": "wrong place",
    "relocated": "relocated",
    "absent": "absent from the document",
}
SUPPORT_WORDS: dict[str, str] = {  # one per SupportDecision (a test holds it)
    "supported": "supported",
    "partly": "partly supported",
    "not_supported": "not supported",
    "uncitable": "uncitable (true but inferential)",
}
# What became of an item once the review is taken into account: the matcher's status
# while no (current) decision stands, else the decision. Exports colour highlights by it.
OUTCOME_WORDS: dict[str, str] = {
    "located": "located, not yet reviewed",
    "confirmed": "confirmed by the reviewer",
    "review": "needs review",
    "wrong_place": "wrong place, says the reviewer",
    "relocated": "relocated by the reviewer",
    "absent": "not in the document, says the reviewer",
    "not_located": "not located",
    "rejected": "rejected",
}
# The colour of an item whose quote differs from the page, whatever was decided (legend).
DIFFERS_SHADE = "the quote differs from the page (whatever was decided)"
# Said beside a placement decision about words the quote differs from.
QUOTE_DIFFERS = "the quote differs"
UNDECIDED = "undecided"
# The review's commands, in the words of the Review menu and of the review panel's
# buttons (which add their key): one per placement and per support decision, beside the
# decisions' own words above so that the two are kept in step (a test holds the keys).
PLACEMENT_COMMANDS: dict[str, tuple[str, str]] = {  # (menu text, button label)
    "confirmed": ("&Confirm Placement", "Confirm"),
    "wrong_place": ("&Wrong Place", "Wrong place"),
    "relocated": ("&Relocate…", "Relocate"),
    "absent": ("&Absent from Document", "Absent"),
}
SUPPORT_COMMANDS: dict[str, tuple[str, str]] = {
    "supported": ("&Supported", "Supported"),
    "partly": ("&Partly Supported", "Partly"),
    "not_supported": ("&Not Supported", "Not supported"),
    "uncitable": ("&Uncitable", "Uncitable"),
}
# The short tags a claim's row shows after its badges, for what the review knows of it.
TAG_WORDS: dict[str, str] = {
    "flag": "flagged upstream",  # the upstream system asked for a person (a claim's flag)
    "stale": "stale",  # a decision whose quote or document changed since
    "decided": "✓ decided",  # every decision the claim needs is made
}
STALE_NOTE = "stale: the quote or the document changed since it was decided; not applied"


def placement_word(placement: str | None) -> str:
    """The word for a placement decision (``None``: undecided).

    >>> placement_word("wrong_place"), placement_word(None)
    ('wrong place', 'undecided')
    """
    return UNDECIDED if placement is None else PLACEMENT_WORDS.get(placement, placement)


def support_word(support: str | None) -> str:
    """The words for a claim's support decision (``None``: undecided)."""
    return UNDECIDED if support is None else SUPPORT_WORDS.get(support, support)


def decision_sentence(word: str, *, reviewer: str | None, at: str | None, note: str = "",
                      stale: bool = False) -> str:
    """One line about a decision: what, who, when, the note; flagged when stale.

    >>> decision_sentence("confirmed", reviewer="jdoe", at="2026-12-01T13:00:00Z", note="ok")
    'confirmed by jdoe, 2026-12-01 13:00 UTC — ok'
    """
    who = f" by {reviewer}" if reviewer else ""
    when = f", {timestamp_words(at)}" if at else ""
    text = f"{word}{who}{when}" + (f" — {note}" if note else "")
    return f"{text} ({STALE_NOTE})" if stale else text


def timestamp_words(at: str) -> str:
    """An ISO 8601 UTC time as a person reads it (``2026-12-01 13:00 UTC``); other text
    as it is."""
    if len(at) >= 16 and at[10] == "T" and at.endswith("Z"):
        return f"{at[:10]} {at[11:16]} UTC"
    return at


def difference_sentence(kind: str, quote: str | None, page: str | None) -> str:
    """What one difference between the quote and the page is, in words (the wording of
    the matcher's reasons, :func:`matcher.diff.describe`; a test holds them together).

    >>> difference_sentence("number", "952.18", "925.18")
    'the quote says 952.18; the page says 925.18'
    >>> difference_sentence("negation", "not", None)
    "the quote says 'not', which the page does not"
    >>> difference_sentence("negation", None, "not")
    "the page says 'not', which the quote leaves out"
    """
    if quote is None:
        return f"the page says {page!r}, which the quote leaves out"
    if page is None:
        return f"the quote says {quote!r}, which the page does not"
    return f"the quote says {quote}; the page says {page}"


# How a word of the quote or of the found text is shown beside the other: the same word, a
# quote word the page lacks (or the page word standing against it), or a page word the
# quote dropped (shown dimmed).
DiffMark = Literal["same", "changed", "dropped"]
_MARKS: dict[str, DiffMark] = {"same": "same", "differs": "changed", "dropped": "dropped"}
Marked = list[tuple[str, DiffMark]]


# What the detail pane and the review panel call a quote's differences from the page.
DIFFERS = "Differs from the page"
# The review's progress when no claim needs a person (Review Everything still takes all).
NOTHING_TO_REVIEW = "Nothing to review"


def difference_pair(quote: str | None, page: str | None) -> str:
    """One difference as a reader scans it: ``952.18 ≠ 925.18``; a quoted word the page
    lacks altogether, or a page word the quote leaves out, said so.

    >>> difference_pair("952.18", "925.18"), difference_pair("not", None)
    ('952.18 ≠ 925.18', '“not” is not on the page')
    >>> difference_pair(None, "not")
    '“not” on the page is not in the quote'
    """
    if quote is None:
        return f"“{page}” on the page is not in the quote"
    if page is None:
        return f"“{quote}” is not on the page"
    return f"{quote} ≠ {page}"


def diff_marks(word_diff: WordDiff | None, quote: str, found: str | None
               ) -> tuple[Marked, Marked]:
    """The quote's words and the found words, each with its mark, from the matcher's
    ``word_diff`` (the same comparison that named the ``differences``, so what is marked
    is what the reason says). An item without one (nothing placed) is shown unmarked.

    >>> from .records import DiffToken, WordDiff
    >>> d = WordDiff((DiffToken("$952.18", "differs", "$925.18", "number"),),
    ...              (DiffToken("$925.18", "differs", "$952.18", "number"),
    ...               DiffToken("yearly", "dropped")))
    >>> diff_marks(d, "$952.18", "$925.18 yearly")
    ([('$952.18', 'changed')], [('$925.18', 'changed'), ('yearly', 'dropped')])
    """
    if word_diff is None:
        return ([(w, "same") for w in quote.split()],
                [(w, "same") for w in (found or "").split()])
    return ([(t.text, _MARKS.get(t.op, "same")) for t in word_diff.quote],
            [(t.text, _MARKS.get(t.op, "same")) for t in word_diff.found])


def decision_counts_line(counts: dict[str, int], words: dict[str, str], *,
                         separator: str = " · ") -> str:
    """Counts of decisions in one line, in ``words``' order, then the undecided ones
    (and the stale among them).

    >>> decision_counts_line({"confirmed": 3, "absent": 0, "undecided": 2, "stale": 1},
    ...                      PLACEMENT_WORDS)
    '3 confirmed · 0 absent from the document · 2 undecided (1 stale)'
    """
    parts = [f"{counts[k]} {w}" for k, w in words.items() if k in counts]
    undecided = f"{counts.get('undecided', 0)} {UNDECIDED}"
    if counts.get("stale"):
        undecided += f" ({counts['stale']} stale)"
    return separator.join([*parts, undecided])


def outcome_sentence(outcome: str, differences: list[str] | tuple[str, ...]) -> str:
    """An outcome and the quote's own differences, side by side: a placement decision
    never hides that the quote differs.

    >>> outcome_sentence("confirmed", ["952.18 ≠ 925.18"])
    'confirmed by the reviewer · the quote differs: 952.18 ≠ 925.18'
    """
    words = OUTCOME_WORDS.get(outcome, outcome)
    if not differences or outcome in ("review", "absent", "not_located", "rejected"):
        return words
    return f"{words} · {QUOTE_DIFFERS}: " + "; ".join(differences)


# -- why a file cannot be used, in the window's words -----------------------------------
# A citations file's problems shown in the window: this many, then "and N more" (the
# command line's `check` lists every one).
SHOWN_PROBLEMS = 10
# Pydantic's and MuPDF's phrases, as a person reads them (the start of the message).
_PLAIN: tuple[tuple[str, str], ...] = (
    ("Input should be a valid string", "should be text"),
    ("Input should be a valid integer", "should be a whole number"),
    ("Input should be a valid number", "should be a number"),
    ("Input should be a valid list", "should be a list"),
    ("Input should be a valid dictionary", "should be an object"),
    ("Input should be a valid boolean", "should be true or false"),
    ("Field required", "is missing"),
    ("Extra inputs are not permitted", "is not a field of this format"),
    ("String should have at least 1 character", "should not be empty"),
)
_TECHNICAL_HINTS = ("; raise it with --max-size MB",)


def plain_problem(message: str) -> str:
    """A validation or library message in plain words (kept when it is plain already).

    >>> plain_problem("Input should be a valid string")
    'should be text'
    >>> plain_problem("is larger than the limit of 8 MB; raise it with --max-size MB or X")
    'is larger than the limit of 8 MB'
    """
    for hint in _TECHNICAL_HINTS:
        at = message.find(hint)
        if at >= 0:
            message = message[:at]
    for said, plain in _PLAIN:
        if message.startswith(said):
            return plain + message[len(said):].split(" [type=")[0]
    return message


def problems_text(name: str, problems: list[tuple[str, str]]) -> str:
    """Every problem of a citations file that cannot be used, a line each with where it
    is: the first SHOWN_PROBLEMS, then how many more.

    >>> print(problems_text("a.cite", [("$.claims[0].text", "Input should be a valid string"),
    ...                                ("$.claims[1]", "Field required")]))
    a.cite cannot be used (2 problems):
    at $.claims[0].text: should be text
    at $.claims[1]: is missing
    """
    n = len(problems)
    lines = [f"{name} cannot be used ({n} problem{'s' * (n != 1)}):"]
    lines += [f"at {where}: {plain_problem(msg)}" for where, msg in problems[:SHOWN_PROBLEMS]]
    if n > SHOWN_PROBLEMS:
        lines.append(f"and {n - SHOWN_PROBLEMS} more (citeview check lists every one)")
    return "\n".join(lines)


def unreadable_document(name: str, message: str) -> str:
    """Why a document that is there cannot be shown, without MuPDF's own phrases.

    >>> unreadable_document("x.pdf", "Failed to open file 'x.pdf' as type pdf.")
    'x.pdf cannot be opened: it is not a PDF citeview can read (damaged, or another kind of file).'
    """
    technical = ("Failed to open", "cannot open broken document", "code=", "format error")
    if any(t in message for t in technical) or not message:
        message = "it is not a PDF citeview can read (damaged, or another kind of file)."
    return f"{name} cannot be opened: {message}"


def undecidable_document(document: str) -> str:
    """Why nothing can be decided about the quotes of a document that is missing (or
    whose bytes cannot be read): a decision is pinned to the document's contents.

    >>> undecidable_document("policy").split(":")[0]
    "The document 'policy' is missing or cannot be read"
    """
    return (f"The document {document!r} is missing or cannot be read: locate it (File ▸ "
            "Locate Document) before deciding about its quotes, as a decision is pinned "
            "to its contents.")


def locked_document(name: str, *, bare_pdf: bool, more: str = "") -> str:
    """A password-protected document: a bare PDF has no claims to speak of.

    >>> locked_document("p.pdf", bare_pdf=True)
    'p.pdf is password-protected: enter its password to see it.'
    """
    if bare_pdf:
        return f"{name} is password-protected: enter its password to see it.{more}"
    return (f"{name} is password-protected; its claims cannot be checked until it is "
            f"unlocked.{more}")
