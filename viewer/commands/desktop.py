"""``citeview desktop install|uninstall``: register citeview with a freedesktop desktop.

Writes, from the files shipped inside the package (so it works from an installed wheel or
the bundled app, not only from a checkout):

* ``applications/citeview.desktop`` — the menu entry, which opens ``.cite`` files and is
  offered for PDFs (``MimeType=application/x-citeview-citations;application/pdf;``);
* ``mime/packages/citeview-mime.xml`` — the ``.cite`` file type, a kind of JSON;
* the icon, as PNGs rendered from ``resources/citeview.svg`` at the hicolor sizes and as
  the SVG itself, for the application (``apps/citeview``) and for its files
  (``mimetypes/application-x-citeview-citations``).

Then it refreshes the desktop's databases (``update-mime-database``,
``update-desktop-database``, and ``gtk-update-icon-cache`` where the icon theme has a cache)
and makes citeview the default application for ``.cite`` files in ``mimeapps.list``.
For PDFs citeview is only offered under "Open With": should its entry alone make it the
answer for PDFs (a desktop without an explicit PDF default takes the first entry it finds,
and the user's own folder comes first), the PDF application from before is written down
as the default, and that is undone by ``uninstall``.

Everything written is recorded in a manifest beside the files, so ``uninstall`` removes
exactly that: the files, the defaults it set, the folders it made, and the database files
generated from its files alone. For the current user (``~/.local/share`` and
``~/.config``, following ``XDG_DATA_HOME``/``XDG_CONFIG_HOME``) by default; ``--system``
for everyone (``/usr/local/share``, or ``--prefix``/share).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from matcher.files import WriteError, write_bytes_atomically

DESKTOP_ID = "citeview.desktop"
MIME_TYPE = "application/x-citeview-citations"
PDF_TYPE = "application/pdf"
APP_ICON = "citeview"
MIME_ICON = MIME_TYPE.replace("/", "-")  # the icon name the MIME spec derives from the type
MIME_XML = "citeview-mime.xml"
# The hicolor theme's usual sizes: menus (16-24), launchers and docks (32-64), file
# managers' large views and app overviews (128-512).
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
MANIFEST = Path("citeview") / "desktop-install.json"
DEFAULTS_SECTION = "[Default Applications]"
# Each database tool finishes in well under a second; a hung one is not waited for longer.
TOOL_TIMEOUT_S = 60
EXIT_OK, EXIT_FAILED = 0, 2


class DesktopError(Exception):
    """Installing or uninstalling failed: the message says what and where, for the person."""


@dataclass(frozen=True)
class Target:
    """Where the files go: ``data`` (the ``share`` folder that holds ``applications/``,
    ``mime/``, ``icons/``) and ``defaults`` (the ``mimeapps.list`` for the default)."""

    data: Path
    defaults: Path
    system: bool = False

    @classmethod
    def for_user(cls, env: Mapping[str, str] | None = None) -> Target:
        env = os.environ if env is None else env
        home = Path(env.get("HOME") or Path.home())
        data = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
        config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        return cls(data=data, defaults=config / "mimeapps.list")

    @classmethod
    def for_system(cls, prefix: Path = Path("/usr/local")) -> Target:
        # Distribution-wide defaults live in the data folders' applications/mimeapps.list.
        data = prefix / "share"
        return cls(data=data, defaults=data / "applications" / "mimeapps.list", system=True)


@dataclass
class Report:
    """What an install or uninstall did, for the person."""

    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# -- what is installed -----------------------------------------------------------------
def _shipped(name: str) -> bytes:
    """A file shipped inside the package (``resources/``)."""
    return (resources.files("resources") / name).read_bytes()


def render_icons(svg: bytes, sizes: Sequence[int] = ICON_SIZES) -> dict[int, bytes]:
    """The SVG as square PNGs with transparency, one per size (rendered by PyMuPDF)."""
    import pymupdf

    out: dict[int, bytes] = {}
    with pymupdf.open(stream=svg, filetype="svg") as doc:
        page = doc[0]
        side = max(page.rect.width, page.rect.height)
        for size in sizes:
            zoom = size / side
            pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=True)
            out[size] = pix.tobytes("png")
    return out


def _exec_quoted(program: str) -> str:
    """``program`` as the desktop entry spec wants it in ``Exec``: bare if it has only
    plain characters, else in double quotes with ``"`, $ \\`` escaped; ``%`` doubled."""
    program = program.replace("%", "%%")
    if all(c.isalnum() or c in "/._+-" for c in program):
        return program
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in program)
    # The entry's own string escaping comes on top: a backslash is written twice.
    return '"' + escaped.replace("\\", "\\\\") + '"'


def desktop_entry(launcher: str) -> str:
    """The shipped desktop entry, starting ``launcher`` (``citeview`` when that is on PATH,
    else this program's absolute path)."""
    lines = []
    for line in _shipped("desktop/citeview.desktop").decode("utf-8").splitlines():
        if line.startswith("Exec="):
            line = f"Exec={_exec_quoted(launcher)} %F"
        elif line.startswith("TryExec="):
            line = f"TryExec={launcher}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def launcher() -> str:
    """How the desktop should start this citeview: ``citeview`` if that command on PATH
    is this program, else this program's absolute path (a virtual environment's
    ``bin/citeview``, the bundled app's executable)."""
    if getattr(sys, "frozen", False):
        me: Path | None = Path(sys.executable)
    else:
        argv0 = Path(sys.argv[0])
        me = argv0 if argv0.name == "citeview" and argv0.is_file() else None
    on_path = shutil.which("citeview")
    if me is None:
        return "citeview" if on_path is None else on_path
    me = Path(os.path.abspath(me))
    if on_path is not None and Path(on_path).resolve() == me.resolve():
        return "citeview"
    return str(me)


def planned(target: Target, program: str) -> dict[Path, bytes]:
    """Every file ``install`` writes under ``target.data``, and its content."""
    svg = _shipped("citeview.svg")
    hicolor = target.data / "icons" / "hicolor"
    files = {
        target.data / "applications" / DESKTOP_ID: desktop_entry(program).encode("utf-8"),
        target.data / "mime" / "packages" / MIME_XML: _shipped(f"desktop/{MIME_XML}"),
    }
    for size, png in render_icons(svg).items():
        for context, name in (("apps", APP_ICON), ("mimetypes", MIME_ICON)):
            files[hicolor / f"{size}x{size}" / context / f"{name}.png"] = png
    for context, name in (("apps", APP_ICON), ("mimetypes", MIME_ICON)):
        files[hicolor / "scalable" / context / f"{name}.svg"] = svg
    return files


# -- mimeapps.list ---------------------------------------------------------------------
def _section_bounds(lines: list[str], header: str) -> tuple[int, int] | None:
    """Index of ``header`` and of the line after its section's last line, if present."""
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == header)
    except StopIteration:
        return None
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip().startswith("[")), len(lines))
    return start, end


def get_default(text: str, mime: str) -> str | None:
    """The value of ``mime`` under ``[Default Applications]`` in a mimeapps.list."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    if bounds is None:
        return None
    for line in lines[bounds[0] + 1:bounds[1]]:
        key, sep, value = line.partition("=")
        if sep and key.strip() == mime:
            return value.strip()
    return None


def set_default(text: str, mime: str, value: str) -> str:
    """``text`` (a mimeapps.list) with ``mime=value`` under ``[Default Applications]``;
    every other line kept as it was."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    entry = f"{mime}={value}"
    if bounds is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [DEFAULTS_SECTION, entry]
    else:
        start, end = bounds
        for i in range(start + 1, end):
            if lines[i].partition("=")[0].strip() == mime:
                lines[i] = entry
                break
        else:
            last = end
            while last > start + 1 and not lines[last - 1].strip():
                last -= 1  # after the section's last entry, not after its blank lines
            lines.insert(last, entry)
    return "\n".join(lines) + "\n"


def remove_default(text: str, mime: str, value: str) -> str:
    """``text`` without ``mime=value`` under ``[Default Applications]`` (left alone when
    someone has since chosen another default)."""
    lines = text.splitlines()
    bounds = _section_bounds(lines, DEFAULTS_SECTION)
    if bounds is None:
        return text
    start, end = bounds
    kept = [ln for i, ln in enumerate(lines)
            if not (start < i < end and ln.partition("=")[0].strip() == mime
                    and ln.partition("=")[2].strip() == value)]
    return "\n".join(kept) + "\n" if kept else ""


def has_entries(text: str) -> bool:
    """Does a mimeapps.list say anything (a key, or a comment someone wrote)?"""
    return any(ln.strip() and not ln.strip().startswith("[") for ln in text.splitlines())


# -- writing ---------------------------------------------------------------------------
def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all, by citeview's one writer (a link is written
    through; a new file is readable by every user, as a menu entry must be)."""
    try:
        write_bytes_atomically(path, data, new_mode=0o644)
    except WriteError as exc:
        raise DesktopError(str(exc)) from None


def _make_dirs(folder: Path, created: list[Path]) -> None:
    """``mkdir -p``, noting each folder it made (outermost first)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for d in reversed(missing):
        d.mkdir()
        created.append(d)


def _run_tool(args: Sequence[str], report: Report) -> bool:
    """Run a desktop database tool if it is installed; a note if it is not or fails."""
    if shutil.which(args[0]) is None:
        report.notes.append(f"{args[0]} is not installed, so the desktop learns of the "
                            "change only when it next rebuilds its caches")
        return False
    try:
        proc = subprocess.run(list(args), capture_output=True, text=True,
                              timeout=TOOL_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        report.notes.append(f"{args[0]} failed: {exc}")
        return False
    if proc.returncode != 0:
        report.notes.append(f"{args[0]} failed: {proc.stderr.strip() or proc.returncode}")
        return False
    return True


def query_default(mime: str) -> str:
    """The desktop's default application for ``mime``, as ``xdg-mime`` answers ('' if it
    names none or is not installed)."""
    if shutil.which("xdg-mime") is None:
        return ""
    try:
        proc = subprocess.run(["xdg-mime", "query", "default", mime], capture_output=True,
                              text=True, timeout=TOOL_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def refresh(target: Target, report: Report) -> None:
    """Rebuild the databases the desktop reads from the folders of ``target``."""
    mime, apps = target.data / "mime", target.data / "applications"
    hicolor = target.data / "icons" / "hicolor"
    if (mime / "packages").is_dir():
        _run_tool(["update-mime-database", str(mime)], report)
    if apps.is_dir():
        _run_tool(["update-desktop-database", str(apps)], report)
    if hicolor.is_dir():
        # A theme folder with a cache must have it rebuilt, or its new icons stay unseen;
        # one without is read directly (a cache made here would then need keeping up).
        if (hicolor / "icon-theme.cache").exists() or (hicolor / "index.theme").exists():
            _run_tool(["gtk-update-icon-cache", "-q", "-t", "-f", str(hicolor)], report)
        with contextlib.suppress(OSError):
            os.utime(hicolor)  # icon loaders watch the theme folder's time


def _manifest_path(target: Target) -> Path:
    return target.data / MANIFEST


def _edit_defaults(target: Target, report: Report, edit: dict[str, str],
                   created: list[Path]) -> bool:
    """Set ``edit`` (mime → value) in the target's mimeapps.list; True if the file was new."""
    path = target.defaults
    existed = path.exists()
    text = path.read_text(encoding="utf-8") if existed else ""
    for mime, value in edit.items():
        text = set_default(text, mime, value)
    _make_dirs(path.parent, created)
    _write_atomically(path, text.encode("utf-8"))
    report.written.append(path)
    return not existed


def install(target: Target, *, program: str | None = None) -> Report:
    """Install the desktop integration into ``target`` (see the module's docstring)."""
    program = launcher() if program is None else program
    report = Report()
    if _manifest_path(target).exists():
        uninstall(target)  # a reinstall replaces the last one whole
    pdf_before = query_default(PDF_TYPE)
    files = planned(target, program)
    created: list[Path] = []
    try:
        for path, data in files.items():
            _make_dirs(path.parent, created)
            _write_atomically(path, data)
            report.written.append(path)
        refresh(target, report)
        defaults = {MIME_TYPE: f"{DESKTOP_ID};"}
        defaults_created = _edit_defaults(target, report, defaults, created)
        pdf_after = query_default(PDF_TYPE)
        if pdf_after == DESKTOP_ID and pdf_before not in ("", DESKTOP_ID):
            # Our entry alone made citeview the PDF application: keep the one from before.
            pin = {PDF_TYPE: f"{pdf_before};"}
            _edit_defaults(target, report, pin, created)
            defaults |= pin
            report.notes.append(f"PDFs still open in {pdf_before} (kept as their default)")
        _make_dirs(_manifest_path(target).parent, created)
        manifest = {"files": [str(p) for p in files], "created_dirs": [str(d) for d in created],
                    "defaults_file": str(target.defaults), "defaults": defaults,
                    "defaults_created": defaults_created, "program": program}
        _write_atomically(_manifest_path(target),
                          json.dumps(manifest, indent=1).encode("utf-8"))
    except OSError as exc:
        where = exc.filename or target.data
        hint = " (--system needs root)" if target.system and isinstance(
            exc, PermissionError) else ""
        raise DesktopError(f"cannot write {where}: {exc.strerror or exc}{hint}") from None
    return report


def uninstall(target: Target) -> Report:
    """Remove what :func:`install` wrote into ``target``, and the defaults it set."""
    report = Report()
    path = _manifest_path(target)
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        report.notes.append(f"no citeview desktop integration is installed in {target.data}")
        return report
    except (OSError, ValueError) as exc:
        raise DesktopError(f"cannot read {path}: {exc}") from None
    try:
        for name in manifest["files"]:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)
                report.removed.append(Path(name))
        _undo_defaults(manifest, report)
        os.unlink(path)
        report.removed.append(path)
        _remove_created_dirs(target, [Path(d) for d in manifest["created_dirs"]], report)
        refresh(target, report)
    except OSError as exc:
        raise DesktopError(f"cannot remove {exc.filename or target.data}: "
                           f"{exc.strerror or exc}") from None
    return report


def _undo_defaults(manifest: Mapping[str, object], report: Report) -> None:
    defaults_file = Path(str(manifest["defaults_file"]))
    if not defaults_file.exists():
        return
    text = defaults_file.read_text(encoding="utf-8")
    defaults = manifest["defaults"]
    assert isinstance(defaults, dict)
    for mime, value in defaults.items():
        text = remove_default(text, mime, value)
    if manifest.get("defaults_created") and not has_entries(text):
        os.unlink(defaults_file)
        report.removed.append(defaults_file)
    else:
        _write_atomically(defaults_file, text.encode("utf-8"))


# Folders whose other content is generated from the files in them by the database tools:
# once the files that feed them are gone (and install made the folder), all of it goes.
_GENERATED_FROM = {Path("mime"): ("packages", "*.xml"),
                   Path("applications"): (".", "*.desktop")}


def _remove_created_dirs(target: Target, created: list[Path], report: Report) -> None:
    for rel, (source, pattern) in _GENERATED_FROM.items():
        folder = target.data / rel
        if folder in created and folder.is_dir() and not any((folder / source).glob(pattern)):
            shutil.rmtree(folder)
            report.removed.append(folder)
    for folder in sorted(created, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(FileNotFoundError, OSError):
            folder.rmdir()  # only if empty: something else may have been put there since


# -- the command -----------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citeview desktop",
        description="Register citeview with the desktop (Linux and other freedesktop "
                    "systems): a menu entry, the .cite file type opened by citeview, "
                    "citeview under Open With for PDFs, and its icons.")
    parser.add_argument("action", choices=("install", "uninstall"))
    parser.add_argument("--system", action="store_true",
                        help="for every user of this computer (/usr/local/share; needs "
                             "root) instead of for you (~/.local/share)")
    parser.add_argument("--prefix", type=Path, metavar="DIR",
                        help="with --system: install into DIR/share instead of "
                             "/usr/local/share (for packagers)")
    return parser


def main(argv: Sequence[str]) -> int:
    """``citeview desktop install|uninstall [--system [--prefix DIR]]``."""
    parser = _parser()
    opts = parser.parse_args(list(argv))
    if opts.prefix is not None and not opts.system:
        parser.error("--prefix goes with --system")
    target = (Target.for_system(opts.prefix or Path("/usr/local")) if opts.system
              else Target.for_user())
    try:
        report = install(target) if opts.action == "install" else uninstall(target)
    except DesktopError as exc:
        print(f"citeview: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if opts.action == "install":
        entry = target.data / "applications" / DESKTOP_ID
        print(f"citeview desktop integration installed in {target.data}:\n"
              f"  menu entry  {entry}\n"
              f"  file type   {MIME_TYPE} (*.cite), opened by citeview by default "
              f"({target.defaults})\n"
              f"  PDFs        citeview is offered under Open With\n"
              f"  icons       {len(ICON_SIZES)} sizes and scalable, in "
              f"{target.data / 'icons' / 'hicolor'}")
    elif report.removed:
        print(f"citeview desktop integration removed from {target.data} "
              f"({len(report.removed)} files and folders)")
    for note in report.notes:
        print(f"  note: {note}")
    return EXIT_OK
