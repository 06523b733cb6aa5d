"""Safe file names for the documents an import writes, from titles a model or a person
gave: no folder separators, no control or shell-awkward characters, no dot files, not a
name Windows reserves, at most a length every file system takes.

>>> safe_stem("Policy wording: 2025/26 (final).pdf")
'Policy-wording-2025-26-final'
>>> unique(["a", "a", "A"])
['a', 'a-2', 'A-3']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Well under 255 bytes, leaving room for "-NN" and ".pdf" and for readable listings.
MAX_STEM = 80
_UNSAFE = re.compile(r"[^\w.-]+", re.UNICODE)
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                     *(f"lpt{i}" for i in range(1, 10))}


def safe_stem(title: str) -> str:
    """A file name stem from ``title`` ("" when nothing usable is left)."""
    stem = title.strip()
    if stem.lower().endswith(".pdf"):
        stem = stem[:-4]
    stem = _UNSAFE.sub("-", stem).strip(".-_")
    stem = re.sub(r"-{2,}", "-", stem)
    while len(stem.encode("utf-8")) > MAX_STEM:
        stem = stem[:-1]
    stem = stem.rstrip(".-_")
    if stem.lower() in _WINDOWS_RESERVED:
        stem = f"{stem}-document"
    return stem


def unique(stems: Iterable[str]) -> list[str]:
    """``stems`` with later repeats (compared ignoring case, as some file systems do)
    numbered ``-2``, ``-3``, …"""
    seen: set[str] = set()
    out: list[str] = []
    for stem in stems:
        name, k = stem, 2
        while name.lower() in seen:
            name, k = f"{stem}-{k}", k + 1
        seen.add(name.lower())
        out.append(name)
    return out
