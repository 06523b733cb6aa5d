"""Validate a quote's chunk id, and repair it only when the repair is not a guess.

* An id that is not in the file is a hard reject, even if some chunk holds the quote:
  the caller knows which ids it showed the model, so an unknown id is a broken citation.
* A known id whose chunk does not hold the quote is retried against every other chunk:
  exactly one holder → re-attributed (the mis-attribution was clerical); two or more →
  rejected (choosing one would be a guess dressed as a repair); none → not located.

The other chunks are asked through a :class:`matcher.chunk_index.ChunkIndex`: each is
folded once, and only those that could hold the quote are aligned against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .chunk_index import ChunkIndex
from .citations import Chunk
from .normalize import fold
from .span import SpanMatch, locate_span
from .vocabulary import EvidenceStatus


@dataclass(frozen=True, slots=True)
class Attribution:
    """Which chunk holds the quote, where, and what happened to the claimed id."""

    outcome: EvidenceStatus
    reason: str
    chunk_id: str | None
    span: SpanMatch | None = None
    repaired_from: str | None = None


def attribute(chunks: Sequence[Chunk] | ChunkIndex, chunk_id: str, quote: str
              ) -> Attribution:
    """Resolve ``quote`` against the chunk named ``chunk_id``, repairing the id if it must.

    Pass a :class:`ChunkIndex` of the chunks when attributing many quotes to the same
    chunks (a whole check): each chunk is then folded and indexed once, not per quote.
    """
    index = chunks if isinstance(chunks, ChunkIndex) else ChunkIndex(chunks)
    pos = index.position(chunk_id)
    if pos is None:
        return Attribution("rejected", f"unknown chunk id {chunk_id!r}", None)
    if not quote.strip():
        return Attribution("rejected", "the quote is empty", chunk_id)
    needle = fold(quote).text
    span = locate_span(index.chunks[pos].text, quote, chunk_fold=index.folds[pos],
                       quote_fold=needle)
    if span is not None and span.accepted:
        return Attribution("located", span.reason, chunk_id, span)

    holders = [(c, m) for i in index.candidates(needle)
               for c in [index.chunks[i]] if c.id != chunk_id
               for m in [locate_span(c.text, quote, chunk_fold=index.folds[i],
                                     quote_fold=needle)]
               if m is not None and m.accepted]
    if len(holders) == 1:
        other, m = holders[0]
        return Attribution("located",
                           f"quote is in chunk {other.id!r}, not {chunk_id!r}; re-attributed",
                           other.id, m, repaired_from=chunk_id)
    if len(holders) > 1:
        names = ", ".join(repr(c.id) for c, _ in holders[:5])
        return Attribution("rejected",
                           f"chunk {chunk_id!r} does not hold the quote and {len(holders)} "
                           f"other chunks do ({names}); not choosing one", chunk_id)
    if span is not None:
        return Attribution("review", span.reason, chunk_id, span)
    return Attribution("not_located", f"the quote is not in chunk {chunk_id!r} "
                                      "or any other chunk", chunk_id)
