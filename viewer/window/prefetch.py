"""Small pictures of the other documents' pages, made while the window is idle, so that
switching to one shows a picture of its page at once rather than white paper.

Once the page view has settled (every page in view rendered), the render process is
asked — on a side queue, after anything the view wants — for the interim picture
(:func:`~viewer.render.tiles.interim_key`) of the first page of each other document of
the citations file, and of the pages the selected claim cites in it, at the zoom the view
would show them at. They are kept with the renderer's interim pictures, never taken for
the rendered page.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from ..render.layout import Layout
from ..render.renderer import Renderer, SideQueue
from ..render.tiles import DocRef, RenderKey, interim_key
from ..render.view import PageView
from ..state.session import Session

# The side queue's own cache: interim pictures are small (a few hundred kB a page).
PREFETCH_CACHE_BYTES = 8 << 20
# Pages prefetched per document at most (its first page and the claim's pages).
PAGES_PER_DOCUMENT = 3


class Prefetch(QObject):
    """Interim pictures of the documents not shown, asked for when the view is idle."""

    def __init__(self, session: Session, view: PageView, renderer: Renderer, *,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session, self.view, self.renderer = session, view, renderer
        self._side: SideQueue | None = None
        self._asked: set[RenderKey] = set()
        view.settled.connect(self._idle)

    @property
    def side(self) -> SideQueue:
        if self._side is None:
            self._side = self.renderer.side_queue(PREFETCH_CACHE_BYTES)
            self._side.rendered.connect(self._arrived)
        return self._side

    def wanted(self) -> list[RenderKey]:
        """The interim pictures to make now (those not asked for yet)."""
        s, view = self.session, self.view
        if view.doc is None or s.citations is None:
            return []
        vp = view.viewport()
        dpr = vp.devicePixelRatioF()
        claim = s.claim_result(s.selected)
        keys: list[RenderKey] = []
        for doc in s.documents.values():
            ref = DocRef(str(doc.path), doc.password)
            if not doc.usable or not doc.pages or ref == view.doc:
                continue
            cited = [ev.page - 1 for ev in (claim.evidence if claim is not None else ())
                     if ev.document == doc.id and ev.page is not None
                     and 0 < ev.page <= len(doc.pages)]
            pages = list(dict.fromkeys([*cited, 0]))[:PAGES_PER_DOCUMENT]
            lay = Layout(doc.pages, turn=view.turn)
            lay.mode, lay.zoom = view.zoom_mode, view.zoom
            lay.update(vp.width(), vp.height())
            keys += [interim_key(ref, lay.pages[i], dpr) for i in pages]
        return [k for k in keys if k not in self._asked]

    def _idle(self) -> None:
        keys = self.wanted()
        if keys:
            self._asked.update(keys)
            self.side.want(keys)

    def _arrived(self, key: RenderKey) -> None:
        tile = self.side.cache.get(key)
        if tile is not None:
            self.renderer.interim.put(tile)
