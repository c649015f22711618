"""The heap is frozen between a run's checks (strictconformance.heap), and handed back after."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from conftest import SuiteRun
from strictconformance.heap import Freezer


@pytest.fixture
def thawed() -> Iterator[None]:
    """Each test starts and ends with nothing frozen and the collector on."""
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    yield
    gc.enable()
    gc.unfreeze()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@contextlib.contextmanager
def _collections() -> Iterator[list[int]]:
    """The generation of each collection that starts inside the block."""
    started: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(count)
    try:
        yield started
    finally:
        gc.callbacks.remove(count)


def _churn() -> None:
    """Work that keeps objects for a while: enough allocations to set off a collection."""
    kept = [[] for _ in range(3 * gc.get_threshold()[0])]
    del kept


def test_what_a_check_keeps_is_frozen_and_its_garbage_collected(thawed: None) -> None:
    freezer = Freezer()
    freezer.start()
    try:
        assert freezer.active and gc.get_freeze_count() > 0
        kept, dropped = _Cycle(), _Cycle()
        dropped_ref = weakref.ref(dropped)
        del dropped  # garbage of the check: a cycle, freed only by the collector
        _churn()
        freezer.after_check()
        assert dropped_ref() is None, "the check's garbage was frozen instead of collected"
        assert not any(obj is kept for obj in gc.get_objects()), "what the check keeps is walked again by every collection"
    finally:
        freezer.stop()
    assert gc.get_freeze_count() == 0 and any(obj is kept for obj in gc.get_objects())


def test_starting_walks_nothing(thawed: None) -> None:
    """A run in a process that goes on (an in-process run inside a test session) froze the heap
    after a full collection of that whole process: a second of CPU per run of a few checks."""
    freezer = Freezer()
    try:
        with _collections() as collections:
            freezer.start()
    finally:
        freezer.stop()
    assert 2 not in collections, collections


def test_a_check_that_kept_a_few_objects_costs_no_collection(thawed: None) -> None:
    """A check not covered (most of them, for an adapter covering a few rules) or a report relayed by
    xdist's controller: a full collection after each cost more than it saved."""
    freezer = Freezer()
    freezer.start()
    try:
        with _collections() as collections:
            for _ in range(50):
                few = [_Cycle() for _ in range(5)]
                del few
                freezer.after_check()
            assert collections == [], collections
            _churn()
            freezer.after_check()
            assert 2 in collections, collections
    finally:
        freezer.stop()


def test_a_cycle_dropped_after_it_was_frozen_is_freed_at_the_next_thaw(thawed: None) -> None:
    freezer = Freezer(thaw_every=3)
    freezer.start()
    try:
        late = _Cycle()
        _churn()
        freezer.after_check()  # frozen while alive
        late_ref = weakref.ref(late)
        del late
        freezer.after_check()
        assert late_ref() is not None  # frozen: the collector does not see it until the thaw
        freezer.after_check()  # the third check: everything is handed back and collected once
        assert late_ref() is None
        assert gc.get_freeze_count() > 0  # and the heap frozen again
    finally:
        freezer.stop()


def test_the_freezer_leaves_a_process_that_froze_objects_or_stopped_the_collector_alone(thawed: None) -> None:
    # (no count compared: a frozen object is still freed when nothing refers to it, so the freeze
    # count drops whenever any thread of this process lets one go)
    theirs = _Cycle()
    gc.freeze()
    freezer = Freezer()
    freezer.start()
    theirs_later = _Cycle()
    _churn()
    freezer.after_check()
    freezer.stop()
    assert not freezer.active and gc.get_freeze_count() > 0, "the process's own frozen objects were thawed"
    assert not any(obj is theirs for obj in gc.get_objects()), "the process's own frozen objects were thawed"
    assert any(obj is theirs_later for obj in gc.get_objects()), "the freezer froze in a process that had frozen objects"
    gc.unfreeze()
    gc.disable()
    freezer.start()
    assert not freezer.active and gc.get_freeze_count() == 0
    # turned off by the code under test during the run: the freezer stops collecting and freezing
    gc.enable()
    freezer.start()
    gc.disable()
    kept = [[] for _ in range(1000)]
    gc.collect(0)  # a collection the code under test asked for (the automatic ones are off)
    freezer.after_check()
    assert any(obj is kept for obj in gc.get_objects()), "the freezer froze with the collector turned off"
    freezer.stop()


@pytest.mark.parametrize("supervised", [False, True], ids=["in-process", "supervised"])
def test_a_run_freezes_between_its_checks_and_thaws_at_its_end(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester,
                                                                monkeypatch: pytest.MonkeyPatch, thawed: None,
                                                                supervised: bool) -> None:
    """In the process that runs the checks: this one (--sc-in-process), or the supervised child. A
    test that keeps many objects has them frozen after it; pytest's own end-of-run collections
    (the unraisable-exception plugin's) walk a frozen heap, and the run thaws after them."""
    import _pytest.unraisableexception as unraisable

    frozen_at_pytests_collections: list[int] = []
    collect_harder = unraisable.gc_collect_harder

    def recorded(iterations: int) -> None:
        frozen_at_pytests_collections.append(gc.get_freeze_count())
        collect_harder(iterations)

    monkeypatch.setattr(unraisable, "gc_collect_harder", recorded)
    first, after = pytester.path / "frozen-first", pytester.path / "frozen-after"
    pytester.makepyfile(test_mine=f"""
import gc, pathlib

def test_first():
    pathlib.Path({str(first)!r}).write_text(str(gc.get_freeze_count()))

def test_keeps_many_objects():
    test_keeps_many_objects.kept = [[] for _ in range(3 * gc.get_threshold()[0])]

def test_after():
    pathlib.Path({str(after)!r}).write_text(str(gc.get_freeze_count()))
""")
    run = run_suite(None, "test_mine.py", "--sc-rule", "RES-1", supervised=supervised)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert run.rules_with("passed") == {"RES-1"}
    assert int(first.read_text()) > 0, "the heap was not frozen while the run's tests ran"
    assert int(after.read_text()) > int(first.read_text()), "what a test kept was not frozen after it"
    assert frozen_at_pytests_collections and all(frozen_at_pytests_collections), \
        "the run thawed before pytest's last collections, which then walked the whole heap"
    assert gc.get_freeze_count() == 0, "the run left objects frozen in this process"
