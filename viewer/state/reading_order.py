"""A page's words in the order a reader reads them as the page is shown.

Word boxes are in PyMuPDF's words space: the *unrotated* page. A page with /Rotate 90
whose text is set to read upright once turned has its lines running up that space, and
the PDF's own order often goes down a table's columns rather than across its rows. A
selection is a stretch of words in reading order, so that order must be the one seen:

1. The *reading frame*: words space turned a quarter at a time until the page's text
   runs left to right (the direction most multi-word lines advance in). A page with no
   line to tell by is read as its /Rotate shows it.
2. In that frame each line of the page is cut where its words stand a column gap apart
   (table cells of one row become pieces of their own, each one rectangle).
3. The pieces are put in order by cutting the page recursively (an XY cut): first at a
   gutter between two columns of prose, read one column after the other; else at the
   widest gaps between rows, read top to bottom; a single row is read left to right.
   A table (cells of a few words) is never cut into columns, so it reads row by row
   and a drag across a visible row selects exactly that row.

Lines that run across the frame (a sideways margin note) are read after the rest, each
whole. Each piece gets its own line number (one selection rectangle each) and the number of
the row it stands in (the pieces of one row copy as one line of text).

>>> boxes = [("b", (20, 0, 30, 10), 0), ("a", (0, 0, 10, 10), 1), ("c", (0, 20, 10, 30), 2)]
>>> [(t, line, row) for t, _, line, row in reading_order(boxes, rotation=0)]
[('a', 0, 0), ('b', 1, 0), ('c', 2, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Rect = tuple[float, float, float, float]
# (text, rect in words space, the matcher's line index) in, (text, rect, line, row) out.
Boxed = tuple[str, Rect, int]
Ordered = tuple[str, Rect, int, int]

# Words of one line further apart than this many line heights stand in different columns
# or table cells (the matcher's own column-gap rule, restated in the reading frame).
COLUMN_GAP_HEIGHTS = 3.0
# A side of a gutter is prose when at least PROSE_SHARE of its words stand in lines of
# running text: pieces of at least PROSE_WORDS words filling at least PROSE_FILL of the
# side's width. Table cells are shorter, or narrower than their column; a figure's labels
# among a column's lines (few words) do not outweigh the lines.
PROSE_WORDS = 4
PROSE_FILL = 0.6
PROSE_SHARE = 0.5
# A gutter between prose columns is at least this many line heights wide (a space that
# happens to fall at the same place on two lines is not one).
GUTTER_HEIGHTS = 1.0
# Two pieces stand in one row when their heights overlap by more than this share of the
# lower one's (boxes of consecutive lines often touch or overlap a little).
ROW_OVERLAP = 0.5
# Gaps between rows within this many points of the widest are cut together (a table's
# rows are evenly spaced; cutting them one at a time would recurse once per row).
GAP_TOLERANCE_PT = 1.0

# Which way text runs in words space, as (dx, dy) of a unit step; and the quarter turn
# that makes it run left to right: (x, y) → the reading frame.
_FRAMES = {
    (1, 0): lambda x, y: (x, y),
    (0, -1): lambda x, y: (-y, x),
    (-1, 0): lambda x, y: (-x, -y),
    (0, 1): lambda x, y: (y, -x),
}
# The direction text that reads upright on the shown page runs in words space, by /Rotate.
_UPRIGHT = {0: (1, 0), 90: (0, -1), 180: (-1, 0), 270: (0, 1)}


@dataclass(slots=True)
class _Piece:
    """Words of one line standing together, and their box in the reading frame."""

    words: list[int]
    box: Rect

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


def text_direction(boxes: Sequence[Boxed], *, rotation: int = 0) -> tuple[int, int]:
    """The way most of the page's text runs in words space, weighted by words: each line
    of two or more words votes for the axis and sense its word centres advance along.
    With no such line, the direction that reads upright at the page's ``rotation``."""
    votes: dict[tuple[int, int], int] = {}
    by_line: dict[int, list[Rect]] = {}
    for _, rect, line in boxes:
        by_line.setdefault(line, []).append(rect)
    for rects in by_line.values():
        if len(rects) < 2:
            continue
        (ax, ay), (bx, by) = _centre(rects[0]), _centre(rects[-1])
        dx, dy = bx - ax, by - ay
        if dx == dy == 0:
            continue
        way = ((1 if dx > 0 else -1), 0) if abs(dx) >= abs(dy) else (0, (1 if dy > 0 else -1))
        votes[way] = votes.get(way, 0) + len(rects)
    if not votes:
        return _UPRIGHT.get(rotation % 360, (1, 0))
    return max(votes, key=lambda w: votes[w])


def to_frame(rect: Rect, direction: tuple[int, int]) -> Rect:
    """``rect`` (words space) in the reading frame of text running ``direction``."""
    turn = _FRAMES[direction]
    ax, ay = turn(rect[0], rect[1])
    bx, by = turn(rect[2], rect[3])
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def reading_order(boxes: Sequence[Boxed], *, rotation: int = 0) -> list[Ordered]:
    """The words in reading order as the page is shown (see the module's words), each
    with the number of its piece of line and of its row, both counted in that order."""
    if not boxes:
        return []
    direction = text_direction(boxes, rotation=rotation)
    framed = [to_frame(rect, direction) for _, rect, _ in boxes]
    pieces, across = _pieces(boxes, framed)
    out: list[Ordered] = []
    row = -1
    previous: _Piece | None = None
    for number, piece in enumerate(_order(pieces)):
        if previous is None or not _same_row(previous.box, piece.box):
            row += 1
        previous = piece
        for i in sorted(piece.words, key=lambda k: framed[k][0]):
            out.append((boxes[i][0], boxes[i][1], number, row))
    for number, piece in enumerate(across, len(pieces)):  # their own words' order
        row += 1
        out += [(boxes[i][0], boxes[i][1], number, row) for i in piece.words]
    return out


def _centre(rect: Rect) -> tuple[float, float]:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def _union(rects: Sequence[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects),
            max(r[2] for r in rects), max(r[3] for r in rects))


def _pieces(boxes: Sequence[Boxed], framed: Sequence[Rect]
            ) -> tuple[list[_Piece], list[_Piece]]:
    """Each line's words, left to right in the frame, cut at column gaps; and apart, the
    lines that run across the frame (a margin's sideways note, letters OCR read down a
    page's edge), whole: they are read after the page's text, not in the middle of it."""
    by_line: dict[int, list[int]] = {}
    for i, (_, _, line) in enumerate(boxes):
        by_line.setdefault(line, []).append(i)
    out: list[_Piece] = []
    across: list[_Piece] = []
    for members in by_line.values():
        if len(members) > 1:
            (ax, ay), (bx, by) = _centre(framed[members[0]]), _centre(framed[members[-1]])
            if abs(by - ay) > abs(bx - ax):
                across.append(_Piece(list(members), _union([framed[k] for k in members])))
                continue
        members.sort(key=lambda k: framed[k][0])
        height = max(framed[k][3] - framed[k][1] for k in members)
        run = [members[0]]
        for k in members[1:]:
            if framed[k][0] - framed[run[-1]][2] > COLUMN_GAP_HEIGHTS * height:
                out.append(_Piece(run, _union([framed[j] for j in run])))
                run = []
            run.append(k)
        out.append(_Piece(run, _union([framed[j] for j in run])))
    return out, across


def _same_row(a: Rect, b: Rect) -> bool:
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    return overlap > ROW_OVERLAP * max(min(a[3] - a[1], b[3] - b[1]), 1e-9)


def _rows(pieces: list[_Piece]) -> list[list[_Piece]]:
    """The pieces in rows, top to bottom: a piece joins the row above it when their
    heights overlap enough (see ROW_OVERLAP)."""
    rows: list[list[_Piece]] = []
    band: Rect | None = None
    for piece in sorted(pieces, key=lambda p: (_centre(p.box)[1], p.box[0])):
        if band is not None and _same_row(band, piece.box):
            rows[-1].append(piece)
            band = (band[0], min(band[1], piece.box[1]), band[2], max(band[3], piece.box[3]))
        else:
            rows.append([piece])
            band = piece.box
    return rows


def _prose(pieces: Sequence[_Piece]) -> bool:
    if len(pieces) < 2:
        return False
    side = _union([p.box for p in pieces])
    width = side[2] - side[0]
    running = sum(len(p.words) for p in pieces if len(p.words) >= PROSE_WORDS
                  and p.box[2] - p.box[0] >= PROSE_FILL * width)
    return running >= PROSE_SHARE * sum(len(p.words) for p in pieces)


def _column_cut(pieces: list[_Piece]) -> tuple[list[_Piece], list[_Piece]] | None:
    """The widest gutter no piece crosses with prose on both sides, as the pieces left
    and right of it; None when there is none."""
    heights = sorted(p.height for p in pieces)
    least = GUTTER_HEIGHTS * heights[len(heights) // 2]
    best: tuple[float, float] | None = None  # (width, x)
    reach = None
    for piece in sorted(pieces, key=lambda p: p.box[0]):
        if reach is not None and piece.box[0] - reach >= least:
            x = (reach + piece.box[0]) / 2
            left = [p for p in pieces if p.box[2] <= x]
            right = [p for p in pieces if p.box[0] >= x]
            width = piece.box[0] - reach
            if (best is None or width > best[0]) and _prose(left) and _prose(right):
                best = (width, x)
        reach = piece.box[2] if reach is None else max(reach, piece.box[2])
    if best is None:
        return None
    x = best[1]
    return [p for p in pieces if p.box[2] <= x], [p for p in pieces if p.box[0] >= x]


def _order(pieces: list[_Piece]) -> list[_Piece]:
    """The XY cut: prose columns one after the other, else rows at the widest gaps top
    to bottom, a single row left to right."""
    if len(pieces) <= 1:
        return pieces
    columns = _column_cut(pieces)
    if columns is not None:
        return _order(columns[0]) + _order(columns[1])
    rows = _rows(pieces)
    if len(rows) == 1:
        return sorted(pieces, key=lambda p: p.box[0])
    bands = [_union([p.box for p in row]) for row in rows]
    gaps = [bands[i + 1][1] - bands[i][3] for i in range(len(bands) - 1)]
    widest = max(gaps)
    out: list[_Piece] = []
    chunk: list[_Piece] = list(rows[0])
    for gap, row in zip(gaps, rows[1:], strict=True):
        if gap >= widest - GAP_TOLERANCE_PT:  # at least one gap: every chunk is smaller
            out += _order(chunk)
            chunk = []
        chunk += row
    return out + _order(chunk)
