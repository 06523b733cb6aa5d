"""One import from start to end: read the answer, convert it, write the result.

The same function serves ``citeview import``, opening an answer directly (viewer,
``check``, ``export``) and File ▸ Import… in the window (through the check process), so
all of them give one result for one answer.
"""

from __future__ import annotations

from pathlib import Path

from matcher.files import os_error_reason

from ..export.writing import OutputError
from . import FORMATS, recognise
from .model import ImportProblem, Inputs, read_json
from .output import Written, default_output, write


def run_import(response: Path, inputs: Inputs, *, format_name: str | None = None,
               out: Path | None = None) -> Written:
    """Import ``response`` (in ``format_name``, else the format it is recognised as)
    with ``inputs``, writing ``out`` (default RESPONSE.cite beside it, or in the data
    folder: :func:`~.output.default_output`).

    ImportProblem for an unusable answer, request or document; OutputError for what
    cannot be written. Nothing is written in either case.
    """
    data = read_json(response)
    fmt = FORMATS[format_name] if format_name is not None else recognise(data)
    if fmt is None:
        names = ", ".join(f"{f.NAME} ({f.SUMMARY})" for f in FORMATS.values())
        raise ImportProblem(response, [("$", f"not an answer citeview can import: {names}")])
    target = out if out is not None else default_output(response)
    if out is None and not target.parent.exists():  # a folder of its own in the data folder
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"{target.parent}: cannot be made "
                              f"({os_error_reason(exc, writing=True)})") from None
    imported = fmt.convert(data, path=response, inputs=inputs, out=target)
    return write(imported, source=response, out=target)


def is_answer(path: Path) -> bool:
    """Whether ``path`` holds an answer some format recognises (never raises)."""
    try:
        return recognise(read_json(path)) is not None
    except ImportProblem:
        return False
