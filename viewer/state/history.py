"""Back and Forward: the places a reader jumped from, as in any document reader.

A *place* is a document and the point of a page at the centre of the view. Before a
jump (a link followed, an outline entry, a thumbnail, Go to page) the window remembers
where it was; Back returns there and Forward undoes Back. A new jump after going back
drops what was forward, as browsers do.

>>> h = History()
>>> h.remember(Place("a", 0, 10.0, 20.0))
>>> h.go_back(Place("a", 5, 0.0, 0.0))
Place(document='a', page=0, x=10.0, y=20.0)
>>> h.go_forward(Place("a", 0, 10.0, 20.0))
Place(document='a', page=5, x=0.0, y=0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Places kept each way: more than a reader walks back through, few enough to be nothing.
MAX_PLACES = 100


@dataclass(frozen=True, slots=True)
class Place:
    """A document (its id; None for none) and a 0-based page's point, in words space."""

    document: str | None
    page: int
    x: float
    y: float


@dataclass(slots=True)
class History:
    """The places behind and ahead of the one shown."""

    back: list[Place] = field(default_factory=list)
    forward: list[Place] = field(default_factory=list)

    def remember(self, here: Place) -> None:
        """A jump is made from ``here``: it goes behind, and nothing is ahead any more."""
        if not self.back or self.back[-1] != here:
            self.back.append(here)
            del self.back[:-MAX_PLACES]
        self.forward.clear()

    def go_back(self, here: Place) -> Place | None:
        """The place to go back to (``here`` goes ahead), or None at the start."""
        if not self.back:
            return None
        self.forward.append(here)
        return self.back.pop()

    def go_forward(self, here: Place) -> Place | None:
        """The place Back left (``here`` goes behind), or None."""
        if not self.forward:
            return None
        self.back.append(here)
        return self.forward.pop()

    def clear(self) -> None:
        self.back.clear()
        self.forward.clear()
