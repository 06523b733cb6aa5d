"""The Linux desktop files: well-formed, consistent, and installable into a folder."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(PACKAGING / "citeview.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_opens_cite_and_pdf() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application" and entry["Exec"] == "citeview %f"
    assert entry["Icon"] == "citeview"
    types = [t for t in entry["MimeType"].split(";") if t]
    assert types == ["application/x-citeview-citations", "application/pdf"]


def test_mime_type_registers_the_cite_glob() -> None:
    root = ET.parse(PACKAGING / "citeview-mime.xml").getroot()
    [mime] = root.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == desktop_entry()["MimeType"].split(";")[0]
    assert [g.get("pattern") for g in mime.findall(f"{MIME_NS}glob")] == ["*.cite"]
    assert mime.find(f"{MIME_NS}sub-class-of").get("type") == "application/json"  # type: ignore[union-attr]


def test_icon_is_an_svg() -> None:
    root = ET.parse(PACKAGING.parent / "resources" / "citeview.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_install_script_installs_and_uninstalls(tmp_path: Path) -> None:
    env = dict(os.environ, DATA_HOME=str(tmp_path), CITEVIEW_NO_DEFAULT="1")
    subprocess.run(["sh", str(PACKAGING / "install.sh")], env=env, check=True,
                   capture_output=True)
    for rel in ("applications/citeview.desktop", "mime/packages/citeview-mime.xml",
                "icons/hicolor/scalable/apps/citeview.svg"):
        assert (tmp_path / rel).is_file(), rel
    if shutil.which("update-mime-database"):
        globs = (tmp_path / "mime" / "globs2").read_text()
        assert "application/x-citeview-citations:*.cite" in globs
    subprocess.run(["sh", str(PACKAGING / "install.sh"), "--uninstall"], env=env,
                   check=True, capture_output=True)
    assert not (tmp_path / "applications" / "citeview.desktop").exists()


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate is not installed")
def test_desktop_file_validates() -> None:
    subprocess.run(["desktop-file-validate", str(PACKAGING / "citeview.desktop")], check=True)
