"""What each step of a placement saw, for :func:`matcher.placement.explain_placement`
(``scripts/debug_placement.py`` prints it): the runs, the candidate lines, the bands
compared with their shares, the band chosen and the citation drawn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .pagemodel import Band, PageModel

if TYPE_CHECKING:
    from .placement import Placement


@dataclass(frozen=True, slots=True)
class TraceRun:
    """A run: quote atoms found in the quoted order, at these page atom positions."""

    positions: tuple[int, ...]
    atoms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TraceLine:
    """A candidate line: its index, whether it is strong, and its words."""

    line: int
    strong: bool
    text: str


@dataclass(frozen=True, slots=True)
class TraceBand:
    """A band as the decision compared it: its lines, the words it took, its shares.

    ``coverage`` is the share of the quote's weight it accounts for, ``ordered`` the share
    taken through runs (in quoted order); ``taken`` maps each line to the words matched.
    """

    lines: tuple[int, ...]
    coverage: float
    ordered: float
    taken: dict[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class PlacementTrace:
    """How :func:`place_on_page` read one quote on one page, step by step.

    ``bands`` are the places compared after filling and splitting; ``best`` indexes the
    one chosen before growing (``None`` when no band was chosen); ``citation`` is the
    final (possibly joint) band the rectangles were drawn from.
    """

    quote_atoms: tuple[str, ...]
    runs: tuple[TraceRun, ...]
    candidates: tuple[TraceLine, ...]
    bands: tuple[TraceBand, ...]
    best: int | None
    citation: TraceBand | None
    placement: Placement


class Recorder:
    """Collects what the steps saw, for :func:`explain_placement`."""

    def __init__(self) -> None:
        self.model: PageModel | None = None
        self.flags: dict[int, tuple[bool, bool]] = {}
        self.bands: list[Band] = []
        self.best: Band | None = None
        self.citation: Band | None = None

    def trace(self, quote_atoms: Sequence[str], placement: Placement) -> PlacementTrace:
        model = self.model
        runs: tuple[TraceRun, ...] = ()
        candidates: tuple[TraceLine, ...] = ()
        if model is not None:
            runs = tuple(TraceRun(run, tuple(model.texts[p] for p in run)) for run in model.runs)
            page = model.page
            candidates = tuple(
                TraceLine(ln, strong, " ".join(page.words[w].text for w in page.lines[ln].words))
                for ln, (cand, strong) in self.flags.items() if cand)
        bands = tuple(_trace_band(b) for b in self.bands)
        best = next((k for k, b in enumerate(self.bands) if b is self.best), None)
        citation = None if self.citation is None else _trace_band(self.citation)
        return PlacementTrace(tuple(quote_atoms), runs, candidates, bands, best, citation,
                              placement)


def _trace_band(band: Band) -> TraceBand:
    return TraceBand(tuple(band.lines), band.coverage, band.ordered,
                     {ln: tuple(ws) for ln, ws in band.words.items()})
