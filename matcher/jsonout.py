"""JSON text for stdout that can always be written as UTF-8.

A lone surrogate can reach a result from a path the system decoded with Python's
``surrogateescape`` (a file name that is not UTF-8). ``json.dumps`` keeps it, and writing
it then fails. Here every such character becomes its ``\\uXXXX`` escape, which is valid
inside a JSON string (the only place one can stand).
"""

from __future__ import annotations

import json
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
