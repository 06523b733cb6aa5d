"""`matcher` is a pure library: it never imports Qt or the viewer."""

import ast
import subprocess
import sys
from pathlib import Path

MATCHER = Path(__file__).resolve().parent.parent / "matcher"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "viewer")


def test_no_matcher_module_names_qt_or_viewer() -> None:
    offenders = []
    for path in MATCHER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and
                     not node.level else [])
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_every_matcher_module_loads_no_qt() -> None:
    modules = sorted(".".join(p.relative_to(MATCHER.parent).with_suffix("").parts)
                     for p in MATCHER.rglob("*.py") if p.name != "__main__.py")
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m.removesuffix('.__init__'))\n"
            f"print([m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
