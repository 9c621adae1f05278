"""Recording the rolls rules code makes (for rendering them), and rebuilding a recorded
roll's dice from its expression and faces (for session events)."""

from __future__ import annotations

import threading

import pytest

from services.dice import recording, replayed, roll, seeded_rng


def test_recording_collects_each_roll_of_the_block_in_order_and_nothing_after() -> None:
    before = roll("1d8", seeded_rng("before"))
    with recording() as rolls:
        first = roll("1d20+2", seeded_rng("a"))
        second = roll("2d6!", seeded_rng("b"))
    after = roll("1d4", seeded_rng("after"))
    assert [id(r) for r in rolls] == [id(first), id(second)]
    assert all(r is not before and r is not after for r in rolls)


def test_an_inner_recording_takes_its_own_rolls_and_the_outer_goes_on_after_it() -> None:
    with recording() as outer:
        a = roll("1d6", seeded_rng("a"))
        with recording() as inner:
            b = roll("1d6", seeded_rng("b"))
        c = roll("1d6", seeded_rng("c"))
    assert [id(r) for r in inner] == [id(b)]
    assert [id(r) for r in outer] == [id(a), id(c)]


def test_two_threads_recording_at_once_never_see_each_others_rolls() -> None:
    both_recording = threading.Barrier(2, timeout=10)
    records: dict[str, list[str]] = {}

    def worker(expression: str) -> None:
        with recording() as rolls:
            both_recording.wait()  # the two records are open at the same time
            for i in range(200):
                roll(expression, seeded_rng(str(i)))
            both_recording.wait()
        records[expression] = [r.expression.source for r in rolls]

    threads = [threading.Thread(target=worker, args=(e,)) for e in ("1d6", "1d20")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert records == {"1d6": ["1d6"] * 200, "1d20": ["1d20"] * 200}


@pytest.mark.parametrize(
    "expression",
    ["1d20+2", "3d6!", "4d6kh3", "2d10!p", "1d100", "1d6!!", "6d6r1", "8d10>=7", "1d20 >= 1d20"],
)
def test_a_roll_replays_from_its_expression_and_faces_to_the_same_dice(expression: str) -> None:
    for seed in range(20):
        rolled = roll(expression, seeded_rng(f"s{seed}"))
        faces = [d.face for d in rolled.dice]
        again = replayed(expression, faces, rolled.total)
        assert again is not None
        assert [d.to_dict() for d in again.dice] == [d.to_dict() for d in rolled.dice]


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [
        ("1d6", [7], 7),  # no such face
        ("1d6", [0], 0),
        ("1d6", [3, 4], 3),  # a face too many
        ("2d6", [3], 3),  # a face too few
        ("1d6", [3], 4),  # the total disagrees
        ("1d", [1], 1),  # not an expression
    ],
)
def test_faces_that_cannot_have_been_rolled_replay_to_nothing(
    expression: str, faces: list[int], total: int
) -> None:
    assert replayed(expression, faces, total) is None
