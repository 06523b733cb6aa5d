"""The check command's pace for the garbage collector: fewer young collections while the
block runs, the process's state as before after it, and garbage in cycles still freed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from viewer.collector import YOUNG_THRESHOLD, few_collections


@pytest.fixture
def default_pace() -> Iterator[None]:
    """The interpreter's default thresholds and nothing frozen, restored after the test."""
    before = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_the_block_collects_young_objects_less_often_and_then_as_before(
        default_pace: None) -> None:
    with few_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
        assert gc.get_freeze_count() > 0  # what existed before is out of the collector's way
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_state_is_restored_when_the_block_raises(default_pace: None) -> None:
    with pytest.raises(RuntimeError), few_collections():
        raise RuntimeError("the check failed")
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_a_cycle_made_in_the_block_is_still_collected(default_pace: None) -> None:
    with few_collections():
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
        assert gone() is None


def test_objects_frozen_before_stay_frozen(default_pace: None) -> None:
    gc.freeze()  # as a window's start-up does (viewer.app)
    try:
        with few_collections():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_check_process_starts_collecting_with_its_imports_in_the_oldest_generation(
        default_pace: None) -> None:
    """What the check process imported with the collector paused (the window's start-up
    paused it) is put where only a full collection walks it; nothing stays frozen, so each
    request's few_collections sees the process as a command's would."""
    from viewer.checker.server import start_collecting

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        imported = [Node() for _ in range(3)]  # as a module's objects
        assert any(o is imported[0] for o in gc.get_objects(generation=0))
        start_collecting()
        assert gc.isenabled() and gc.get_freeze_count() == 0
        assert any(o is imported[0] for o in gc.get_objects(generation=2))
        assert not any(o is imported[0] for o in gc.get_objects(generation=0))
        a, b = Node(), Node()  # and garbage in cycles is still freed
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
        assert gone() is None
    finally:
        (gc.enable if was_enabled else gc.disable)()
