"""Remembered preferences: highlight colour, recent files, window geometry, zoom mode, the
reviewer's name.

Everything goes through one ``QSettings`` given to the constructor, so tests point it at a
temporary folder and nothing here reaches for a global.
"""

from __future__ import annotations

import getpass
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QColor

from ..palette import DEFAULT_HIGHLIGHT, parse_color
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

    def clear_recent(self) -> None:
        self.qsettings.setValue("files/recent", [])

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

    def sync(self) -> None:
        self.qsettings.sync()
