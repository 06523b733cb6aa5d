"""What JSON a person's file may hold, whatever file it is (citations, review): nested at
most :data:`MAX_NESTING` levels, and no string or key holding a lone surrogate.

Standard library only (the viewer's window reads review files without pydantic).

>>> list(structure_problems({"note": "fine", "deep": [[[]]]}))
[]
>>> [(where, problem)] = structure_problems({"note": "\\ud800"})
>>> where, problem.startswith("holds a lone surrogate")
('$.note', True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# The citations format nests six levels deep, the review format four; unknown extra
# fields may add some. Deeper JSON is refused with a message rather than exhausting the
# stack of the parser or serialiser (a review nested ~980 levels once read, then failed
# every save).
MAX_NESTING = 100


def structure_problems(data: Any, *, where: str = "$", depth: int = 0
                       ) -> Iterator[tuple[str, str]]:
    """JSON paths nested deeper than ``MAX_NESTING``, and strings (or keys) holding a lone
    surrogate, which no UTF-8 output can carry. Iterative: the depth is what is checked.
    ``where`` and ``depth``: where ``data`` stands in the file, when it is one part."""
    stack: list[tuple[Any, str, int]] = [(data, where, depth)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, str):
            if has_surrogate(value):
                yield where, (f"holds a lone surrogate ({first_surrogate(value)}), which is "
                              "not a character; the writer produced broken text")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_NESTING:
            yield where, f"JSON nested more than {MAX_NESTING} levels deep"
            return
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in reversed(list(items)):
            if isinstance(key, str):
                if has_surrogate(key):
                    yield where, f"a key holds a lone surrogate ({first_surrogate(key)})"
                stack.append((item, f"{where}.{key}", depth + 1))
            else:
                stack.append((item, f"{where}[{key}]", depth + 1))


def has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def first_surrogate(text: str) -> str:
    ch = next(c for c in text if 0xD800 <= ord(c) <= 0xDFFF)
    return f"\\u{ord(ch):04x}"
