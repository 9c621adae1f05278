"""Issue 19 for The Maze: one point per token after taking half, group checks of every
allowed size, tokens on failed group checks, and opposed sides with tokens, half, effects."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from services.dice import seeded_rng
from services.maze import usecases
from services.maze.bands import BANDS, BandName, rank
from services.maze.checks import CheckSpec, half_score, resolve_check
from services.maze.effects import Effect
from services.maze.errors import MazeError
from services.maze.group import resolve_group
from services.maze.group_odds import dice_sum_at_most, group_odds
from services.maze.opposed import Side, opposed_odds, resolve_opposed
from services.maze.requests import GroupRequest, LootRequest, OpposedRequest
from services.maze.rules import MazeRules
from tests.unit.maze.scripted import ScriptedRng

DICE = st.sampled_from([4, 6, 8, 10, 12])
HALF_LEVELS = st.sampled_from(["success", "small_success", "margin"])


def pmf(sides: int, value: int) -> Fraction:
    """P(an exploding d`sides` shows exactly `value`), by the text's rule: a highest face
    is rolled again and added, so multiples of `sides` never end a roll."""
    if value < 1 or value % sides == 0:
        return Fraction(0)
    return Fraction(1, sides ** (value // sides + 1))


# --- "A token is worth one point" after taking half -------------------------------------


def test_taking_half_on_d12_plus_6_then_one_token_is_a_major_success_not_incredible() -> None:
    """ADVERSITY TOKENS: "A token is worth one point" — d12+6 vs DC 3 taken half is a
    Success (at 4 over, the nearest margin of that level); one token makes it 5 over."""
    spec = CheckSpec(die=12, modifier=6, dc=3)
    half = resolve_check(spec, ScriptedRng([]), take_half=True)
    assert (half.band, half.margin) == (BandName.SUCCESS, 4)
    assert [(r.band, r.tokens) for r in half.reach] == [
        (BandName.INCREDIBLE_SUCCESS, 5),
        (BandName.MAJOR_SUCCESS, 1),
    ]
    one = resolve_check(spec, ScriptedRng([]), tokens=1, take_half=True)
    assert (one.band, one.margin, one.total) == (BandName.MAJOR_SUCCESS, 5, 8)


def test_taking_half_on_d10_plus_4_lists_major_success_at_one_token() -> None:
    """ADVERSITY TOKENS: "can be added to the total of any roll" — d10+4 vs DC 3: half is
    9, 6 over, counted as a Success at 4 over; one token gives the Major success reach
    promised, and reach never lists the band already held."""
    spec = CheckSpec(die=10, modifier=4, dc=3)
    half = resolve_check(spec, ScriptedRng([]), take_half=True)
    assert half.band is BandName.SUCCESS
    assert BandName.SUCCESS not in {r.band for r in half.reach}
    assert {r.band: r.tokens for r in half.reach}[BandName.MAJOR_SUCCESS] == 1
    assert resolve_check(spec, ScriptedRng([]), 1, True).band is BandName.MAJOR_SUCCESS


def test_a_half_exactly_at_the_dc_counts_as_a_success_at_one_over() -> None:
    """TAKING HALF: "they can automatically have a success" — d8+2 vs DC 6 (0 over) is
    the chart's Success, so it counts at +1 and needs 4 tokens for a Major success."""
    half = resolve_check(CheckSpec(die=8, modifier=2, dc=6), ScriptedRng([]), take_half=True)
    assert (half.band, half.margin) == (BandName.SUCCESS, 1)
    assert [(r.band, r.tokens) for r in half.reach][-1] == (BandName.MAJOR_SUCCESS, 4)


@settings(max_examples=300, deadline=None)
@given(
    die=DICE,
    modifier=st.integers(-6, 12),
    dc=st.integers(-6, 24),
    take_half=st.booleans(),
    level=HALF_LEVELS,
    seed=st.text(min_size=1, max_size=8),
)
def test_reach_lists_exactly_the_fewest_tokens_that_reach_each_band(
    die: int, modifier: int, dc: int, take_half: bool, level: str, seed: str
) -> None:
    """ADVERSITY TOKENS: "A token is worth one point" — for every check (rolled or taken
    half, under every half_level), each token raises the margin by exactly one, and every
    band reach lists is reached with its token count and not with one fewer."""
    spec = CheckSpec(die=die, modifier=modifier, dc=dc)  # type: ignore[arg-type]
    if take_half and half_score(spec) < dc:
        return
    rules = MazeRules(half_level=level)  # type: ignore[arg-type]

    def with_tokens(n: int) -> tuple[BandName, int]:
        out = resolve_check(spec, seeded_rng(seed), n, take_half, rules)
        assert out.margin is not None
        return out.band, out.margin

    band0, margin0 = with_tokens(0)
    reach = resolve_check(spec, seeded_rng(seed), 0, take_half, rules).reach
    for n in range(0, 20):
        assert with_tokens(n)[1] == margin0 + n
    minimal: dict[BandName, int] = {}
    for n in range(0, 40):
        minimal.setdefault(with_tokens(n)[0], n)
    better = {b: n for b, n in minimal.items() if rank(b) < rank(band0)}
    assert {r.band: r.tokens for r in reach} == better


# --- Group checks: every allowed size, exact odds ---------------------------------------


@pytest.mark.parametrize(("die", "members"), [(12, 16), (6, 16), (4, 16), (12, 9), (4, 14)])
def test_group_checks_of_every_allowed_size_roll_with_exact_odds(die: int, members: int) -> None:
    """GROUP CHECK: "Each character rolls individually" — up to the 16 members a request
    may hold (the text's 16 contestants), the summed odds are exact and complete."""
    request = GroupRequest.model_validate({"members": [{"die": die}] * members, "dc": 60})
    outcome, odds = usecases.roll_group(request, seeded_rng("big group"))
    assert len(outcome.scores) == members
    assert odds.exact and odds.error_bound == 0
    assert odds.bands is not None and sum(odds.bands.values(), Fraction()) == 1


def brute_at_most(dice: Sequence[int], top: int) -> Fraction:
    """P(Σ dice ≤ top) by enumerating every tuple of values (each at most top)."""
    total = Fraction(0)
    for values in itertools.product(range(1, top + 1), repeat=len(dice)):
        if sum(values) <= top:
            p = Fraction(1)
            for s, v in zip(dice, values, strict=True):
                p *= pmf(s, v)
            total += p
    return total


@settings(max_examples=40, deadline=None)
@given(dice=st.lists(DICE, min_size=1, max_size=3), top=st.integers(0, 26))
def test_the_series_of_summed_exploding_dice_agrees_with_brute_force(
    dice: list[int], top: int
) -> None:
    """ "EXPLODING" DIE: "roll it again and add that to your total" — P(Σ ≤ n) from the
    generating-function recurrence equals the enumeration of every tuple of faces."""
    assert dice_sum_at_most(dice, top)[top] == brute_at_most(dice, top)


@settings(max_examples=40, deadline=None)
@given(
    dice=st.lists(DICE, min_size=1, max_size=3),
    modifiers=st.lists(st.integers(-3, 3), min_size=3, max_size=3),
    dc=st.integers(-2, 14),
)
def test_summed_group_bands_agree_with_brute_force(
    dice: list[int], modifiers: list[int], dc: int
) -> None:
    """GROUP CHECK: "to hit a collective DC" — every band of the summed margin matches the
    enumeration of the members' faces."""
    members = [
        CheckSpec(die=d, modifier=m)  # type: ignore[arg-type]
        for d, m in zip(dice, modifiers, strict=False)
    ]
    shift = sum(m.modifier for m in members)
    odds = group_odds(members, dc)
    assert odds.bands is not None

    def at_least(t: int) -> Fraction:
        below = t - 1 - shift
        return Fraction(1) if below < 0 else 1 - brute_at_most(dice, below)

    above = Fraction(0)
    for band in BANDS:
        reached = Fraction(1) if band.low is None else at_least(dc + band.low)
        assert odds.bands[band.name] == reached - above
        above = reached
    assert odds.success == at_least(dc)


def test_a_failed_summed_group_check_grants_every_member_the_groups_tokens() -> None:
    """ADVERSITY TOKENS: "If you fail a roll, you will be granted adversity token(s)" —
    the group's roll (3 + 2 = 5 vs DC 11, 6 under: Miserable) grants each member 1."""
    members = [CheckSpec(die=6, modifier=0), CheckSpec(die=8, modifier=0)]
    outcome = resolve_group(members, 11, ScriptedRng([3, 2]))
    assert outcome.band is BandName.MISERABLE_FAILURE
    assert outcome.tokens_awarded == (1, 1)
    won = resolve_group(members, 5, ScriptedRng([3, 2]))
    assert won.success and won.tokens_awarded == (0, 0)


def test_a_majority_group_check_grants_tokens_to_each_member_who_missed() -> None:
    """GROUP CHECK: "Each character rolls individually as though they are performing the
    check for themself" — in majority mode each member's own miss grants its tokens."""
    members = [CheckSpec(die=12, modifier=0)] * 3
    rules = MazeRules.model_validate({"group_mode": "majority"})
    outcome = resolve_group(members, 11, ScriptedRng([11, 5, 1]), rules)
    assert outcome.success is False
    assert outcome.tokens_awarded == (0, 1, 2)  # 0 over, 6 under, 10 under


@pytest.mark.parametrize(
    "body",
    [
        {"members": [{"die": 6}], "tokens": 1},
        {"members": [{"die": 6, "tokens": 2}]},
    ],
)
def test_tokens_on_a_group_check_are_refused_by_the_rule(body: dict[str, object]) -> None:
    """GROUP CHECK: "You may not apply adversity tokens to these rolls"."""
    request = GroupRequest.model_validate(body)
    with pytest.raises(MazeError) as caught:
        usecases.roll_group(request, seeded_rng("x"))
    assert caught.value.code == "tokens_not_allowed"


def test_tokens_and_half_on_a_loot_check_are_refused_by_the_rule() -> None:
    """LOOT CHECK: "You may not apply adversity tokens to these rolls"; TAKING HALF is
    "On normal rolls and damage rolls"."""
    with pytest.raises(MazeError) as caught:
        usecases.roll_loot(LootRequest(die=8, tokens=1), seeded_rng("x"))
    assert caught.value.code == "tokens_not_allowed"
    with pytest.raises(MazeError) as caught:
        usecases.odds_of_loot(LootRequest(die=8, take_half=True))
    assert caught.value.code == "half_not_allowed"


# --- Opposed sides: tokens, taking half, effects -----------------------------------------


def test_an_opposed_side_adds_its_tokens_to_its_total() -> None:
    """ADVERSITY TOKENS: "can be added to the total of any roll that is not a snap roll,
    loot roll, or group roll" — 3 tokens on a d10 that shows 4 make 7, beating 6."""
    outcome = resolve_opposed(
        Side(die=10, tokens=3), Side(die=10, is_pc=False), ScriptedRng([4, 6])
    )
    assert outcome.rounds == ((7, 6),) and outcome.winner == 0


def test_example_1_an_opposed_side_takes_half_against_an_npcs_five() -> None:
    """EXAMPLE 1: "my Interaction ability is a d10, and I have a +1 to Debate, my half
    score is 6, and I choose to take half to automatically have a success on the check"."""
    odds = opposed_odds(Side(die=10, modifier=1, take_half=True), Side(total=5, is_pc=False))
    assert odds.p_first_wins == 1
    outcome = resolve_opposed(
        Side(die=10, modifier=1, take_half=True), Side(total=5, is_pc=False), ScriptedRng([])
    )
    assert outcome.rounds == ((6, 5),) and outcome.dice == ((), ())


def test_fear_and_exhaustion_change_an_opposed_sides_die_and_modifier() -> None:
    """Fear "converts all skill modifiers for Ready checks to negative scores"; Exhaustion
    "forces characters to use a d4" — the odds are those of a d4 −2 side."""
    scared = Side(die=12, modifier=2, effects=frozenset({Effect.FEAR, Effect.EXHAUSTION}))
    plain = Side(die=4, modifier=-2)
    other = Side(die=8, is_pc=False)
    assert opposed_odds(scared, other) == opposed_odds(plain, other)


def test_an_opposed_side_that_contentment_makes_an_automatic_failure_is_refused() -> None:
    """Contentment: "A character's first Ready check and Surroundings check automatically
    become a Failure" — an opposed roll has no total to compare with it."""
    content = Side(die=10, effects=frozenset({Effect.CONTENTMENT}))
    with pytest.raises(MazeError) as caught:
        opposed_odds(content, Side(die=10))
    assert caught.value.code == "automatic_outcome"


def test_a_side_cannot_both_take_half_and_give_a_total() -> None:
    """TAKING HALF replaces the roll; a known total is a roll already made."""
    with pytest.raises(ValidationError):
        OpposedRequest.model_validate({"first": {"total": 4, "take_half": True}, "second": {}})


# Explosions enumerated per die so that what is left out, 1/s^depth, is below 1e-6.
DEPTH = {4: 10, 6: 8, 8: 7, 10: 6, 12: 6}
LEFT_OUT = Fraction(2, 10**6)


def brute_raw(a: Side, b: Side) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a > b), P(a = b), P(a < b)) by enumerating both dice's values below DEPTH
    explosions; what is left out weighs at most LEFT_OUT."""

    def values(side: Side) -> list[tuple[int, Fraction]]:
        if side.take_half:
            return [(side.die // 2 + side.modifier + side.tokens, Fraction(1))]
        if side.total is not None:
            return [(side.total + side.tokens, Fraction(1))]
        top = side.die * DEPTH[side.die]
        return [(v + side.modifier + side.tokens, pmf(side.die, v)) for v in range(1, top)]

    win = tie = lose = Fraction(0)
    for x, p in values(a):
        for y, q in values(b):
            if x > y:
                win += p * q
            elif x == y:
                tie += p * q
            else:
                lose += p * q
    return win, tie, lose


SIDES = st.builds(
    Side,
    die=DICE,
    modifier=st.integers(-3, 3),
    tokens=st.integers(0, 4),
    take_half=st.booleans(),
    is_pc=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(a=SIDES, b=SIDES)
def test_opposed_odds_with_tokens_and_half_agree_with_enumeration(a: Side, b: Side) -> None:
    """OPPOSED ROLL: "compare the outcomes to see who rolled higher. A tied score will
    favor either a PC (in the case of PC vs. NPC) or, in the case of PC vs. PC, will
    require a re-roll" — each side's chance from the enumeration of one round, within the
    weight the enumeration leaves out."""
    if a.take_half and b.take_half and a.is_pc == b.is_pc:
        a = a.model_copy(update={"is_pc": not b.is_pc})  # two fixed totals may never settle
    win, tie, lose = brute_raw(a, b)
    bound = LEFT_OUT
    if a.is_pc != b.is_pc:
        win, lose = (win + tie, lose) if a.is_pc else (win, lose + tie)
    else:
        # The re-roll divides by 1 − P(tie), and P(tie) ≤ 1/4 here (a d4 against a fixed
        # total), so the left-out weight grows at most 2/(3/4)² < 4 times.
        assert tie <= Fraction(1, 4)
        win, lose = win / (1 - tie), lose / (1 - tie)
        bound *= 4
    odds = opposed_odds(a, b)
    assert abs(odds.p_first_wins - win) <= bound
    assert abs(odds.p_second_wins - lose) <= bound
