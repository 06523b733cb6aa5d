"""``citeview desktop install|uninstall`` against the desktop's own tools.

Each test has its own ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``, ``XDG_DATA_DIRS`` and
``XDG_CONFIG_DIRS``, and no desktop named, so the real ``xdg-mime`` (xdg-utils, reading the
shared-mime-info database through ``mimetype``), ``update-mime-database``,
``update-desktop-database`` and ``desktop-file-validate`` answer from those folders only.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.commands import desktop
from viewer.commands.desktop import (
    DESKTOP_ID,
    ICON_SIZES,
    MIME_TYPE,
    get_default,
    remove_default,
    set_default,
)

REPO = Path(__file__).resolve().parents[2]
TOOLS = ("xdg-mime", "mimetype", "update-mime-database", "update-desktop-database",
         "desktop-file-validate")
needs_tools = pytest.mark.skipif(
    any(shutil.which(t) is None for t in TOOLS),
    reason=f"needs {', '.join(t for t in TOOLS if shutil.which(t) is None)} "
           "(scripts/system-deps test installs them)")
# Variables by which xdg-mime picks a desktop's own tool instead of its generic one.
DESKTOP_VARS = ("XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION",
                "GNOME_DESKTOP_SESSION_ID", "XDG_SESSION_DESKTOP")
CITATIONS = json.dumps({"version": 1, "documents": [{"id": "p", "path": "p.pdf"}],
                        "claims": [{"id": "c1", "text": "t", "evidence": []}]}, indent=1)


class Desktop:
    """A user's folders and a system's, empty but for the shared-mime-info base types."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "home" / "data"
        self.config = root / "home" / "config"
        self.system = root / "system"
        self.env = {k: v for k, v in os.environ.items() if k not in DESKTOP_VARS}
        self.env.update(XDG_DATA_HOME=str(self.data), XDG_CONFIG_HOME=str(self.config),
                        XDG_CONFIG_DIRS=str(root / "etc"), XDG_DATA_DIRS=str(self.system),
                        PYTHONPATH=str(REPO))
        # The system's MIME database (application/json and the other base types), and
        # none of the system's applications, which differ from machine to machine.
        self.system.mkdir(parents=True)
        if Path("/usr/share/mime").is_dir():
            (self.system / "mime").symlink_to("/usr/share/mime")

    def citeview(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "viewer.cli", "desktop", *args],
                              env=self.env, capture_output=True, text=True, timeout=120)

    def xdg_mime(self, *args: str) -> str:
        proc = subprocess.run(["xdg-mime", *args], env=self.env, capture_output=True,
                              text=True, timeout=60)
        return proc.stdout.strip()

    def add_pdf_viewer(self, name: str = "otherpdf.desktop") -> None:
        """Another PDF application, installed system-wide and set as no one's default."""
        apps = self.system / "applications"
        apps.mkdir(parents=True, exist_ok=True)
        (apps / name).write_text("[Desktop Entry]\nType=Application\nName=Other PDF\n"
                                 "Exec=true %f\nMimeType=application/pdf;\n")
        subprocess.run(["update-desktop-database", str(apps)], check=True)


def tree(*roots: Path) -> dict[str, bytes]:
    """Every file under ``roots`` and its bytes."""
    return {str(p): p.read_bytes() for root in roots if root.exists()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def desk(tmp_path: Path) -> Desktop:
    return Desktop(tmp_path)


def png_size(data: bytes) -> tuple[int, int, int]:
    """Width, height and colour type (6: with alpha) from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height, data[25]


@needs_tools
def test_install_registers_cite_files_with_citeview(desk: Desktop) -> None:
    proc = desk.citeview("install")
    assert proc.returncode == 0, proc.stderr
    cite = desk.root / "answer.cite"
    cite.write_text(CITATIONS)
    assert desk.xdg_mime("query", "filetype", str(cite)) == MIME_TYPE
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    entry = desk.data / "applications" / DESKTOP_ID
    subprocess.run(["desktop-file-validate", str(entry)], check=True)
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert fields["MimeType"] == "application/x-citeview-citations;application/pdf;"
    assert fields["Exec"].endswith(" %F") and fields["Icon"] == "citeview"
    # The MIME database and the applications' cache were rebuilt.
    assert f"{MIME_TYPE}:*.cite" in (desk.data / "mime" / "globs2").read_text()
    cache = (desk.data / "applications" / "mimeinfo.cache").read_text()
    assert f"application/pdf={DESKTOP_ID};" in cache


@needs_tools
def test_icons_are_rendered_at_every_hicolor_size(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    hicolor = desk.data / "icons" / "hicolor"
    for size in ICON_SIZES:
        for rel in ("apps/citeview.png", f"mimetypes/{MIME_TYPE.replace('/', '-')}.png"):
            data = (hicolor / f"{size}x{size}" / rel).read_bytes()
            assert png_size(data) == (size, size, 6), rel
    svg = (REPO / "resources" / "citeview.svg").read_bytes()
    assert (hicolor / "scalable" / "apps" / "citeview.svg").read_bytes() == svg


def test_icons_are_the_drawing_not_a_blank_square() -> None:
    from PySide6.QtGui import QColor, QImage

    pngs = desktop.render_icons((REPO / "resources" / "citeview.svg").read_bytes(), (64,))
    image = QImage.fromData(pngs[64])
    colours = {image.pixelColor(x, y).name(QColor.NameFormat.HexArgb)
               for x in range(64) for y in range(64)}
    assert "#00000000" in colours  # transparent around the page
    assert "#ff2e7d32" in colours  # the check mark's green disc, opaque
    assert len(colours) > 20  # antialiased edges, lines, the highlight


@needs_tools
def test_citations_without_their_ending_are_recognised_by_content(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    named_plainly = desk.root / "answer"
    named_plainly.write_text(CITATIONS)
    assert desk.xdg_mime("query", "filetype", str(named_plainly)) == MIME_TYPE
    other = desk.root / "settings"
    other.write_text(json.dumps({"version": 3, "colours": ["red"]}))
    assert desk.xdg_mime("query", "filetype", str(other)) != MIME_TYPE
    # A .json name decides before the content: JSON files stay JSON to the desktop.
    as_json = desk.root / "answer.json"
    as_json.write_text(CITATIONS)
    assert desk.xdg_mime("query", "filetype", str(as_json)) == "application/json"


@needs_tools
def test_pdfs_stay_with_the_pdf_viewer_they_had(desk: Desktop) -> None:
    desk.add_pdf_viewer()
    assert desk.xdg_mime("query", "default", "application/pdf") == "otherpdf.desktop"
    assert desk.citeview("install").returncode == 0
    # citeview's entry (first in the search order) lists PDFs: offered, not the default.
    assert desk.xdg_mime("query", "default", "application/pdf") == "otherpdf.desktop"
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    assert desk.citeview("uninstall").returncode == 0
    assert desk.xdg_mime("query", "default", "application/pdf") == "otherpdf.desktop"
    assert not (desk.config / "mimeapps.list").exists()


@needs_tools
def test_without_another_pdf_viewer_citeview_is_the_one(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    assert desk.xdg_mime("query", "default", "application/pdf") == DESKTOP_ID
    assert get_default((desk.config / "mimeapps.list").read_text(), "application/pdf") is None


@needs_tools
def test_uninstall_removes_every_file_it_wrote(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    assert tree(desk.root / "home")
    proc = desk.citeview("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert tree(desk.root / "home") == {}
    assert not desk.data.exists() and not desk.config.exists()  # made by install


@needs_tools
def test_uninstall_leaves_what_was_there_as_it_was(desk: Desktop) -> None:
    apps, packages = desk.data / "applications", desk.data / "mime" / "packages"
    apps.mkdir(parents=True)
    packages.mkdir(parents=True)
    (apps / "notes.desktop").write_text("[Desktop Entry]\nType=Application\nName=Notes\n"
                                        "Exec=true %f\nMimeType=text/x-notes;\n")
    (packages / "notes.xml").write_text(
        '<?xml version="1.0"?>\n<mime-info xmlns="http://www.freedesktop.org/standards/'
        'shared-mime-info"><mime-type type="text/x-notes"><comment>Notes</comment>'
        '<glob pattern="*.notes"/></mime-type></mime-info>\n')
    subprocess.run(["update-mime-database", str(desk.data / "mime")], check=True)
    subprocess.run(["update-desktop-database", str(apps)], check=True)
    desk.config.mkdir(parents=True)
    (desk.config / "mimeapps.list").write_text(
        "# chosen by hand\n[Default Applications]\ntext/x-notes=notes.desktop;\n\n"
        "[Added Associations]\ntext/plain=notes.desktop;\n")
    before = tree(desk.root / "home")

    assert desk.citeview("install").returncode == 0
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    assert desk.xdg_mime("query", "default", "text/x-notes") == "notes.desktop"
    assert desk.citeview("uninstall").returncode == 0
    after = tree(desk.root / "home")
    assert after.keys() == before.keys()
    for name, data in after.items():
        assert b"citeview" not in data, name
    assert after[str(desk.config / "mimeapps.list")] == before[str(desk.config / "mimeapps.list")]
    assert after[str(apps / "notes.desktop")] == before[str(apps / "notes.desktop")]


@needs_tools
def test_reinstalling_replaces_the_last_install(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    first = tree(desk.root / "home")
    assert desk.citeview("install").returncode == 0
    assert tree(desk.root / "home").keys() == first.keys()
    assert (desk.config / "mimeapps.list").read_text().count(MIME_TYPE) == 1


@needs_tools
def test_system_install_into_a_prefix(desk: Desktop) -> None:
    prefix = desk.root / "usr"
    proc = desk.citeview("install", "--system", "--prefix", str(prefix))
    assert proc.returncode == 0, proc.stderr
    share = prefix / "share"
    assert (share / "applications" / DESKTOP_ID).is_file()
    assert get_default((share / "applications" / "mimeapps.list").read_text(),
                       MIME_TYPE) == f"{DESKTOP_ID};"
    assert not desk.data.exists() and not desk.config.exists()  # the user's are untouched
    desk.env["XDG_DATA_DIRS"] = f"{share}:{desk.system}"
    cite = desk.root / "answer.cite"
    cite.write_text(CITATIONS)
    assert desk.xdg_mime("query", "filetype", str(cite)) == MIME_TYPE
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    assert desk.citeview("uninstall", "--system", "--prefix", str(prefix)).returncode == 0
    assert tree(prefix) == {}


def test_a_folder_that_cannot_be_written_is_named(desk: Desktop) -> None:
    blocker = desk.root / "not-a-folder"
    blocker.write_text("a file where the prefix should be")
    proc = desk.citeview("install", "--system", "--prefix", str(blocker))
    assert proc.returncode == 2
    assert proc.stderr.startswith("citeview: cannot write ") and str(blocker) in proc.stderr
    assert "Traceback" not in proc.stderr


def test_uninstall_when_nothing_is_installed_says_so(desk: Desktop) -> None:
    proc = desk.citeview("uninstall")
    assert proc.returncode == 0
    assert "no citeview desktop integration is installed" in proc.stdout


def exec_arguments(value: str) -> list[str]:
    """Split an ``Exec`` value as the desktop entry spec says: the entry's string escapes
    (``\\\\`` is one backslash) come off first; then arguments part at spaces, and inside
    double quotes a backslash makes the next of ``"`, $, \\`` a plain character."""
    value = value.replace("\\\\", "\\")
    args, current, quoted, i = [], "", False, 0
    while i < len(value):
        c = value[i]
        if quoted and c == "\\" and i + 1 < len(value) and value[i + 1] in '"`$\\':
            current += value[i + 1]
            i += 1
        elif c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            args.append(current)
            current = ""
        else:
            current += c
        i += 1
    assert not quoted
    return [*args, current]


@pytest.mark.parametrize("program", ["/opt/cite view/bin/citeview", '/x/$HOME/"q"/cv',
                                     "/usr/bin/citeview", "/x/100%/citeview"])
def test_exec_quotes_a_program_path_as_the_spec_says(program: str, tmp_path: Path) -> None:
    entry = desktop.desktop_entry(program)
    exec_line = next(ln for ln in entry.splitlines() if ln.startswith("Exec="))
    assert exec_arguments(exec_line[len("Exec="):]) == [program.replace("%", "%%"), "%F"]
    if shutil.which("desktop-file-validate"):
        path = tmp_path / "citeview.desktop"
        path.write_text(entry)
        subprocess.run(["desktop-file-validate", str(path)], check=True)


# -- mimeapps.list editing -------------------------------------------------------------
keys = st.sampled_from(["text/plain", "image/png", "application/json", MIME_TYPE,
                        "application/pdf"])
entry_lines = st.builds(lambda k, v: f"{k}={v}.desktop;", keys,
                        st.text("abcxyz", min_size=1, max_size=5))
comments = st.text("abc #", max_size=10).map(lambda t: "#" + t)
sections = st.lists(st.tuples(st.sampled_from(["[Default Applications]",
                                               "[Added Associations]",
                                               "[Removed Associations]"]),
                              st.lists(st.one_of(entry_lines, comments, st.just("")),
                                       max_size=4)), max_size=3)


def extra_lines(longer: list[str], shorter: list[str]) -> list[str] | None:
    """The lines ``longer`` has beyond ``shorter``, if ``shorter`` is ``longer`` with
    those taken out (order kept); else None."""
    extra, rest = [], iter(shorter)
    pending = next(rest, None)
    for line in longer:
        if line == pending:
            pending = next(rest, None)
        else:
            extra.append(line)
    return extra if pending is None else None


@given(sections)
def test_setting_then_removing_a_default_gives_the_file_back(parts: list[tuple[str, list[str]]]
                                                             ) -> None:
    text = "".join(f"{h}\n" + "".join(f"{ln}\n" for ln in body) for h, body in parts)
    if get_default(text, MIME_TYPE) is not None:
        return  # someone's own default for .cite files: install replaces it on purpose
    entry = f"{MIME_TYPE}={DESKTOP_ID};"
    edited = set_default(text, MIME_TYPE, f"{DESKTOP_ID};")
    assert get_default(edited, MIME_TYPE) == f"{DESKTOP_ID};"
    # Every line that was there is still there, in order; one entry is added (with the
    # section's header when there was none).
    extra = extra_lines(edited.splitlines(), text.splitlines())
    if "[Default Applications]" in text:
        assert extra == [entry]
    else:
        assert extra is not None and [ln for ln in extra if ln] == ["[Default Applications]",
                                                                   entry]
    restored = remove_default(edited, MIME_TYPE, f"{DESKTOP_ID};")
    assert extra_lines(edited.splitlines(), restored.splitlines()) == [entry]


def test_a_default_chosen_since_is_not_removed() -> None:
    text = set_default("", MIME_TYPE, f"{DESKTOP_ID};")
    chosen = set_default(text, MIME_TYPE, "othercite.desktop;")
    assert remove_default(chosen, MIME_TYPE, f"{DESKTOP_ID};") == chosen


@needs_tools
def test_uninstall_keeps_what_others_put_in_the_folders_install_made(desk: Desktop) -> None:
    """install made applications/ and mime/; a foreign menu entry, a user's note and a
    MIME package added since stay, with their folders (uninstall once removed them all)."""
    assert desk.citeview("install").returncode == 0
    apps, packages = desk.data / "applications", desk.data / "mime" / "packages"
    (apps / "other.desktop").write_text("[Desktop Entry]\nType=Application\nName=Other\n"
                                        "Exec=true %f\nMimeType=text/x-other;\n")
    (apps / "kde").mkdir()
    (apps / "kde" / "old.desktop").write_text("[Desktop Entry]\nType=Application\nName=Old\n"
                                              "Exec=true\n")
    (apps / "my notes.txt").write_text("the user's own")
    (packages / "other.xml").write_text(
        '<?xml version="1.0"?>\n<mime-info xmlns="http://www.freedesktop.org/standards/'
        'shared-mime-info"><mime-type type="text/x-other"><comment>Other</comment>'
        '<glob pattern="*.other"/></mime-type></mime-info>\n')
    subprocess.run(["update-mime-database", str(desk.data / "mime")], check=True)
    theirs = {p: p.read_bytes() for p in (apps / "other.desktop", apps / "kde" / "old.desktop",
                                          apps / "my notes.txt", packages / "other.xml")}
    proc = desk.citeview("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert {p: p.read_bytes() for p in theirs} == theirs
    left = tree(desk.root / "home")
    assert not [n for n, data in left.items() if b"citeview" in data or "citeview" in n]
    other = desk.root / "x.other"
    other.write_text("x")
    assert desk.xdg_mime("query", "filetype", str(other)) == "text/x-other"  # db rebuilt
    assert not (desk.data / "icons").exists()  # made by install, and emptied


@needs_tools
def test_a_users_own_entry_is_kept_unless_forced_and_put_back_by_uninstall(
        desk: Desktop) -> None:
    apps = desk.data / "applications"
    apps.mkdir(parents=True)
    own = apps / DESKTOP_ID
    own.write_text("[Desktop Entry]\nType=Application\nName=My citeview\n"
                   "Exec=/opt/mine/citeview --my-flags %F\n")
    desk.config.mkdir(parents=True)
    defaults = desk.config / "mimeapps.list"
    defaults.write_text(f"[Default Applications]\n{MIME_TYPE}=myeditor.desktop;\n")
    before = tree(desk.root / "home")
    refused = desk.citeview("install")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert str(own) in refused.stderr and "myeditor.desktop" in refused.stderr
    assert "--force" in refused.stderr
    assert tree(desk.root / "home") == before  # nothing written, nothing made
    forced = desk.citeview("install", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "citeview" in own.read_text() and "--my-flags" not in own.read_text()
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID
    proc = desk.citeview("uninstall")
    assert proc.returncode == 0 and f"put back: {own}" in proc.stdout
    after = tree(desk.root / "home")
    cache = str(apps / "mimeinfo.cache")  # rebuilt by update-desktop-database for the
    assert b"citeview" not in after.pop(cache)  # user's entry, which it now lists alone
    assert after == before  # the user's entry and default, as they were


@needs_tools
def test_a_linked_mimeapps_list_is_edited_through_the_link(desk: Desktop) -> None:
    dotfiles = desk.root / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "mimeapps.list"
    real.write_text("[Default Applications]\ntext/plain=notes.desktop;\n")
    before = real.read_bytes()
    desk.config.mkdir(parents=True)
    (desk.config / "mimeapps.list").symlink_to(real)
    assert desk.citeview("install").returncode == 0
    assert (desk.config / "mimeapps.list").is_symlink()
    assert get_default(real.read_text(), MIME_TYPE) == f"{DESKTOP_ID};"
    assert desk.xdg_mime("query", "default", MIME_TYPE) == DESKTOP_ID  # read through it
    assert get_default(real.read_text(), "text/plain") == "notes.desktop;"
    assert desk.citeview("uninstall").returncode == 0
    assert (desk.config / "mimeapps.list").is_symlink() and real.read_bytes() == before


@needs_tools
def test_a_failed_install_leaves_nothing(desk: Desktop) -> None:
    """The 256 px icon folder cannot be made (a file stands there): the menu entry, the
    MIME package and the smaller icons, already written, all go again."""
    hicolor = desk.data / "icons" / "hicolor"
    hicolor.mkdir(parents=True)
    (hicolor / "256x256").write_text("a file where a folder should be")
    before = tree(desk.root / "home")
    proc = desk.citeview("install")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "256x256" in proc.stderr and "nothing was installed" in proc.stderr
    assert tree(desk.root / "home") == before
    assert sorted(p.name for p in desk.data.iterdir()) == ["icons"]
    assert not desk.config.exists()


@needs_tools
def test_a_file_changed_since_install_is_left_by_uninstall(desk: Desktop) -> None:
    assert desk.citeview("install").returncode == 0
    entry = desk.data / "applications" / DESKTOP_ID
    entry.write_text(entry.read_text() + "X-Mine=kept\n")
    proc = desk.citeview("uninstall")
    assert proc.returncode == 0 and "changed since it was installed" in proc.stdout
    assert "X-Mine=kept" in entry.read_text()
    assert not (desk.data / "icons").exists()
