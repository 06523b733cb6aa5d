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

Everything written is recorded in a manifest beside the files (written before the first
file, so even a killed install can be undone), so ``uninstall`` removes exactly that: the
files (each only if it is still what install wrote), the defaults it set, and the folders
it made once they are empty (or hold nothing but the database files generated from its
own files) — never anyone else's file, never a folder that was there before. A menu
entry, icon or ``.cite`` default that is not citeview's is not replaced without
``--force``; with it, each is backed up and put back by ``uninstall``. A failed install
leaves nothing behind. Every file is written by citeview's one writer, so a
``mimeapps.list`` that is a link is edited through the link.

For the current user (``~/.local/share`` and ``~/.config``, following
``XDG_DATA_HOME``/``XDG_CONFIG_HOME``) by default; ``--system`` for everyone
(``/usr/local/share``, or ``--prefix``/share).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
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

from .mimeapps import get_default as get_default
from .mimeapps import has_entries as has_entries
from .mimeapps import remove_default as remove_default
from .mimeapps import set_default as set_default

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
BACKUPS = Path("citeview") / "desktop-backup"  # what --force replaced, put back by uninstall
MANIFEST_VERSION = 2
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
    restored: list[Path] = field(default_factory=list)
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


# -- writing ---------------------------------------------------------------------------
def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all, by citeview's one writer (a link is written
    through; a new file is readable by every user, as a menu entry must be)."""
    try:
        write_bytes_atomically(path, data, new_mode=0o644)
    except WriteError as exc:
        raise DesktopError(str(exc)) from None


def _make_dirs(folder: Path, created: list[str]) -> None:
    """``mkdir -p``, noting each folder it made (outermost first)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for d in reversed(missing):
        d.mkdir()
        created.append(str(d))


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


def _backup_path(target: Target, path: Path) -> Path:
    return target.data / BACKUPS / path.relative_to(target.data)


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


@dataclass
class Record:
    """The manifest: exactly what an install wrote and replaced, so that uninstall removes
    only that and puts back what was there. Written before the first file (``complete``
    false) and again at the end, so even an install killed half-way can be undone."""

    files: dict[str, str] = field(default_factory=dict)  # path → SHA-256 of what was written
    replaced: dict[str, str] = field(default_factory=dict)  # path → its backup
    created_dirs: list[str] = field(default_factory=list)  # outermost first
    defaults_file: str = ""
    defaults: dict[str, str] = field(default_factory=dict)  # MIME type → value set
    defaults_before: dict[str, str] = field(default_factory=dict)  # → value replaced
    defaults_created: bool = False
    program: str = ""
    generated: list[str] = field(default_factory=list)  # database files made by the tools
    complete: bool = False

    @classmethod
    def read(cls, path: Path) -> Record:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data.get("files"), list):  # an install from before SHA-256s were kept
            data["files"] = {name: "" for name in data["files"]}
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    def write(self, target: Target) -> None:
        _write_atomically(_manifest_path(target), json.dumps(
            dataclasses.asdict(self) | {"version": MANIFEST_VERSION}, indent=1).encode())


def _edit_defaults(target: Target, record: Record, edit: dict[str, str]) -> None:
    """Set ``edit`` (mime → value) in the target's mimeapps.list, through a link if it is
    one (the one writer follows it), noting each value it replaced."""
    path = target.defaults
    existed = os.path.lexists(path)
    text = path.read_text(encoding="utf-8") if existed else ""
    for mime, value in edit.items():
        before = get_default(text, mime)
        if before is not None and before != value and mime not in record.defaults_before:
            record.defaults_before[mime] = before
        text = set_default(text, mime, value)
    _write_atomically(path, text.encode("utf-8"))
    record.defaults |= edit
    record.defaults_created = record.defaults_created or not existed


def _foreign(target: Target, files: Mapping[Path, bytes]) -> list[str]:
    """What install would replace that citeview did not put there: files at its paths,
    and another application set as the default for ``.cite`` files."""
    found = [str(p) for p in files if os.path.lexists(p)]
    try:
        chosen = get_default(target.defaults.read_text(encoding="utf-8"), MIME_TYPE)
    except (OSError, UnicodeDecodeError):
        chosen = None
    if chosen not in (None, "", f"{DESKTOP_ID};"):
        found.append(f"the default for .cite files in {target.defaults} ({chosen})")
    return found


def install(target: Target, *, program: str | None = None, force: bool = False) -> Report:
    """Install the desktop integration into ``target`` (see the module's docstring).
    DesktopError when a file of someone else's is in the way (unless ``force``: it is
    backed up, and put back by uninstall) or a file cannot be written — then nothing of
    this install is left."""
    program = launcher() if program is None else program
    report = Report()
    if os.path.lexists(_manifest_path(target)):
        uninstall(target)  # a reinstall replaces the last one whole
    files = planned(target, program)
    foreign = _foreign(target, files)
    if foreign and not force:
        raise DesktopError("not installed: these are not citeview's and would be replaced:\n"
                           + "".join(f"  {f}\n" for f in foreign)
                           + "give --force to replace them (each is backed up, and put "
                           "back by citeview desktop uninstall)")
    pdf_before = query_default(PDF_TYPE)
    record = Record(defaults_file=str(target.defaults), program=program)
    try:
        try:
            folders = [_manifest_path(target).parent, target.defaults.parent,
                       *(p.parent for p in files)]
            for folder in dict.fromkeys(folders):
                _make_dirs(folder, record.created_dirs)
            record.write(target)  # first: an install killed from here on can be undone
            for path in files:
                if os.path.lexists(path):  # someone else's, and --force was given
                    backup = _backup_path(target, path)
                    _make_dirs(backup.parent, record.created_dirs)
                    record.replaced[str(path)] = str(backup)
                    record.write(target)
                    os.replace(path, backup)
            for path, data in files.items():
                record.files[str(path)] = hashlib.sha256(data).hexdigest()
                _write_atomically(path, data)
                report.written.append(path)
            record.write(target)
            had = _database_files(target)
            refresh(target, report)
            record.generated = sorted(str(p) for p in _database_files(target) - had)
            _edit_defaults(target, record, {MIME_TYPE: f"{DESKTOP_ID};"})
            pdf_after = query_default(PDF_TYPE)
            if pdf_after == DESKTOP_ID and pdf_before not in ("", DESKTOP_ID):
                # Our entry alone made citeview the PDF application: keep the one from before.
                _edit_defaults(target, record, {PDF_TYPE: f"{pdf_before};"})
                report.notes.append(f"PDFs still open in {pdf_before} (kept as their default)")
            report.written.append(target.defaults)
            record.complete = True
            record.write(target)
        except OSError as exc:
            where = exc.filename or target.data
            hint = " (--system needs root)" if target.system and isinstance(
                exc, PermissionError) else ""
            raise DesktopError(f"cannot write {where}: {exc.strerror or exc}{hint}") from None
    except BaseException as exc:
        with contextlib.suppress(OSError):  # what stopped the install may stop this too
            _undo(target, record, Report())  # nothing of a failed install is left
        if isinstance(exc, DesktopError):
            raise DesktopError(f"{exc}; nothing was installed") from None
        raise
    for name in record.replaced:
        report.notes.append(f"{name} was replaced (kept; uninstall puts it back)")
    return report


def uninstall(target: Target) -> Report:
    """Remove exactly what :func:`install` wrote into ``target`` (a file changed since is
    left, and said), put back what it replaced, and undo the defaults it set."""
    report = Report()
    path = _manifest_path(target)
    if not os.path.lexists(path):
        report.notes.append(f"no citeview desktop integration is installed in {target.data}")
        return report
    try:
        record = Record.read(path)
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        raise DesktopError(f"cannot read {path}: {exc}") from None
    try:
        _undo(target, record, report)
    except OSError as exc:
        raise DesktopError(f"cannot remove {exc.filename or target.data}: "
                           f"{exc.strerror or exc}") from None
    return report


def _undo(target: Target, record: Record, report: Report) -> None:
    """Take back what ``record`` says was done (an install whole, or the part a failed
    or killed one got to)."""
    for name, sha in record.files.items():
        if not os.path.lexists(path := Path(name)):
            continue
        if sha and _sha256(path) != sha:
            report.notes.append(f"{path} was changed since it was installed; left as it is")
            continue
        os.unlink(path)
        report.removed.append(path)
    for name, backup in record.replaced.items():
        if os.path.lexists(backup) and not os.path.lexists(name):
            os.replace(backup, name)
            report.restored.append(Path(name))
    _undo_defaults(record, report)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(_manifest_path(target))
        report.removed.append(_manifest_path(target))
    created = [Path(d) for d in record.created_dirs]
    refresh(target, report)  # the databases rebuilt without citeview's files
    for name in record.generated:  # made by the tools for this install, needed by no one
        path = Path(name)
        if path.is_file() and not path.is_symlink() and not _has_sources(path.parent):
            os.unlink(path)
            report.removed.append(path)
    _remove_empty(created)
    _remove_generated(target, created, report)
    _remove_empty(created)


def _undo_defaults(record: Record, report: Report) -> None:
    defaults_file = Path(record.defaults_file)
    if not record.defaults or not defaults_file.exists():
        return
    text = defaults_file.read_text(encoding="utf-8")
    for mime, value in record.defaults.items():
        text = remove_default(text, mime, value)
        before = record.defaults_before.get(mime)
        if before is not None and get_default(text, mime) is None:
            text = set_default(text, mime, before)  # the default from before install
    if record.defaults_created and not has_entries(text):
        os.unlink(defaults_file)
        report.removed.append(defaults_file)
    else:
        _write_atomically(defaults_file, text.encode("utf-8"))


# The files the desktop's database tools generate in a folder from its sources (the MIME
# packages, the .desktop entries): where install made the folder and they are all that is
# left in it, they go with it. Anything else in it — anyone's file — keeps the folder.
_GENERATED = {Path("mime"): {"aliases", "globs", "globs2", "icons", "generic-icons", "magic",
                             "mime.cache", "subclasses", "treemagic", "types",
                             "XMLnamespaces", "version"},
              Path("applications"): {"mimeinfo.cache"}}


def _has_sources(folder: Path) -> bool:
    """Whether a database folder still holds what its database is made from."""
    if folder.name == "mime":
        return any((folder / "packages").glob("*.xml"))
    return any(folder.rglob("*.desktop"))


def _database_files(target: Target) -> set[Path]:
    return {target.data / rel / name for rel, names in _GENERATED.items() for name in names
            if (target.data / rel / name).is_file()}


def _remove_generated(target: Target, created: list[Path], report: Report) -> None:
    for rel, names in _GENERATED.items():
        folder = target.data / rel
        if folder not in created or not folder.is_dir():
            continue
        entries = list(folder.iterdir())
        if all(_generated(p, names) for p in entries):
            for p in entries:
                if p.is_dir():
                    p.rmdir()
                else:
                    p.unlink()
                    report.removed.append(p)


def _generated(path: Path, names: set[str]) -> bool:
    """A database file, or an empty media-type folder the MIME tool leaves behind."""
    if path.is_symlink():
        return False
    if path.is_dir():
        return not any(path.iterdir())
    return path.name in names and path.is_file()


def _remove_empty(created: list[Path]) -> None:
    """Remove each folder install made, deepest first, if it is empty (never its content)."""
    for folder in sorted(created, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            folder.rmdir()


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
    parser.add_argument("--force", action="store_true",
                        help="install even over a menu entry, icon or .cite default that "
                             "is not citeview's (each is backed up, and put back by "
                             "uninstall)")
    return parser


def main(argv: Sequence[str]) -> int:
    """``citeview desktop install|uninstall [--system [--prefix DIR]] [--force]``."""
    parser = _parser()
    opts = parser.parse_args(list(argv))
    if opts.prefix is not None and not opts.system:
        parser.error("--prefix goes with --system")
    target = (Target.for_system(opts.prefix or Path("/usr/local")) if opts.system
              else Target.for_user())
    try:
        report = (install(target, force=opts.force) if opts.action == "install"
                  else uninstall(target))
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
              f"({len(report.removed)} files)")
    for path in report.restored:
        print(f"  put back: {path} (as it was before install)")
    for note in report.notes:
        print(f"  note: {note}")
    return EXIT_OK
