"""The bundled app against the wheel install: size on disk and start-up time.

    python benchmarks/bench_bundle.py             # builds both in a temporary folder
    python benchmarks/bench_bundle.py --runs 11

Builds the one-folder bundle (packaging/citeview.spec) and installs the wheel with all its
dependencies into a fresh virtual environment, the baseline, measured in the same run.
Then, alternating between the two so that a change in the machine's load falls on both,
times each program's wall time from start to exit for

* ``--version``: starting the interpreter and citeview's command, nothing more;
* ``--demo --claim c3 --screenshot PNG`` (offscreen): start-up to a saved window, with the
  check and render processes and the demo checked and painted.

Sizes: the bundle's folder (its own interpreter, libpython, Qt, PyMuPDF and the system
libraries it carries) against the environment (citeview and its dependencies; the
system's Python, which it needs besides, is not counted).

Nothing here asserts: it prints medians and bundle/wheel ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import bundle  # noqa: E402  (scripts/bundle.py)


def folder_size(path: Path) -> int:
    """Bytes of every file under ``path`` (links not followed)."""
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def timed(program: Path, args: list[str], env: dict[str, str], cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run([str(program), *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{program} {' '.join(args)} failed:\n{proc.stderr}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-bundle-") as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        bundled = bundle.build_bundle(root / "dist", root / "work")
        build_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        wheel = bundle.build_wheel(root / "wheel")
        installed = bundle.install_wheel(wheel, root / "venv", share_dependencies=False)
        install_s = time.perf_counter() - t0
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(root / "config"),
                   XDG_STATE_HOME=str(root / "state"), XDG_CACHE_HOME=str(root / "cache"))
        cases = {"--version": ["--version"],
                 "--demo --screenshot": ["--demo", "--claim", "c3", "--size", "1280x800",
                                         "--screenshot", str(root / "shot.png")]}
        times: dict[tuple[str, str], list[float]] = {}
        programs = {"bundle": bundled, "wheel": installed}
        for name, args in cases.items():
            for program in programs.values():  # once each, unmeasured: disk caches warm
                timed(program, args, env, root)
            for _ in range(opts.runs):
                for kind, program in programs.items():
                    times.setdefault((name, kind), []).append(timed(program, args, env, root))

        sizes = {"bundle": folder_size(bundled.parent), "wheel": folder_size(root / "venv")}
        print(f"built the bundle in {build_s:.0f} s; built and installed the wheel with its "
              f"dependencies in {install_s:.0f} s")
        print(f"\n{'':32}{'bundle':>10}{'wheel':>10}{'ratio':>8}")
        mb = {k: v / 1e6 for k, v in sizes.items()}
        print(f"{'size on disk (MB)':32}{mb['bundle']:10.0f}{mb['wheel']:10.0f}"
              f"{mb['bundle'] / mb['wheel']:8.2f}")
        for name in cases:
            b = statistics.median(times[(name, "bundle")])
            w = statistics.median(times[(name, "wheel")])
            print(f"{name + ' (s, median)':32}{b:10.3f}{w:10.3f}{b / w:8.2f}")
        print(f"\nmedians of {opts.runs} runs each, alternating; ratio = bundle / wheel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
