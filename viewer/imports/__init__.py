"""Another system's answer made into an ordinary citations file: one module per format.

``citeview import FORMAT RESPONSE …`` (:mod:`viewer.commands.importing`), ``citeview
RESPONSE --document …``, ``check``/``export`` on a response, and File ▸ Import… all come
here. A format is one module with the :class:`Format` shape, listed in :data:`FORMATS`;
it turns the answer and its documents into a citations file's JSON and the documents to
write beside it (:class:`Imported`), and :mod:`.output` writes them. Nothing here imports
Qt, PyMuPDF or pydantic (the matcher does that), so the check process and the headless
commands share it.

>>> sorted(FORMATS)
['anthropic']
"""

from __future__ import annotations

from typing import Any

from .model import Format


def _formats() -> dict[str, Format]:
    from . import anthropic

    return {anthropic.NAME: anthropic}


FORMATS: dict[str, Format] = _formats()


def recognise(data: Any) -> Format | None:
    """The format whose answer ``data`` is, if any."""
    return next((f for f in FORMATS.values() if f.recognises(data)), None)
