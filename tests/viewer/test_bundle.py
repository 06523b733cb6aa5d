"""citeview as it is distributed: the wheel installed into a fresh environment, and the
PyInstaller bundle (packaging/citeview.spec), each run as a user would run it.

Both build first (the bundle takes a minute or more), so they are marked ``slow``; CI
runs them like every other test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from viewer.commands.desktop import DESKTOP_ID, MIME_TYPE

from .test_desktop import Desktop, needs_tools
from .test_screenshot import check_shot

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import bundle  # noqa: E402  (scripts/bundle.py)

pytestmark = pytest.mark.slow


def run(program: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def clean_env(tmp_path: Path) -> dict[str, str]:
    """An environment in which only what was installed can be imported: no PYTHONPATH
    pointing at this checkout, settings and caches in ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    return env


def exec_program(entry: Path) -> str:
    line = next(ln for ln in entry.read_text().splitlines() if ln.startswith("Exec="))
    program, _, field = line[len("Exec="):].rpartition(" ")
    assert field == "%F"
    return program


# -- the wheel -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``citeview`` of a fresh virtual environment holding the wheel built from here."""
    root = tmp_path_factory.mktemp("wheel")
    wheel = bundle.build_wheel(root / "dist")
    yield bundle.install_wheel(wheel, root / "venv", share_dependencies=True)


def test_the_wheel_ships_the_desktop_files_and_the_demo(installed_wheel: Path) -> None:
    [wheel] = installed_wheel.parents[2].glob("dist/citeview-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("resources/desktop/citeview.desktop", "resources/desktop/citeview-mime.xml",
                    "resources/citeview.svg", "resources/demo/demo.cite",
                    "resources/demo/policy.pdf"):
        assert shipped in names


@needs_tools
def test_desktop_install_from_the_installed_wheel(installed_wheel: Path, tmp_path: Path
                                                  ) -> None:
    desk = Desktop(tmp_path)
    env = {**clean_env(tmp_path), **{k: desk.env[k] for k in (
        "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS")}}
    where = run(installed_wheel.parent / "python", "-c", "import viewer; print(viewer.__file__)",
                env=env, cwd=tmp_path)
    assert where.stdout.startswith(str(installed_wheel.parents[1])), where
    proc = run(installed_wheel, "desktop", "install", env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    entry = desk.data / "applications" / DESKTOP_ID
    # citeview is not on PATH: the entry starts this environment's command.
    assert exec_program(entry) == str(installed_wheel)
    cite = tmp_path / "answer.cite"
    cite.write_text(json.dumps({"version": 1, "documents": [], "claims": []}))
    assert desk.xdg_mime("query", "filetype", str(cite)) == MIME_TYPE
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    subprocess.run(["desktop-file-validate", str(entry)], check=True)
    assert run(installed_wheel, "desktop", "uninstall", env=env, cwd=tmp_path).returncode == 0
    assert not desk.data.exists() and not desk.config.exists()


# -- the bundled app -------------------------------------------------------------------
@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The program of a bundle built from packaging/citeview.spec."""
    root = tmp_path_factory.mktemp("bundle")
    try:
        program = bundle.build_bundle(root / "dist", root / "work")
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"PyInstaller failed:\n{exc.stdout}\n{exc.stderr}")
    assert program.is_file()
    return program


def bundled_demo(program: Path) -> Path:
    """The demo inside the bundle (PyInstaller's data folder is ``_internal``)."""
    return program.parent / "_internal" / "resources" / "demo" / "demo.cite"


def test_the_bundle_says_its_version(bundled: Path, tmp_path: Path) -> None:
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    proc = run(bundled, "--version", env=clean_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"citeview {version}"


def test_the_bundle_checks_the_demo(bundled: Path, tmp_path: Path) -> None:
    from matcher.check import check_citations
    from matcher.citations import load_citations

    demo = bundled_demo(bundled)
    proc = run(bundled, "check", str(demo), "--json", env=clean_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    # The same answers as the checkout's matcher gives for the same file.
    expected = check_citations(load_citations(demo), demo).model_dump(mode="json")
    assert report["summary"] == expected["summary"]
    assert [[e["status"] for e in c["evidence"]] for c in report["claims"]] == \
        [[e["status"] for e in c["evidence"]] for c in expected["claims"]]


def test_the_bundle_shows_the_demo(bundled: Path, tmp_path: Path) -> None:
    png, geometry = tmp_path / "bundle.png", tmp_path / "bundle.json"
    proc = run(bundled, "--demo", "--claim", "c3", "--size", "1280x800", "--zoom", "150",
               "--screenshot", str(png), "--geometry-json", str(geometry),
               env=clean_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert Path(json.loads(geometry.read_text())["document"]).is_relative_to(bundled.parent)
    check_shot(bundled_demo(bundled), "c3", png, geometry, 1, (1280, 800))


@needs_tools
def test_desktop_install_from_the_bundle(bundled: Path, tmp_path: Path) -> None:
    desk = Desktop(tmp_path)
    env = {**clean_env(tmp_path), **{k: desk.env[k] for k in (
        "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS")}}
    proc = run(bundled, "desktop", "install", env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert exec_program(desk.data / "applications" / DESKTOP_ID) == str(bundled)
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
