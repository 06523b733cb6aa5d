"""Writing an import: the documents beside the citations file, then the file itself.

Nothing is written until the whole import is known to be good: the citations file is
validated as ``citeview check`` reads it, and an existing citations file that differs is
refused before any document is written. A document never overwrites a file: a name
taken by other bytes gets ``-2``, ``-3``, …, and a file holding the very bytes is used
as it is, so importing twice writes nothing new. Every file is written whole or not at
all (:func:`viewer.export.writing.write_bytes`: temporary file, fsync, rename).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matcher.citations import CitationsError, parse_citations

from ..export.writing import OutputError, write_bytes
from ..state.files import demo_path, resolved
from ..state.review_store import folder_writable, review_folder
from .model import Imported, ImportProblem, Outgoing

# Names tried for one document before giving up (a folder full of look-alikes).
MAX_NAME_TRIES = 1000


@dataclass(frozen=True)
class Written:
    """What an import left on disk."""

    citations: Path
    written: tuple[Path, ...]  # files this import wrote (the citations file last)
    kept: tuple[Path, ...]  # files that already held exactly these bytes

    def lines(self) -> list[str]:
        """One line per file, for the person who ran the import."""
        return ([f"wrote {p}" for p in self.written]
                + [f"kept {p} (the same bytes were already there)" for p in self.kept])


def default_output(response: Path) -> Path:
    """RESPONSE.cite beside the response; in citeview's data folder instead when that
    folder cannot be written or is citeview's own (the bundled example), as a review is."""
    out = response.with_suffix(".cite")
    out = out if out != response else response.with_name(response.name + ".cite")
    own = resolved(response).is_relative_to(resolved(demo_path().parents[1]))
    if not own and folder_writable(response.parent):
        return out
    full = str(response.expanduser().absolute())
    tag = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return imports_folder() / f"{response.stem}-{tag}" / out.name


def imports_folder() -> Path:
    """The per-user folder of imports kept away from their answers."""
    return review_folder().with_name("imports")


def write(imported: Imported, *, source: Path, out: Path) -> Written:
    """Write ``imported`` as ``out`` and its documents beside it; ImportProblem for an
    import that is not a valid citations file, OutputError for what cannot be written."""
    folder = out.parent
    chosen = {o.document_id: _place(o, folder, avoid={out.name}) for o in imported.outgoing}
    citations = _with_paths(imported.citations, chosen, folder)
    data = (json.dumps(citations, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        parse_citations(json.loads(data), path=out)
    except CitationsError as exc:  # a converter's fault, said as the answer's
        raise ImportProblem(source, exc.problems) from None
    out_same = _holds(out, data)
    if os.path.lexists(out) and not out_same:
        raise OutputError(f"{out}: exists and holds something else; nothing was written "
                          "(name another file with -o OUT.cite, or remove it)")
    written: list[Path] = []
    kept: list[Path] = []
    for o in imported.outgoing:
        path, same = chosen[o.document_id]
        if same:
            kept.append(path)
        else:
            write_bytes(path, o.data)
            written.append(path)
    if out_same:
        kept.append(out)
    else:
        write_bytes(out, data)
        written.append(out)
    return Written(out, tuple(written), tuple(kept))


def _place(o: Outgoing, folder: Path, *, avoid: set[str]) -> tuple[Path, bool]:
    """Where an outgoing document goes, and whether that file already holds its bytes."""
    stem, suffix = os.path.splitext(o.name)
    for k in range(1, MAX_NAME_TRIES + 1):
        name = o.name if k == 1 else f"{stem}-{k}{suffix}"
        if name in avoid:
            continue
        path = folder / name
        if not os.path.lexists(path):
            avoid.add(name)
            return path, False
        if _holds(path, o.data):
            avoid.add(name)
            return path, True
    raise OutputError(f"{folder / o.name}: that name and {MAX_NAME_TRIES - 1} numbered "
                      "ones are taken; import into another folder")


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data``."""
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _with_paths(citations: dict[str, Any], chosen: dict[str, tuple[Path, bool]],
                folder: Path) -> dict[str, Any]:
    """The documents' paths as the citations file holds them: a written document by its
    name; a given one relative to the folder when it is inside it, else absolute."""
    refs = []
    for ref in citations.get("documents", []):
        if ref["id"] in chosen:
            path = chosen[ref["id"]][0].name
        else:
            path = _relative(Path(ref["path"]), folder)
        refs.append({**ref, "path": path})
    return {**citations, "documents": refs}


def _relative(path: Path, folder: Path) -> str:
    full, base = path.resolve(), folder.resolve()
    try:
        return full.relative_to(base).as_posix()
    except ValueError:
        return str(full)
