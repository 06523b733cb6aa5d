"""The files that register citeview with each desktop: Linux's desktop entry and MIME type
(shipped in the package), macOS's Info.plist and the Windows installer's registry lines.

Linux's are installed and queried for real in test_desktop.py; macOS's and Windows' are
read here as their systems read them (plistlib; Inno Setup's parameter syntax).
"""

from __future__ import annotations

import configparser
import plistlib
import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from viewer.commands.desktop import DESKTOP_ID, MIME_TYPE

REPO = Path(__file__).resolve().parents[2]
DESKTOP = REPO / "resources" / "desktop"
PACKAGING = REPO / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
CITE_UTI = "org.citeview.citations"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP / DESKTOP_ID, encoding="utf-8")
    return parser["Desktop Entry"]


# -- Linux -----------------------------------------------------------------------------
def test_desktop_entry_opens_cite_and_pdf_files() -> None:
    entry = desktop_entry()
    assert entry["Type"] == "Application" and entry["Exec"] == "citeview %F"
    assert entry["Icon"] == "citeview" and entry["TryExec"] == "citeview"
    types = [t for t in entry["MimeType"].split(";") if t]
    assert types == [MIME_TYPE, "application/pdf"]


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate is not installed")
def test_desktop_entry_validates() -> None:
    proc = subprocess.run(["desktop-file-validate", str(DESKTOP / DESKTOP_ID)],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout


def test_mime_type_is_json_named_cite_with_a_content_rule() -> None:
    root = ET.parse(DESKTOP / "citeview-mime.xml").getroot()
    [mime] = root.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == MIME_TYPE
    assert [g.get("pattern") for g in mime.findall(f"{MIME_NS}glob")] == ["*.cite"]
    assert mime.find(f"{MIME_NS}sub-class-of").get("type") == "application/json"  # type: ignore[union-attr]
    [magic] = mime.findall(f"{MIME_NS}magic")
    assert int(magic.get("priority", "50")) < 80  # never overrules a file's name
    [version] = magic.findall(f"{MIME_NS}match")
    [claims] = version.findall(f"{MIME_NS}match")  # nested: both must match
    assert (version.get("value"), claims.get("value")) == ('"version"', '"claims"')


def test_icon_is_an_svg() -> None:
    root = ET.parse(REPO / "resources" / "citeview.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


# -- macOS -----------------------------------------------------------------------------
def info_plist() -> dict[str, object]:
    with open(PACKAGING / "macos" / "Info.plist", "rb") as f:
        data: dict[str, object] = plistlib.load(f)
    return data


def test_info_plist_exports_the_cite_type() -> None:
    info = info_plist()
    assert info["CFBundleShortVersionString"] == VERSION
    [declared] = info["UTExportedTypeDeclarations"]  # type: ignore[misc]
    assert declared["UTTypeIdentifier"] == CITE_UTI
    assert "public.json" in declared["UTTypeConformsTo"]
    tags = declared["UTTypeTagSpecification"]
    assert tags["public.filename-extension"] == ["cite"]
    assert tags["public.mime-type"] == [MIME_TYPE]


def test_info_plist_owns_cite_and_only_offers_itself_for_pdf() -> None:
    types = {t["LSItemContentTypes"][0]: t for t in info_plist()["CFBundleDocumentTypes"]}  # type: ignore[attr-defined]
    assert types.keys() == {CITE_UTI, "com.adobe.pdf"}
    assert types[CITE_UTI]["LSHandlerRank"] == "Owner"
    assert types["com.adobe.pdf"]["LSHandlerRank"] == "Alternate"
    assert {t["CFBundleTypeRole"] for t in types.values()} == {"Viewer"}


def test_the_spec_builds_the_app_with_that_plist() -> None:
    spec = (PACKAGING / "citeview.spec").read_text()
    assert '"macos" / "Info.plist"' in spec and "info_plist=info" in spec


# -- Windows ---------------------------------------------------------------------------
def inno_values(text: str) -> tuple[dict[str, str], dict[str, list[dict[str, str]]]]:
    """An Inno Setup script read as Inno reads it: ``#define`` constants expanded,
    ``[Setup]`` directives, and each other section's lines as ``Name: value; ...``
    parameters (``""`` inside a quoted value is one quote)."""
    defines = dict(re.findall(r'^#define\s+(\w+)\s+"([^"]*)"', text, re.M))
    text = re.sub(r"\{#(\w+)\}", lambda m: defines[m.group(1)], text)
    setup: dict[str, str] = {}
    sections: dict[str, list[dict[str, str]]] = {}
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections.setdefault(current, [])
            continue
        if current == "Setup":
            key, _, value = line.partition("=")
            setup[key.strip()] = value.strip()
            continue
        params = {}
        for name, quoted, bare in re.findall(r'(\w+):\s*(?:"((?:[^"]|"")*)"|([^;]*))(?:;|$)',
                                             line):
            params[name] = quoted.replace('""', '"') if quoted or not bare else bare.strip()
        sections[current].append(params)
    return setup, sections


def test_inno_setup_registers_cite_and_offers_pdf() -> None:
    setup, sections = inno_values((PACKAGING / "windows" / "citeview.iss").read_text())
    assert setup["AppVersion"] == VERSION and setup["ChangesAssociations"] == "yes"
    keys: dict[tuple[str, str], str] = {}
    for entry in sections["Registry"]:
        assert entry["Root"] == "HKA"  # the user's classes, or the machine's for all users
        keys[(entry["Subkey"], entry["ValueName"])] = entry["ValueData"]
    classes = "Software\\Classes\\"
    progid = keys[(classes + ".cite", "")]
    assert progid == "citeview.citations"
    assert keys[(classes + progid + "\\shell\\open\\command", "")] == \
        '"{app}\\citeview.exe" "%1"'
    assert keys[(classes + progid + "\\DefaultIcon", "")] == "{app}\\citeview.exe,0"
    # PDFs: listed under Open with, and the .pdf key's own default left alone.
    assert (classes + ".pdf", "") not in keys
    [pdf_progid] = [name for (key, name) in keys if key == classes + ".pdf\\OpenWithProgids"]
    assert keys[(classes + pdf_progid + "\\shell\\open\\command", "")] == \
        '"{app}\\citeview.exe" "%1"'


def test_inno_setup_packs_what_the_spec_builds() -> None:
    _, sections = inno_values((PACKAGING / "windows" / "citeview.iss").read_text())
    spec = (PACKAGING / "citeview.spec").read_text()
    name = re.search(r'^NAME = "(\w+)"', spec, re.M)
    assert name is not None
    [files] = sections["Files"]
    assert files["Source"] == f"dist\\{name.group(1)}\\*"
    assert any(icon["Filename"] == f"{{app}}\\{name.group(1)}.exe" for icon in sections["Icons"])
