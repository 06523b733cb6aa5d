"""citeview's desktop viewer: claims on one side, the PDF on the other, highlights on top.

One job per module:

* :mod:`.page` — a page's size and the one transform (words-space points → pixels);
* :mod:`.layout` — pages stacked vertically; fit width / fit page / fixed zoom;
* :mod:`.render` and :mod:`.render_worker` — render keys, tiles, the byte-budgeted cache,
  and the worker process that rasterises pages with PyMuPDF;
* :mod:`.highlight` — evidence rectangles, painted through the page transform;
* :mod:`.view` — the scrolling page view (never waits for rendering);
* :mod:`.session` — the Qt-free model: what is open, the check report, the selection;
* :mod:`.records` — the citations file and the check report as plain records, read from
  the ``check --json`` contract (the GUI process never imports pydantic or PyMuPDF);
* :mod:`.engine` — the check process: reads, inspects and checks, started before Qt;
* :mod:`.children` — how the check and render processes start and stop;
* :mod:`.claims`, :mod:`.detail`, :mod:`.notice` — widgets built from the session;
* :mod:`.tasks` — background operations with callbacks on the GUI thread;
* :mod:`.documents`, :mod:`.scans` — what the check process finds out about PDFs;
* :mod:`.window`, :mod:`.app` and :mod:`.screenshot` — the main window, ``citeview FILE``
  and ``--screenshot``;
* :mod:`.palette`, :mod:`.settings`, :mod:`.errors`, :mod:`.qtcompat` — colours,
  remembered preferences, plain error messages, and a guard for a PySide6 bug.
"""
