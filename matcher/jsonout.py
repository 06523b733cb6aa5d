"""JSON text for stdout that can always be written as UTF-8, and plain text that shows
what it says (:func:`printable`).

A lone surrogate can reach a result from a path the system decoded with Python's
``surrogateescape`` (a file name that is not UTF-8). ``json.dumps`` keeps it, and writing
it then fails. Here every such character becomes its ``\\uXXXX`` escape, which is valid
inside a JSON string (the only place one can stand).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel


def json_text(value: Any, *, indent: int | None = 2) -> str:
    """``value`` as JSON text (non-ASCII kept readable), encodable as UTF-8 whatever it holds.

    >>> json_text({"path": "caf\\u00e9 \\udcff.pdf"}, indent=None)
    '{"path": "café \\\\udcff.pdf"}'
    """
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def model_json(model: BaseModel, *, indent: int = 2) -> str:
    """A pydantic model as JSON text: pydantic's own fast serialiser, or, when the model
    holds a lone surrogate it cannot encode, :func:`json_text` of its JSON-ready dump."""
    from pydantic_core import PydanticSerializationError

    try:
        return model.model_dump_json(indent=indent)
    except PydanticSerializationError:
        return json_text(model.model_dump(mode="json"), indent=indent)


# What a terminal would act on instead of showing: C0 and C1 controls (ESC starts the
# sequences that move the cursor, erase a line or recolour it — a claim id could make a
# "not located" row read "located"), DEL, the bidirectional overrides and isolates that
# reorder what follows, line and paragraph separators, and lone surrogates.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e"
                          "\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` for a terminal, each character it would act on shown as its escape.

    >>> printable("c1\\x1b[2K\\rc1  located")
    'c1\\\\x1b[2K\\\\rc1  located'
    >>> printable("Policy §4 — café")
    'Policy §4 — café'
    """
    return _UNPRINTABLE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(m.group())
    if named is not None:
        return named
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
