"""`matcher.ocr` resolves its public names on first use, and none of them loads pytesseract.

Every check opens :mod:`matcher.ocr.store` (``citeview check``, the viewer's check
process); pytesseract (with numpy and PIL) is imported only by the functions that run
tesseract.
"""

from __future__ import annotations

import subprocess
import sys

import matcher.ocr


def test_every_public_name_resolves() -> None:
    for name in matcher.ocr.__all__:
        assert getattr(matcher.ocr, name) is not None, name
    assert set(matcher.ocr.__all__) <= set(dir(matcher.ocr))


def test_names_and_the_store_load_no_pytesseract() -> None:
    code = ("import sys\n"
            "import matcher.ocr, matcher.ocr.store\n"
            "[getattr(matcher.ocr, n) for n in matcher.ocr.__all__]\n"
            "print(sorted(m for m in ('pytesseract', 'numpy', 'PIL') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
