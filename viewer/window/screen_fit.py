"""How big a window may be and where it goes: always inside the screen's available area.

Sizes and places are Qt's logical pixels, so a scale factor (``QT_SCALE_FACTOR=2``, a
HiDPI desktop) is already in the area a screen reports: a 1600×1000 screen at scale 2
offers 800×500. The first window gets :data:`DEFAULT_SIZE` or less and is centred; a
remembered geometry that no longer fits (another screen, another scale) is fitted and
centred the same way; a further window is cascaded below and right of the last one and
kept wholly on screen, its frame (the title bar) included.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# The first window's size when nothing else is said: room for the claims list, the page
# at a readable width and the review panel on a 1366×900 desktop.
DEFAULT_SIZE = QSize(1280, 860)
# Each further window is this far below and right of the one before it.
CASCADE_OFFSET = 32
# A window's frame before it is shown is unknown (the window manager adds it): this much
# is kept for a title bar and borders until it is.
FRAME_GUESS = QSize(16, 40)


def available_area(widget: QWidget) -> QRect:
    """The available geometry of the screen ``widget`` is on (else the primary one)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)


def frame_extra(widget: QWidget) -> QSize:
    """What the frame adds to ``widget``'s size (a guess until it is shown)."""
    if widget.isVisible():
        extra = widget.frameGeometry().size() - widget.size()
        return QSize(max(0, extra.width()), max(0, extra.height()))
    return FRAME_GUESS


def fitted_size(wanted: QSize, area: QRect, frame: QSize, minimum: QSize) -> QSize:
    """``wanted`` made no larger than ``area`` less the frame (and no smaller than the
    window's ``minimum``, where the area allows it)."""
    room = QSize(max(1, area.width() - frame.width()), max(1, area.height() - frame.height()))
    size = wanted.boundedTo(room)
    return size.expandedTo(minimum).boundedTo(room)


def centred(outer: QSize, area: QRect) -> QPoint:
    """Where a frame of size ``outer`` goes to stand centred in ``area``."""
    return QPoint(area.x() + max(0, (area.width() - outer.width()) // 2),
                  area.y() + max(0, (area.height() - outer.height()) // 2))


def cascaded(previous: QRect, outer: QSize, area: QRect) -> QPoint:
    """Where a frame of size ``outer`` goes after one at ``previous``: offset down and
    right, or back to the top left of ``area`` when it would leave it; always inside it."""
    at = previous.topLeft() + QPoint(CASCADE_OFFSET, CASCADE_OFFSET)
    if at.x() + outer.width() > area.x() + area.width() \
            or at.y() + outer.height() > area.y() + area.height():
        at = area.topLeft() + QPoint(CASCADE_OFFSET // 2, CASCADE_OFFSET // 2)
    x = min(max(at.x(), area.x()), area.x() + max(0, area.width() - outer.width()))
    y = min(max(at.y(), area.y()), area.y() + max(0, area.height() - outer.height()))
    return QPoint(x, y)


def allow_room(window: QWidget, area: QRect, frame: QSize) -> None:
    """Lower ``window``'s minimum size to what ``area`` holds with the frame (a small
    screen at a large scale factor offers less than the usual minimum)."""
    room = QSize(max(1, area.width() - frame.width()), max(1, area.height() - frame.height()))
    minimum = window.minimumSize()
    if not room.expandedTo(minimum) == room:
        window.setMinimumSize(minimum.boundedTo(room))


def place_first(window: QWidget, wanted: QSize = DEFAULT_SIZE) -> None:
    """Size ``window`` to ``wanted`` or what the screen allows, and centre it."""
    area = available_area(window)
    frame = frame_extra(window)
    allow_room(window, area, frame)
    size = fitted_size(wanted, area, frame, window.minimumSize())
    window.resize(size)
    window.move(centred(size + frame, area))


def keep_on_screen(window: QWidget) -> None:
    """A restored geometry that does not lie wholly inside the available area is fitted
    and centred (it was remembered on another screen, or at another scale)."""
    area = available_area(window)
    frame = frame_extra(window)
    outer = QRect(window.pos(), window.size() + frame)
    if not area.contains(outer):
        place_first(window, window.size())


def place_after(window: QWidget, previous: QWidget, wanted: QSize) -> None:
    """Size ``window`` like ``wanted`` within the screen and cascade it after ``previous``."""
    area = available_area(previous)
    frame = frame_extra(previous)
    allow_room(window, area, frame)
    size = fitted_size(wanted, area, frame, window.minimumSize())
    window.resize(size)
    window.move(cascaded(previous.frameGeometry(), size + frame, area))
