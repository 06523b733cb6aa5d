"""Two further review questions, one per claim and one per item, as a newer question
table might ask them: for the tests that add questions (keys, notes, exports). Their keys
(O, Q, Y, G) are letters a note's sentence holds, so the note tests can type them."""

from __future__ import annotations

from viewer.state.questions import Question

FAIRNESS = Question(
    "fairness", "claim", "Fairness", ("fair", "misleading"),
    {"fair": "fairly worded", "misleading": "misleadingly worded"},
    {"fair": "O", "misleading": "Q"},
    {"fair": ("F&air Wording", "Fair"), "misleading": ("&Misleading Wording", "Misleading")})
SOURCE = Question(
    "source", "item", "Source", ("primary", "secondary"),
    {"primary": "a primary source", "secondary": "a secondary source"},
    {"primary": "Y", "secondary": "G"},
    {"primary": ("P&rimary Source", "Primary"), "secondary": ("Secondar&y Source", "Secondary")})
