"""The session service's state cache: bounded by count and by estimated bytes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from services.store import cache as cache_module
from services.store.cache import REMEASURE_EVERY, StateCache, approximate_size


@dataclass(frozen=True, slots=True)
class State:
    log: tuple[str, ...]


def state(lines: int) -> State:
    return State(tuple(f"line {i}" for i in range(lines)))


def test_a_large_state_measures_larger_than_a_small_one_and_shared_parts_count_once() -> None:
    small, large = approximate_size(state(10)), approximate_size(state(10_000))
    assert large > 100 * small / 2
    shared = state(1_000)
    assert approximate_size((shared, shared)) < 1.1 * approximate_size(shared)


def test_the_oldest_entries_go_once_the_bytes_bound_is_passed() -> None:
    one = approximate_size(state(1_000))
    cache: StateCache[State] = StateCache(max_entries=100, max_bytes=int(3.5 * one))
    for i in range(5):
        cache.remember(f"s{i}", state(1_000), version=1)
    assert len(cache) == 3
    assert cache.get("s0") is None and cache.get("s1") is None
    assert cache.get("s4") is not None
    assert cache.bytes <= cache.max_bytes


def test_the_count_bound_still_holds_for_small_states() -> None:
    cache: StateCache[State] = StateCache(max_entries=2)
    for i in range(3):
        cache.remember(f"s{i}", state(1), version=1)
    assert [cache.get(f"s{i}") is not None for i in range(3)] == [False, True, True]


def test_an_older_version_never_replaces_a_newer_one_and_a_pop_frees_its_bytes() -> None:
    cache: StateCache[State] = StateCache(max_entries=10)
    newer, older = state(2), state(1)
    cache.remember("s", newer, version=5)
    cache.remember("s", older, version=4)
    assert cache.get("s") is newer
    cache.pop("s")
    assert cache.get("s") is None and cache.bytes == 0


def test_a_state_larger_than_the_bound_is_not_kept() -> None:
    cache: StateCache[State] = StateCache(max_entries=10, max_bytes=100)
    cache.remember("s", state(100), version=1)
    assert len(cache) == 0 and cache.bytes == 0


def test_a_growing_stream_is_measured_again_every_few_versions_not_every_one() -> None:
    cache: StateCache[State] = StateCache(max_entries=10)
    cache.remember("s", state(10), version=1)
    small = cache.bytes
    cache.remember("s", state(5_000), version=2)  # a big jump, within the interval
    assert cache.bytes == small
    cache.remember("s", state(5_000), version=1 + REMEASURE_EVERY)
    assert cache.bytes == approximate_size(state(5_000)) > 100 * small / 2


class Counted:
    """A part whose measuring is counted (`sys.getsizeof` asks it)."""

    walks = 0

    def __init__(self, payload: tuple[str, ...]) -> None:
        self.payload = payload

    def __sizeof__(self) -> int:
        Counted.walks += 1
        return 48


@dataclass(frozen=True, slots=True)
class Game:
    rules: Counted  # never replaced within a stream
    log: tuple[str, ...]


def test_a_streams_unchanging_parts_are_measured_once_and_counted_every_time() -> None:
    cache: StateCache[Game] = StateCache(max_entries=10, shared=lambda g: (g.rules,))
    plain: StateCache[Game] = StateCache(max_entries=10)
    rules = Counted(tuple(f"rule {i}" for i in range(2_000)))
    first = Game(rules, ("a",))
    cache.remember("s", first, version=1)
    assert cache.bytes == approximate_size(first)
    Counted.walks = 0
    later = Game(rules, tuple(f"move {i}" for i in range(500)))
    cache.remember("s", later, version=1 + REMEASURE_EVERY)
    assert Counted.walks == 0  # the rules were not walked again
    plain.remember("s", later, version=1)
    assert cache.bytes == plain.bytes == approximate_size(later)
    other = Game(Counted(("new",)), ("a",))  # new rules (a snapshot's): measured afresh
    cache.remember("s", other, version=1 + 2 * REMEASURE_EVERY)
    assert cache.bytes == approximate_size(other)


def test_a_value_whose_unchanging_parts_are_new_is_measured_at_once() -> None:
    # A session's first state is the empty one; the next (its maze dealt) holds the
    # rules: counting it as the empty one until the next scheduled walk under-counts it.
    cache: StateCache[Game] = StateCache(max_entries=10, shared=lambda g: (g.rules,))
    cache.remember("s", Game(Counted(()), ()), version=0)
    empty = cache.bytes
    dealt = Game(Counted(tuple(f"rule {i}" for i in range(2_000))), ("a",))
    cache.remember("s", dealt, version=1)
    assert cache.bytes == approximate_size(dealt) > 10 * empty
    Counted.walks = 0
    cache.remember("s", Game(dealt.rules, ("a", "b")), version=2)  # the same rules
    assert Counted.walks == 0 and cache.bytes == approximate_size(dealt)


def test_unchanging_parts_another_stream_holds_are_measured_once() -> None:
    """Two sessions of one preset hold the process's one copy of its rules (the labyrinth
    interns them): the second stream's first walk skips them, and counts them."""
    cache: StateCache[Game] = StateCache(max_entries=10, shared=lambda g: (g.rules,))
    rules = Counted(tuple(f"rule {i}" for i in range(2_000)))
    cache.remember("s1", Game(rules, ("a",)), version=1)
    one = cache.bytes
    Counted.walks = 0
    cache.remember("s2", Game(rules, ("b",)), version=1)
    assert Counted.walks == 0 and cache.bytes == 2 * one
    cache.remember("s3", Game(Counted(("other",)), ("c",)), version=1)  # other rules
    assert Counted.walks == 1


def test_large_unchanging_parts_are_not_kept_alive_for_their_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the cache remembers across streams lives outside its byte bound: only parts
    up to LARGEST_MEASURED are kept (with their size); larger ones are walked each time."""
    monkeypatch.setattr(cache_module, "LARGEST_MEASURED", 1_000)
    cache: StateCache[Game] = StateCache(max_entries=10, shared=lambda g: (g.rules,))
    rules = Counted(tuple(f"rule {i}" for i in range(2_000)))
    cache.remember("s1", Game(rules, ("a",)), version=1)
    Counted.walks = 0
    cache.remember("s2", Game(rules, ("b",)), version=1)
    assert Counted.walks == 1 and not cache._measured
