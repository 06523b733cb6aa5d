"""``citeview locate PDF --quote TEXT [--page N] [--json]``: place one quote on a PDF."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import fail, ocr_store


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="citeview locate",
                                     description="Place one quote on a PDF's page(s).")
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--quote", required=True, help="the text to find")
    parser.add_argument("--page", type=int, action="append", default=[],
                        help="1-based page hint (repeatable); not a promise")
    parser.add_argument("--password", default=None)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args(args)

    from matcher.document import DocumentError, PdfSource
    from matcher.locate import locate_quote

    try:
        src = PdfSource(opts.pdf, password=opts.password,
                        ocr=ocr_store())
    except DocumentError as exc:
        return fail(str(exc))
    with src:
        p = locate_quote(src, opts.quote, hints=[n - 1 for n in opts.page])
    out = {"status": p.status, "page": None if p.page is None or not p.placed else p.page + 1,
           "score": p.score, "reason": p.reason, "rects": [list(r) for r in p.rects],
           "found_text": p.found_text, "other_pages": [n + 1 for n in p.other_pages]}
    if opts.json:
        print(json.dumps(out, indent=2))
    else:
        where = f"page {out['page']}" if out["page"] else "no page"
        print(f"{p.status} ({where}, score {p.score:.0f}): {p.reason}")
        for r in p.rects:
            print("  rect " + ", ".join(f"{v:.1f}" for v in r))
        if p.found_text:
            print(f"  text: {p.found_text}")
    return 0
