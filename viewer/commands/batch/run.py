"""Run a batch on a Dask cluster: plan the chunks, hand them out, write each result line
as it arrives, and keep going when a worker dies.

Files are grouped by the documents they name and cut into chunks of at most
:data:`MAX_CHUNK_FILES`, and each document set is meant for one worker (:func:`plan`), so
a worker checks the answers over one policy together and keeps it open for the next
chunk. A chunk whose worker died on every try (Dask gives it to another worker first) is
split into one task per file, so only the file that kills workers, if any, ends as an
error line.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import TYPE_CHECKING, Any

from matcher.cluster import WorkerWatch

from .inputs import Input
from .results import Line, ResultsFile
from .work import ChunkTask, check_chunk

if TYPE_CHECKING:
    from distributed import Client, Future

    from ...state.fail_on import FailState

# Files per task at most: enough that a worker reuses its open documents within a task,
# few enough that results stream out, a lost worker redoes little, and the last tasks of
# a run spread over all workers.
MAX_CHUNK_FILES = 8
# Tasks per worker the chunks are cut to, at least, so no worker waits idle at the end.
TASKS_PER_WORKER = 3
# How often the loop that waits for results looks up (progress, a stranded cluster).
POLL_SECONDS = 0.1
# How long fetching a finished chunk's lines may take before the loop looks up again: a
# worker killed after finishing takes the lines with it, and Dask computes them anew.
FETCH_SECONDS = 10.0


@dataclass
class RunOutcome:
    """The lines this run wrote, and whether the run was left without workers."""

    lines: list[Line] = field(default_factory=list)
    stranded: bool = False


def plan(inputs: Sequence[Input], workers: int) -> list[tuple[int, tuple[str, ...]]]:
    """The chunks of files, by document set, each with the worker (0 … ``workers`` - 1)
    it is meant for: every document set goes to one worker, the largest sets first to
    the least loaded, so each document is opened and indexed once, not once per worker.
    A set larger than a fair share is spread after all (its chunks over every worker)."""
    size = max(1, min(MAX_CHUNK_FILES,
                      math.ceil(len(inputs) / max(1, workers * TASKS_PER_WORKER))))
    ordered = sorted(inputs, key=lambda i: (i.documents, i.path))
    groups = [[i.path for i in g] for _docs, g in groupby(ordered, key=lambda i: i.documents)]
    groups.sort(key=len, reverse=True)
    fair = math.ceil(len(inputs) / max(1, workers))
    load = [0] * max(1, workers)
    chunks: list[tuple[int, tuple[str, ...]]] = []
    for paths in groups:
        for k in range(0, len(paths), size):
            piece = tuple(paths[k:k + size])
            if k == 0 or len(paths) > fair:
                target = load.index(min(load))
            load[target] += len(piece)
            chunks.append((target, piece))
    return chunks


def run(client: Client, inputs: Sequence[Input], results: ResultsFile, *,
        fail_on: Sequence[FailState], store: str | None,
        on_line: Callable[[Line], None],
        passwords: Mapping[str, str] | None = None) -> RunOutcome:
    """Check ``inputs`` on ``client``'s cluster, appending each line to ``results`` and
    telling ``on_line`` as it arrives; ``passwords`` (by a PDF's real path) go with the
    files that name those PDFs, by the ids they give them. A KeyboardInterrupt cancels
    what is left."""
    from distributed import as_completed

    outcome = RunOutcome()
    token = secrets.token_hex(4)
    counter = iter(range(1 << 30))
    futures: dict[Future[Any], ChunkTask] = {}

    addresses = sorted(client.nthreads())

    by_path = {i.path: i for i in inputs}
    unlock = dict(passwords or {})

    def submit(files: tuple[str, ...], worker: int | None = None) -> Future[Any]:
        task = ChunkTask(files, tuple(fail_on), store,
                         tuple((f, doc_id, unlock[doc]) for f in files
                               for doc_id, doc in by_path[f].refs if doc in unlock))
        # A preference, not a rule: with its worker gone the chunk runs on any other.
        where: dict[str, Any] = ({"workers": [addresses[worker]], "allow_other_workers": True}
                                 if worker is not None and addresses else {})
        fut = client.submit(check_chunk, task, key=f"citeview-check-{token}-{next(counter)}",
                            pure=False, retries=1, **where)
        futures[fut] = task
        return fut

    def write(line: Line) -> None:
        planned = by_path.get(line.get("citations", ""))
        line = stamped(line, planned.stamps if planned is not None else {})
        results.append(line)
        outcome.lines.append(line)
        on_line(line)

    pending = as_completed([submit(c, w) for w, c in plan(inputs, len(addresses))])
    watch = WorkerWatch(client)
    try:
        while not pending.is_empty():
            done = pending.next_batch(block=False)
            if not done:
                if watch.stranded():
                    outcome.stranded = True
                    break
                on_line({})  # nothing new: a chance to redraw the progress line
                time.sleep(POLL_SECONDS)
                continue
            for fut in done:
                if fut.status == "finished":
                    got = fetched(fut)
                    if got is None:  # lost with its worker: wait for it computed again
                        pending.add(fut)
                        continue
                    futures.pop(fut)
                    for line in got:
                        write(line)
                    continue
                task = futures.pop(fut)
                if len(task.files) > 1:
                    for path in task.files:
                        pending.add(submit((path,)))
                else:
                    write(failed_line(task.files[0], fut.exception()))
    finally:
        left = list(futures)
        if left:
            client.cancel(left)
    if outcome.stranded:
        for task in futures.values():
            for path in task.files:
                write(failed_line(path, None))
    return outcome


def stamped(line: Line, stamps: dict[str, list[int] | None]) -> Line:
    """``line`` with the stamps of its file's documents as planned (what a rerun compares
    with the documents then), placed before its outcome.

    >>> stamped({"citations": "/a.cite", "fail_on": [], "exit": 0}, {"/p.pdf": [9, 1]})
    {'citations': '/a.cite', 'fail_on': [], 'documents': {'/p.pdf': [9, 1]}, 'exit': 0}
    """
    out: Line = {}
    for key, value in line.items():
        if key == "exit":
            out["documents"] = stamps
        out[key] = value
    out.setdefault("documents", stamps)
    return out


def fetched(fut: Future[Any]) -> list[Line] | None:
    """A finished chunk's lines, or None when they could not be fetched in time (its
    worker died holding them: the client has Dask compute them again)."""
    try:
        lines: list[Line] = fut.result(timeout=FETCH_SECONDS)
    except TimeoutError:
        return None
    return lines


def failed_line(path: str, exc: BaseException | None) -> Line:
    """The line of a file whose task never finished: no sha256, so a rerun retries it."""
    if exc is None:
        why = "no Dask worker was left to check it"
    else:
        why = f"its check failed on every worker that tried it ({type(exc).__name__}: {exc})"
    return {"citations": path, "exit": 2, "error": f"{path}: {why}"[:500]}
