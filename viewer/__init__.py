"""citeview's desktop viewer: claims on one side, the PDF on the other, highlights on top.

Three processes, and folders that say which runs what:

* the **GUI process** — :mod:`.app` (start-up: the children first, then Qt and the
  window), :mod:`.window` (the shell, its actions, the controller of the open → inspect
  → check → select flow, background operations, ``--screenshot``, preferences, the
  review: decisions, undo, relocating by selecting words), :mod:`.widgets` (claims list,
  detail pane, notice bar, review panel, claims filter), :mod:`.render` (the page
  transform, layout, tiles, renderer, highlights, the view, the review's marks over it and
  dragging across words), :mod:`.state` (the Qt-free records, session, rows and wording
  the widgets are built from; the review, its file and word selection) and
  :mod:`.palette` and :mod:`.qtcompat`; it never imports pydantic, PyMuPDF, pytesseract
  or the matcher's search code (import contracts in ``pyproject.toml`` check it);
* the **check process** — :mod:`.checker` (the protocol, the GUI's client, the server,
  inspecting PDFs, scanned pages): reads and validates citations files, inspects and
  checks documents and recognises scans, with the matcher;
* the **render process** — :mod:`.render.worker`, forked by the check process once
  PyMuPDF is imported: rasterises page tiles.

:mod:`.children` starts and stops the two children by the name of their bodies.
:mod:`.cli` is the ``citeview`` command: :mod:`.commands` runs the headless subcommands
(check, locate, schema, prepare, store) in the command's own process, without Qt;
anything else opens the viewer. :mod:`.errors` turns unexpected errors into a sentence
and a log entry.
"""

import os as _os

from . import noplugins as _noplugins

# citeview loads no pydantic plugins: without this, building the first model scans the
# entry points of every installed distribution for them (~5 ms on a small environment,
# more in a large one), in every check process and command; and with it, pydantic still
# imports its plugin loader to learn there are none (importlib.metadata, ~10 ms), which
# :mod:`.noplugins` spares it. A value set by the user is kept.
_os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
_noplugins.install()
