"""The cyclic garbage collector's pace for work that reads many pages (a check, a find).

A check reads hundreds of pages, each through hundreds of short-lived word tuples (PyMuPDF's
``get_text("words")``, the page models built from them), and keeps a few hundred megabytes
of page models in its caches. With the interpreter's default pace (a young collection every
700 new containers, a full one every hundred of those) the collector spent 7–8 % of a
check walking them again and again (``benchmarks/bench_check.py``'s 25-document file:
0.34 s of 4.5 s; 100 documents: 1.4 s of 18 s), while next to none of them were garbage
in cycles. :func:`few_collections` freezes what exists when the work starts (the modules
and their schemas) out of the collector's sight and collects young objects less often;
when the work is done the collector's pace and sight are as before. Nothing collected
differs: only when. ``citeview check`` and the window's check process (each request)
use it; a find of the 500-page ``bench_find.py`` PDF spent 0.06 s of 1.8 in collections,
0.01 s so.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

# New containers between young collections while a command works (the interpreter's
# default is 700): ~10,000 is a page or two of words. Timed by gc callbacks over
# bench_check.py's files, the collector's time fell from 0.34 to 0.13 s (25 documents)
# and from 1.0 to 0.29 s (100 documents); 50,000 saved little more.
YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Collect cyclic garbage less often while the block runs (see the module)."""
    young, *older = gc.get_threshold()
    # Objects frozen before (a window's start-up) stay so: only this block's are thawed.
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), *older)
    try:
        yield
    finally:
        gc.set_threshold(young, *older)
        if thaw:
            gc.unfreeze()
