"""Remembered preferences: colours, recent files, window geometry, zoom mode, each
document's view rotation, the side panel, the reviewer's name.

Everything goes through one ``QSettings`` given to the constructor, so tests point it at a
temporary folder and nothing here reaches for a global.
"""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QColor

from ..palette import DEFAULT_FIND, DEFAULT_HIGHLIGHT, parse_color
from ..state.files import resolved

MAX_RECENT = 10


def os_user() -> str:
    """The login name of the person running citeview ("reviewer" if it cannot be told)."""
    try:
        return getpass.getuser() or "reviewer"
    except (OSError, KeyError, ImportError):  # no such user in the password database
        return "reviewer"


class Preferences:
    """Typed access to the settings citeview keeps between runs."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self.qsettings = settings if settings is not None else QSettings("citeview", "citeview")

    def highlight_color(self) -> QColor:
        value = self.qsettings.value("view/highlight_color", DEFAULT_HIGHLIGHT)
        return parse_color(str(value)) or QColor(DEFAULT_HIGHLIGHT)

    def set_highlight_color(self, color: QColor) -> None:
        self.qsettings.setValue("view/highlight_color", color.name().upper())

    def find_color(self) -> QColor:
        """The colour find hits are outlined in (never the highlight's: see palette)."""
        value = self.qsettings.value("view/find_color", DEFAULT_FIND)
        return parse_color(str(value)) or QColor(DEFAULT_FIND)

    def set_find_color(self, color: QColor) -> None:
        self.qsettings.setValue("view/find_color", color.name().upper())

    def zoom_mode(self) -> str:
        return str(self.qsettings.value("view/zoom_mode", "width"))

    def set_zoom_mode(self, mode: str) -> None:
        self.qsettings.setValue("view/zoom_mode", mode)

    def recent_files(self) -> list[Path]:
        value = self.qsettings.value("files/recent", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [Path(str(v)) for v in items if str(v)]

    def add_recent(self, path: Path) -> None:
        path = resolved(path)
        items = [p for p in self.recent_files() if p != path]
        items.insert(0, path)
        self.qsettings.setValue("files/recent", [str(p) for p in items[:MAX_RECENT]])

    def remove_recent(self, path: Path) -> None:
        """Drop ``path`` from the recent files (it could not be opened)."""
        path = resolved(path)
        items = self.recent_files()
        if path in items:
            self.qsettings.setValue("files/recent", [str(p) for p in items if p != path])

    def last_folder(self) -> Path | None:
        """The folder a file was last chosen in (a file dialog starts there)."""
        value = str(self.qsettings.value("files/last_folder", "") or "")
        return Path(value) if value else None

    def set_last_folder(self, folder: Path) -> None:
        self.qsettings.setValue("files/last_folder", str(folder))

    def clear_recent(self) -> None:
        self.qsettings.setValue("files/recent", [])

    def turn_for(self, document: Path) -> int:
        """The view rotation the reader chose for ``document`` (0 if none)."""
        value = self.qsettings.value(f"turns/{file_key(document)}", 0)
        try:
            turn = int(str(value))
        except ValueError:
            return 0
        return turn if turn in (0, 90, 180, 270) else 0

    def set_turn_for(self, document: Path, turn: int) -> None:
        key = f"turns/{file_key(document)}"
        if turn % 360:
            self.qsettings.setValue(key, turn % 360)
        else:
            self.qsettings.remove(key)

    def side_panel(self) -> bool:
        """Whether the side panel (thumbnails, outline, results) is shown."""
        return str(self.qsettings.value("view/side_panel", "false")).lower() == "true"

    def set_side_panel(self, shown: bool) -> None:
        self.qsettings.setValue("view/side_panel", "true" if shown else "false")

    def geometry(self) -> QByteArray | None:
        value = self.qsettings.value("window/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_geometry(self, data: QByteArray) -> None:
        self.qsettings.setValue("window/geometry", data)

    def splitter_state(self) -> QByteArray | None:
        value = self.qsettings.value("window/splitter")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_splitter_state(self, data: QByteArray) -> None:
        self.qsettings.setValue("window/splitter", data)

    def reviewer(self) -> str:
        """The name review decisions are recorded under: as set, else the OS user's."""
        value = str(self.qsettings.value("review/reviewer", "") or "").strip()
        return value or os_user()

    def set_reviewer(self, name: str) -> None:
        self.qsettings.setValue("review/reviewer", name.strip())

    def review_for(self, citations: Path) -> Path | None:
        """The review file the person chose for ``citations`` (Open Review…, Save As…),
        if any: used instead of the one beside it."""
        value = self.qsettings.value(f"reviews/{file_key(citations)}", "")
        return Path(str(value)) if value else None

    def set_review_for(self, citations: Path, review: Path) -> None:
        self.qsettings.setValue(f"reviews/{file_key(citations)}", str(review))

    def sync(self) -> None:
        self.qsettings.sync()


def file_key(path: Path) -> str:
    """A settings key for a file: a digest of its absolute path (a path's slashes and
    colons would be read as groups and separators)."""
    return hashlib.sha1(str(resolved(path)).encode("utf-8"),
                        usedforsecurity=False).hexdigest()[:24]
