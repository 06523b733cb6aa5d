"""Where an evidence rectangle goes in each output: the one owner of those coordinates.

Rectangles arrive in words space: PDF points on the *unrotated* page, origin at the
top-left of its CropBox, y down (PyMuPDF's ``get_text("words")``). PyMuPDF's annotation
coordinates are that same space (since PyMuPDF 1.17 every method but ``Page.rect`` takes
and returns unrotated coordinates, and MuPDF adds the CropBox offset when it writes the
PDF), so a highlight's quad is the rectangle itself — only its corners are ordered along
the text's direction, which on a rotated page is not left to right. Pictures and the
RFC 3778 ``viewrect`` speak of the page as displayed (rotated); :func:`displayed` maps
words space there with the page's rotation matrix.
"""

from __future__ import annotations

from collections.abc import Sequence

from matcher.vocabulary import Rect

from ..state.documents import Matrix
from ..state.selection import union as union  # the one union of rectangles (re-exported)

Point = tuple[float, float]
# The direction text runs in words space (y down): (1, 0) left to right, (0, -1) bottom
# to top (a page shown rotated by 90°), (-1, 0) upside down, (0, 1) top to bottom.
Direction = tuple[int, int]
LEFT_TO_RIGHT: Direction = (1, 0)
# Text that reads upright on a page displayed with /Rotate r runs this way unrotated.
_UPRIGHT: dict[int, Direction] = {0: (1, 0), 90: (0, -1), 180: (-1, 0), 270: (0, 1)}


def upright_direction(rotation: int) -> Direction:
    """The words-space direction of text that reads upright on a page with ``rotation``.

    >>> upright_direction(90), upright_direction(-90)
    ((0, -1), (0, 1))
    """
    return _UPRIGHT[rotation % 360 if rotation % 90 == 0 else 0]


def snap_direction(dx: float, dy: float) -> Direction:
    """The axis direction nearest to the vector ``(dx, dy)``.

    >>> snap_direction(0.0, -1.0), snap_direction(0.9, 0.2)
    ((0, -1), (1, 0))
    """
    if abs(dx) >= abs(dy):
        return (1, 0) if dx >= 0 else (-1, 0)
    return (0, 1) if dy > 0 else (0, -1)


def line_quad(rect: Rect, direction: Direction = LEFT_TO_RIGHT
              ) -> tuple[Point, Point, Point, Point]:
    """A highlight quad for one line's rectangle: ``(ul, ur, ll, lr)`` in PyMuPDF's
    annotation coordinates, which are words space; "upper left" is where the line begins
    on the side its letters' tops face, so readers draw the mark along the line.

    >>> line_quad((10, 20, 110, 32))
    ((10, 20), (110, 20), (10, 32), (110, 32))
    >>> line_quad((10, 20, 22, 120), (0, -1))  # runs bottom to top, tops face left
    ((10, 120), (10, 20), (22, 120), (22, 20))
    """
    x0, y0, x1, y1 = rect
    if direction == (0, -1):
        return (x0, y1), (x0, y0), (x1, y1), (x1, y0)
    if direction == (0, 1):
        return (x1, y0), (x1, y1), (x0, y0), (x0, y1)
    if direction == (-1, 0):
        return (x1, y1), (x0, y1), (x1, y0), (x0, y0)
    return (x0, y0), (x1, y0), (x0, y1), (x1, y1)


def direction_at(rect: Rect, lines: Sequence[tuple[Rect, Direction]],
                 fallback: Direction) -> Direction:
    """The direction of the text line overlapping ``rect`` most (``fallback`` when none
    does: an OCR page, whose text reads upright)."""
    best, best_area = fallback, 0.0
    for box, direction in lines:
        area = overlap(rect, box)
        if area > best_area:
            best, best_area = direction, area
    return best


def overlap(a: Rect, b: Rect) -> float:
    """The area ``a`` and ``b`` share (0 when apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def transform(rect: Rect, m: Matrix) -> Rect:
    """``rect`` mapped by matrix ``m`` (PyMuPDF's row-vector convention), as the
    rectangle spanning its four mapped corners."""
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[1]), (rect[0], rect[3]),
                 (rect[2], rect[3])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def displayed(rect: Rect, rotation_matrix: Matrix) -> Rect:
    """A words-space rectangle on the page as displayed (rotated; origin at the top-left
    of the visible page), given the page's ``rotation_matrix``."""
    return transform(rect, rotation_matrix)


def around(rect: Rect, *, margin_x: float, margin_y: float, min_width: float,
           bounds: Rect) -> Rect:
    """``rect`` grown by the margins, widened to ``min_width`` about its centre, and kept
    inside ``bounds`` (shifted back in before it is cut; a rectangle wholly outside them
    becomes an empty one on their edge, never one with its sides crossed)."""
    x0, y0, x1, y1 = rect[0] - margin_x, rect[1] - margin_y, rect[2] + margin_x, \
        rect[3] + margin_y
    if x1 - x0 < min_width:
        mid = (x0 + x1) / 2
        x0, x1 = mid - min_width / 2, mid + min_width / 2
    if x0 < bounds[0]:
        x0, x1 = bounds[0], x1 + (bounds[0] - x0)
    if x1 > bounds[2]:
        x0, x1 = x0 - (x1 - bounds[2]), bounds[2]
    x0, y0 = min(max(x0, bounds[0]), bounds[2]), min(max(y0, bounds[1]), bounds[3])
    return (x0, y0, max(min(x1, bounds[2]), x0), max(min(y1, bounds[3]), y0))


def on_page(rects: Sequence[Rect], bounds: Rect) -> tuple[Rect, ...]:
    """``rects`` cut to the page's ``bounds`` (words space), those wholly off it or empty
    dropped: a reviewer's relocated rectangles come from a file, and one a billion points
    wide or off the page must not reach the renderer or a PDF annotation.

    >>> on_page([(10, 10, 1e300, 20), (900, 900, 950, 950), (5, 5, 5, 9)], (0, 0, 612, 792))
    ((10, 10, 612, 20),)
    """
    out = []
    for x0, y0, x1, y1 in rects:
        cut = (max(x0, bounds[0]), max(y0, bounds[1]), min(x1, bounds[2]), min(y1, bounds[3]))
        if cut[0] < cut[2] and cut[1] < cut[3]:
            out.append(cut)
    return tuple(out)
