"""``citeview check``'s readable table: one row per evidence item, then the summary; with
a review file, each item's decision and a line on what is decided.

Its columns are padded to their widest cell, known only once every claim is checked, so
the rows are written to a temporary file a claim at a time (one JSON list a line) and
read back to print: no claim is held once its rows are written.
"""

from __future__ import annotations

import json
import tempfile
from contextlib import suppress
from typing import TYPE_CHECKING, TextIO

from matcher.jsonout import printable
from matcher.report import spooling

from ..state.presentation import CLAIM_DIFFERS, consistency_sentence, status_word, summary_line
from ..state.records import Summary

if TYPE_CHECKING:
    from matcher.report import ClaimResult
    from matcher.report import Summary as CheckSummary

    from ..state.review import ClaimState

HEAD = ("claim", "#", "status", "page", "score")


class Table:
    """The table of one check, ``shown``: with the review's decision column.
    :class:`~matcher.report.SpoolError` when its temporary file fails."""

    def __init__(self, *, shown: bool) -> None:
        self.shown = shown
        with spooling():
            self._rows = tempfile.TemporaryFile("w+", encoding="utf-8")
        self._widths = [len(c) for c in HEAD + (("decision",) if shown else ())]

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *_exc: object) -> None:
        with suppress(OSError):  # what it still buffered, when the folder is full: dropped
            self._rows.close()

    def add(self, c: ClaimResult, state: ClaimState | None) -> None:
        """The rows of claim ``c`` (``state``: as the review sees it, for the decisions)."""
        shown = self.shown
        if shown:  # the review's module only with a review file (a plain check never)
            from ..checker.review import decision_word
        rows: list[tuple[str, ...]] = []
        if not c.evidence:
            rows.append((c.id, "-", status_word("uncited"), "", "")
                        + (("",) if shown else ()) + ("no evidence given",))
        if c.consistency.status == "differs":
            said = "; ".join(consistency_sentence(d.kind, d.claim, d.evidence)
                             for d in c.consistency.differences)
            rows.append((c.id, "-", CLAIM_DIFFERS, "", "") + (("",) if shown else ())
                        + (said,))
        for e in c.evidence:
            rows.append((c.id, str(e.index), status_word(e.status), str(e.page or ""),
                         f"{e.score:.0f}" if e.score is not None else "")
                        + ((decision_word(state, e.index),) if shown else ())
                        + (e.reason,))
        for row in rows:
            # A claim id, a reason or a path is shown, never acted on by the terminal.
            cells = [printable(cell) for cell in row]
            self._widths = [max(w, len(cell)) for w, cell in zip(self._widths, cells,
                                                                 strict=False)]
            with spooling():
                self._rows.write(json.dumps(cells) + "\n")

    def write(self, out: TextIO, summary: CheckSummary, review: str | None,
              problems: list[str]) -> None:
        """The whole table, then the summary, ``review``'s line (when a review file was
        read) and the file's problems, each line newline ended."""
        head = HEAD + (("decision",) if self.shown else ()) + ("reason",)
        n = len(head) - 1  # every column but the reason is padded
        widths = self._widths

        def line(cells: list[str]) -> str:
            return "  ".join(cells[i].ljust(widths[i]) for i in range(n)) + "  " + cells[n]

        with spooling():
            self._rows.flush()
            self._rows.seek(0)
        out.write(line(list(head)) + "\n")
        for text in self._rows:
            out.write(line(json.loads(text)) + "\n")
        out.write("\n" + summary_line(Summary(**summary.model_dump()), separator=", ") + "\n")
        if review is not None:
            out.write(printable(review) + "\n")
        for p in problems:
            out.write(f"problem: {printable(p)}\n")
