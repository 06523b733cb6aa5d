"""``--screenshot PNG``: save the window once it shows what a person would look at.

That is: nothing running in the background, and every visible page rendered with its
highlights painted. Both are waited for by their signals, never by sleeping; a window
that is not ready after :data:`SCREENSHOT_TIMEOUT_S` is saved as it is, and the exit
status says so. ``--geometry-json`` also records where each page and highlight rectangle
was painted, in the PNG's pixels, so tests can check them against PyMuPDF.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QApplication, QWidget

from matcher.files import WriteError, write_bytes_atomically

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from ..render.view import PageView
    from ..state.session import Session

# A screenshot that is not ready after this long is taken anyway and the exit code says so.
SCREENSHOT_TIMEOUT_S = 60.0
# The program's exit status once the window is saved (or could not be).
EXIT_OK, EXIT_FAILED = 0, 1
# The PNG's zlib level: 1, the fastest. PNG is lossless at every level; on window grabs
# (UI and rendered pages) a higher level made the files hardly smaller and took longer.
PNG_LEVEL = 1


class Shown(Protocol):
    """What a screenshot reads of a window: its view (whose top-level widget is grabbed),
    the claim selected, and when nothing is running and every visible page is painted."""

    @property
    def view(self) -> PageView: ...
    @property
    def session(self) -> Session: ...
    @property
    def settled(self) -> SignalInstance: ...
    @property
    def busy_changed(self) -> SignalInstance: ...
    def is_settled(self) -> bool: ...
    def shutdown(self, *, wait: bool = True) -> None: ...


class Screenshot(QObject):
    """Saves the window once nothing is running and every visible page is rendered."""

    def __init__(self, window: Shown, path: Path, geometry: Path | None) -> None:
        super().__init__(window.view)
        self.window = window
        self.path = path
        self.geometry = geometry
        self.error = ""
        self._done = False
        window.settled.connect(self._check)
        window.busy_changed.connect(self._check)
        self._watchdog = QTimer(self, singleShot=True, interval=int(SCREENSHOT_TIMEOUT_S * 1000))
        self._watchdog.timeout.connect(self._timeout)
        self._watchdog.start()
        QTimer.singleShot(0, self._check)

    def _check(self) -> None:
        if not self._done and self.window.is_settled():
            # Let the paints and callbacks queued in this turn run, then look again.
            QTimer.singleShot(0, self._shoot_if_settled)

    def _shoot_if_settled(self) -> None:
        if self._done:
            return
        if not self.window.is_settled():
            self.window.view.viewport().update()  # its paint asks for what is missing
            return
        self._save(EXIT_OK)

    def _timeout(self) -> None:
        if not self._done:
            self.error = (f"the window was not ready after {SCREENSHOT_TIMEOUT_S:.0f} s; "
                          "saved it as it was")
            self._save(EXIT_FAILED)

    def _save(self, code: int) -> None:
        self._done = True
        # Layouts asked for in this turn (a status-bar text that grew) are done first, so
        # the grab shows every widget at its final size.
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        top = self.window.view.window()  # the window the view is in, as a person sees it
        picture = window_picture(top)
        # The picture is taken: the check and render processes leave while it is written
        # (the window's closing below would otherwise wait 7-16 ms for them).
        self.window.shutdown(wait=False)
        try:  # written by the one writer: never over a device or a FIFO, whole or not at all
            png = png_bytes(picture)
            if png is None:
                raise WriteError(self.path, "unwritable", "the picture could not be made")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_bytes_atomically(self.path, png)
            if self.geometry is not None:
                geometry = painted_geometry(self.window, picture.devicePixelRatio())
                write_bytes_atomically(self.geometry, json.dumps(geometry, indent=1).encode())
        except OSError as exc:
            self.error, code = f"cannot write {self.path}: {exc}", EXIT_FAILED
        except WriteError as exc:
            self.error, code = str(exc), EXIT_FAILED
        # Closed here, not from a zero timer: the turn of the event loop in between took
        # 7-20 ms of every screenshot run (timeline of the demo run), with nothing to wait
        # for, the picture being written.
        top.close()
        QApplication.exit(code)


def window_picture(top: QWidget) -> QImage:
    """What the top-level window ``top`` shows, in its device pixels: the image its
    backing store holds (the window's own painting, with what was still to be painted
    painted first), opaque unless the window is translucent. Where that image cannot be
    had, or is not the window's size, the window is painted again for it (``grab``).

    The backing store's image is what ``grab`` would paint anew, pixel for pixel, at any
    scale (tests/viewer/test_screenshot.py): taken as it is, 15 ms of a 1280x800
    screenshot run (44 ms at scale 2) are not spent painting the window a second time."""
    QApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)
    store = top.backingStore()
    device = store.paintDevice() if store is not None else None
    dpr = top.devicePixelRatio()
    if (isinstance(device, QImage) and not device.isNull()
            and (device.width(), device.height()) == (round(top.width() * dpr),
                                                      round(top.height() * dpr))):
        translucent = top.testAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        image = device.copy() if translucent else \
            device.convertToFormat(QImage.Format.Format_RGB32)
        image.setDevicePixelRatio(dpr)
        return image
    return top.grab().toImage()


def png_bytes(picture: QPixmap | QImage) -> bytes | None:
    """The picture as a PNG file's bytes, lossless (RGB, or RGBA where it has an alpha
    channel); None if it holds no picture.

    Written here rather than by Qt's PNG writer, which has libpng choose a filter for
    every row by trying each: 25-27 ms for a 1280x800 window at any zlib level (at level
    0 too), where the picture without filters, compressed at :data:`PNG_LEVEL`, takes
    11-12 ms and comes out smaller (a window is mostly flat colour, which zlib takes well
    unfiltered)."""
    image = picture.toImage() if isinstance(picture, QPixmap) else picture
    if image.isNull():
        return None
    alpha = image.hasAlphaChannel()
    image = image.convertToFormat(QImage.Format.Format_RGBA8888 if alpha
                                  else QImage.Format.Format_RGB888)
    return encode_png(image.constBits(), image.width(), image.height(),
                      image.bytesPerLine(), 4 if alpha else 3)


def encode_png(pixels: bytes | bytearray | memoryview, width: int, height: int,
               stride: int, channels: int, level: int = PNG_LEVEL) -> bytes:
    """A PNG file of 8-bit ``channels`` (3: RGB, 4: RGBA, not premultiplied) of a picture
    whose rows start every ``stride`` bytes of ``pixels``; each row stored unfiltered.

    >>> png = encode_png(bytes([255, 0, 0, 0, 0, 255]), 2, 1, 6, 3)
    >>> png[:8], png[12:16], struct.unpack(">II", png[16:24])
    (b'\\x89PNG\\r\\n\\x1a\\n', b'IHDR', (2, 1))
    """
    if channels not in (3, 4) or width < 1 or height < 1 or stride < width * channels:
        raise ValueError(f"no PNG of {width}x{height}, {channels} channels, stride {stride}")
    source = memoryview(pixels).cast("B")
    if len(source) < stride * (height - 1) + width * channels:
        raise ValueError("the pixels end before the picture does")
    row = width * channels
    rows = bytearray((row + 1) * height)  # each row behind its filter byte, 0: none
    for y in range(height):
        start = y * (row + 1) + 1
        rows[start:start + row] = source[y * stride:y * stride + row]
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     _chunk(b"IDAT", zlib.compress(rows, level)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))))


def painted_geometry(window: Shown, dpr: float) -> dict[str, object]:
    """Where the last paint put each page and highlight, in device pixels of a window grab."""
    view = window.view
    origin = view.viewport().mapTo(view.window(), QPoint(0, 0))

    def device(r: object) -> list[float]:
        x, y, w, h = r.x(), r.y(), r.width(), r.height()  # type: ignore[attr-defined]
        return [(origin.x() + x) * dpr, (origin.y() + y) * dpr, w * dpr, h * dpr]

    return {
        "dpr": dpr,
        "zoom": view.zoom,
        "document": view.doc.path if view.doc is not None else None,
        "claim": window.session.selected,
        "viewport": device(view.viewport().rect()),
        "pages": [{"index": i, "rect": device(r)} for i, r in sorted(view.painted_pages.items())],
        "highlights": [{"page": i, "rect": device(r)} for i, r in view.painted_highlights],
        "highlight_color": view.highlighter.color.name(),
    }
