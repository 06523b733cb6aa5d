"""Build citeview's distributables: the bundled app (PyInstaller) and the wheel.

    .venv/bin/python scripts/bundle.py                 dist/citeview/ (packaging/citeview.spec)
    .venv/bin/python scripts/bundle.py --wheel         dist/citeview-VERSION-py3-none-any.whl

The bundled app is one folder holding its own interpreter, Qt and PyMuPDF; on Windows
``iscc packaging/windows/citeview.iss`` then makes the installer from it, on macOS the
folder is ``dist/citeview.app``. tests/viewer/test_bundle.py and benchmarks/bench_bundle.py
build with the functions here.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "packaging" / "citeview.spec"
NAME = "citeview"


def bundle_executable(dist: Path) -> Path:
    """The program in a bundle built into ``dist``."""
    folder = dist / NAME
    if sys.platform == "darwin":
        return dist / f"{NAME}.app" / "Contents" / "MacOS" / NAME
    return folder / (f"{NAME}.exe" if sys.platform == "win32" else NAME)


def build_bundle(dist: Path, work: Path) -> Path:
    """Build the one-folder app into ``dist`` (intermediate files in ``work``); its program.
    A failed build raises ``CalledProcessError`` with PyInstaller's output."""
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(work), str(SPEC)],
                   cwd=REPO, check=True, capture_output=True, text=True)
    return bundle_executable(dist)


def build_wheel(out: Path) -> Path:
    """Build citeview's wheel into ``out``; its path."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--disable-pip-version-check", "-w", str(out), str(REPO)],
                   check=True, capture_output=True, text=True)
    return next(out.glob(f"{NAME}-*.whl"))


def install_wheel(wheel: Path, target: Path, *, share_dependencies: bool) -> Path:
    """A new virtual environment at ``target`` with ``wheel`` installed; its ``citeview``.

    ``share_dependencies``: only citeview comes from the wheel, and PySide6, PyMuPDF and the
    rest are read from this interpreter's site-packages (a ``.pth`` line), which takes
    seconds instead of installing 300 MB again. citeview itself is imported from the new
    environment either way: this environment's citeview (an editable install) is made
    visible to Python by an import hook that a ``.pth`` path line does not run.
    """
    venv.create(target, with_pip=False, symlinks=sys.platform != "win32")
    python = target / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    args = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
            "--disable-pip-version-check"]
    if share_dependencies:
        args.append("--no-deps")
    subprocess.run([*args, str(wheel)], check=True, capture_output=True, text=True)
    if share_dependencies:
        site = subprocess.run([str(python), "-c", "import sysconfig; "
                               "print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
        Path(site, "citeview-dependencies.pth").write_text(
            sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    return target / ("Scripts/citeview.exe" if sys.platform == "win32" else "bin/citeview")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", action="store_true", help="build the wheel instead")
    parser.add_argument("--dist", type=Path, default=REPO / "dist")
    parser.add_argument("--work", type=Path, default=REPO / "build")
    opts = parser.parse_args()
    try:
        built = build_wheel(opts.dist) if opts.wheel else build_bundle(opts.dist, opts.work)
    except subprocess.CalledProcessError as exc:
        print(exc.stdout, exc.stderr, sep="\n", file=sys.stderr)
        print(f"bundle: {' '.join(map(str, exc.cmd))} failed", file=sys.stderr)
        return 1
    print(built)
    return 0


if __name__ == "__main__":
    sys.exit(main())
