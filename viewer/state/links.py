"""The places the detail pane links to, parsed once: what a click asks to be shown.

A link's text is ``show:I`` (item I's placement), ``copy:I:K`` (copy K of item I: 0 the
placement itself, then its alternatives), ``page:I:N`` (1-based page N, another page the
quote fits equally well) or ``tip:STATUS`` (what a badge means). The pane emits the
parsed :class:`Link`; its listeners never parse the text again. No Qt here.

>>> Link.parse("copy:0:2")
Link(kind='copy', item=0, number=2, tip='')
>>> Link.parse("page:1:7").number, Link.parse("tip:review").tip, Link.parse("x:1")
(7, 'review', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LinkKind = Literal["show", "copy", "page", "tip"]


@dataclass(frozen=True)
class Link:
    """One link of the detail pane: its kind, the item it is about, and its number (the
    copy or the page), or the status a ``tip`` explains."""

    kind: LinkKind
    item: int = -1
    number: int | None = None
    tip: str = ""

    @classmethod
    def parse(cls, text: str) -> Link | None:
        """The link ``text`` names (None for one that is not the pane's)."""
        kind, _, rest = text.partition(":")
        if kind == "tip":
            return cls("tip", tip=rest)
        parts = rest.split(":")
        if not all(p.isdigit() for p in parts) or not parts:
            return None
        numbers = [int(p) for p in parts]
        if kind == "show" and len(numbers) == 1:
            return cls("show", numbers[0])
        if kind in ("copy", "page") and len(numbers) == 2:
            return cls("copy" if kind == "copy" else "page", numbers[0], numbers[1])
        return None

    def __str__(self) -> str:
        if self.kind == "tip":
            return f"tip:{self.tip}"
        return f"{self.kind}:{self.item}" + (f":{self.number}" if self.number is not None
                                              else "")
