"""The roller: explicit RNGs, every throw recorded with its flags, checks with margins."""

from __future__ import annotations

import pytest

from services.dice import DiceError, HmacRng, RollResult, SimRng, roll, seeded_rng
from services.dice.fastpath import Replay


class Scripted:
    """An RNG that returns the faces a test scripts (as `below` values + 1)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def below(self, n: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= n
        return face - 1


def faces(result: RollResult) -> list[tuple[int, int, tuple[str, ...]]]:
    return [(d.face, d.value, d.flag_names) for d in result.dice]


def test_the_same_seed_gives_the_same_roll_and_a_new_seed_usually_another() -> None:
    a = roll("10d10!+2", seeded_rng("abc"))
    b = roll("10d10!+2", seeded_rng("abc"))
    c = roll("10d10!+2", seeded_rng("abd"))
    assert a.to_dict() == b.to_dict()
    assert faces(a) != faces(c)
    assert a.seed == "abc" and a.to_dict()["seed"] == "abc"


def test_an_exploding_die_rolls_again_on_its_highest_face_and_adds_the_modifier_once() -> None:
    # The Maze, example 2: d6 shows 6, explodes, then 2; +2 modifier; DC 10 → small success.
    r = roll("1d6!+2 >= 10", Scripted(6, 2))
    assert r.total == 10
    assert faces(r) == [(6, 6, ("exploded",)), (2, 2, ())]
    assert r.check is not None and r.check.success and r.check.margin == 0


def test_explosions_repeat_and_thresholds_widen_them() -> None:
    r = roll("1d6!>=5", Scripted(5, 6, 3))
    assert r.total == 14
    assert [f for f, _, _ in faces(r)] == [5, 6, 3]
    assert [fl for _, _, fl in faces(r)] == [("exploded",), ("exploded",), ()]


def test_compound_explosions_make_one_die_and_penetrating_ones_lose_a_point() -> None:
    compound = roll("2d6>=10!!", Scripted(6, 6, 1, 3))
    assert compound.total == 1  # one die: 6+6+1 = 13 ≥ 10 → 1 success; the other 3 → 0
    assert [fl for _, _, fl in faces(compound)][:3] == [
        ("exploded", "success"),
        ("exploded", "success", "compounded"),
        ("success", "compounded"),
    ]
    compound = roll("2d6>=10!!", Scripted(6, 6, 1, 6, 5))
    assert compound.total == 2
    pen = roll("1d6!p", Scripted(6, 6, 4))
    assert pen.total == 6 + 5 + 3
    assert faces(pen) == [
        (6, 6, ("exploded",)),
        (6, 5, ("exploded", "penetrated")),
        (4, 3, ("penetrated",)),
    ]


def test_rerolls_repeat_until_the_face_passes_and_reroll_once_stops_after_one() -> None:
    r = roll("1d6r<=2", Scripted(1, 2, 5))
    assert r.total == 5
    assert faces(r) == [(1, 1, ("rerolled",)), (2, 2, ("rerolled",)), (5, 5, ())]
    assert [d.active for d in r.dice] == [False, False, True]
    once = roll("1d6ro<=2", Scripted(1, 2))
    assert once.total == 2


def test_keep_and_drop_mark_the_dropped_dice() -> None:
    r = roll("4d6kh3", Scripted(3, 1, 6, 4))
    assert r.total == 13
    assert [d.active for d in r.dice] == [True, False, True, True]
    assert roll("4d6dl1", Scripted(3, 1, 6, 4)).total == 13
    assert roll("4d6kl1", Scripted(3, 1, 6, 4)).total == 1
    assert roll("4d6dh1", Scripted(3, 1, 6, 4)).total == 8


def test_success_counting_counts_each_die_and_each_explosion_of_a_pool() -> None:
    r = roll("4d10>=8!f=1", Scripted(10, 8, 7, 1, 3))
    # 10 (success, explodes) → 8 (success); 7; 1 (failure); 3.
    assert r.total == 2 - 1
    flags = [fl for _, _, fl in faces(r)]
    assert flags[0] == ("exploded", "success") and flags[3] == ("failure",)


def test_a_check_reports_success_and_a_margin_where_positive_is_better() -> None:
    over = roll("1d20+3 >= 13", Scripted(12))
    assert over.check is not None and (over.check.success, over.check.margin) == (True, 2)
    under = roll("1d10 <= 8", Scripted(9))  # Haze: roll-under
    assert under.check is not None and (under.check.success, under.check.margin) == (False, -1)
    strict = roll("2d6+1 > 9", Scripted(4, 4))
    assert strict.check is not None and (strict.check.success, strict.check.margin) == (False, 0)
    opposed = roll("1d20 >= 1d20", Scripted(7, 9))
    assert opposed.check is not None and opposed.check.target == 9 and not opposed.check.success


def test_arithmetic_uses_floor_division_and_min_max() -> None:
    assert roll("(1d10+1)/2", Scripted(8)).total == 4
    assert roll("-7/2", Scripted()).total == -4
    assert roll("max(0, 2d6+1-6)", Scripted(1, 2)).total == 0
    assert roll("min(1d6, 1d8)", Scripted(5, 3)).total == 3


def test_division_by_a_rolled_zero_is_a_clear_error() -> None:
    with pytest.raises(DiceError) as info:
        roll("10 / (1d2 - 1)", Scripted(1))
    assert info.value.code == "division_by_zero"
    assert info.value.position is not None


def test_the_replayed_tree_matches_the_fast_total_for_every_shape() -> None:
    rng = SimRng("tree")
    for text in ["4d6kh3+1d8!", "3d6r<=2*2", "10d10>=8!f=1", "max(2d6!!, 1d12!p) - 1"]:
        for _ in range(200):
            r = roll(text, rng)
            assert r.tree.value == r.total


def test_the_tree_is_rebuilt_from_recorded_faces() -> None:
    r = roll("3d6!+1", SimRng(5))
    left, _ = r.compiled.replay(list(r.draws))
    assert left.value == r.total
    assert Replay(list(r.draws)).below(6) == r.draws[0] - 1


def test_a_fair_rng_never_echoes_its_server_seed() -> None:
    r = roll("1d20", HmacRng("server-secret", "client", 1))
    assert r.seed is None and "server-secret" not in str(r.to_dict())


def test_dice_are_thrown_left_to_right_in_order() -> None:
    r = roll("1d4 + 1d6 + 1d8 >= 1d10", Scripted(1, 2, 3, 4))
    assert [(d.order, d.term, d.sides, d.face) for d in r.dice] == [
        (0, 0, 4, 1),
        (1, 1, 6, 2),
        (2, 2, 8, 3),
        (3, 3, 10, 4),
    ]
