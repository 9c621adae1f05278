"""The exact odds of every notation added for issue 19 agree with brute force.

Each strategy builds small instances of one notation; the exact distribution
(`probability`) must give every total the probability found by enumerating every draw
the roller can make. With open-ended dice both sides leave a stated tail, and the two
may differ by at most the two tails (the documented bound).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.dice import DiceError, Limits, probability
from tests.unit.dice.brute import enumerate_totals

LIMITS = Limits(max_support=20_000, max_cost=2_000_000)
# Derandomized: the same examples every run. A random one may be priced past LIMITS (the
# estimate for exploding dice inside a keep group is loose) and be refused, not compared.
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
CUTOFF = Fraction(1, 4000)


def assert_agrees(text: str) -> None:
    report = probability(text, LIMITS)
    exact = report.dist
    brute, brute_tail = enumerate_totals(text, LIMITS, CUTOFF)
    exact_tail = Fraction(exact.tail, exact.den)
    slack = exact_tail + brute_tail
    for v in set(brute) | set(exact.pmf):
        p = Fraction(exact.pmf.get(v, 0), exact.den)
        assert abs(p - brute.get(v, 0)) <= slack, (text, v, p, brute.get(v, 0))
    if slack == 0:
        assert {v: p for v, p in brute.items() if p} == {
            v: Fraction(w, exact.den) for v, w in exact.pmf.items()
        }


def keep_mod(count: int) -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(""),
        st.tuples(st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, count)).map(
            lambda t: f"{t[0]}{t[1]}"
        ),
    )


@st.composite
def fate(draw: st.DrawFn) -> str:
    """Fate dice `dF` (`4dF`, faces -1,0,+1)."""
    n = draw(st.integers(1, 4))
    extra = draw(st.sampled_from(["", ">=1", "cf=-1", "min0", "max0", "r=0"]))
    return f"{n}dF{extra}{draw(keep_mod(n))}"


@st.composite
def custom(draw: st.DrawFn) -> str:
    """Custom faces `d{1,1,2,3}`."""
    faces = draw(st.lists(st.integers(-2, 4), min_size=2, max_size=4))
    n = draw(st.integers(1, 3))
    text = f"{n}d{{{','.join(map(str, faces))}}}"
    lo, hi = min(faces), max(faces)
    if lo < hi and draw(st.booleans()):
        text += f"ro={lo}" if draw(st.booleans()) else f"r={lo}"
    text += draw(st.sampled_from(["", f"cs>={hi}", f"min{lo + 1}", f"max{hi - 1}"]))
    return text + draw(keep_mod(n))


@st.composite
def clamped(draw: st.DrawFn) -> str:
    """Per-die minimum and maximum: `4d6min2`, `4d6max5` and the `mi`/`ma` spellings."""
    n, s = draw(st.integers(1, 3)), draw(st.sampled_from([2, 3, 4, 6]))
    lo = draw(st.integers(1, s))
    hi = draw(st.integers(lo, s + 1))
    text = f"{n}d{s}" + draw(st.sampled_from(["", f"min{lo}", f"mi{lo}", f"min{lo}ma{hi}"]))
    text += draw(st.sampled_from(["", f"max{hi}"])) if "ma" not in text[3:] else ""
    explode = draw(st.sampled_from(["", "!", "!!", "!p"])) if s >= 3 else ""
    text += explode
    return text + (draw(keep_mod(n)) if not explode or explode == "!!" else "")


@st.composite
def counting(draw: st.DrawFn) -> str:
    """Success and failure counting `cs`/`cf` (e.g. `10d10cs>=8`, `10d10cs>=8cf1`)."""
    n, s = draw(st.integers(1, 4)), draw(st.sampled_from([4, 6, 8]))
    t = draw(st.integers(2, s))
    text = f"{n}d{s}" + draw(
        st.sampled_from([f"cs>={t}", f"cs>={t}cf1", f"cf<{t}", "cf1", f">={t}cf1", f"cs{t}"])
    )
    return text + draw(st.sampled_from(["", "!" if t > 1 else ""]))


SMALL_ITEMS = ["1d4", "1d4+1", "1d6", "2", "1dF", "1d{0,5}", "1d3!"]


@st.composite
def groups(draw: st.DrawFn) -> str:
    """Dice groups with keep and drop: `{1d20+5, 1d20+3}kh1` (also kl/dh/dl)."""
    items = draw(st.lists(st.sampled_from(SMALL_ITEMS), min_size=2, max_size=3))
    mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
    k = draw(st.integers(0, len(items)))
    return "{" + ", ".join(items) + "}" + f"{mode}{k}" + draw(st.sampled_from(["", " + 1"]))


@st.composite
def functions(draw: st.DrawFn) -> str:
    """Functions `floor`, `ceil`, `round`, `abs` in expressions."""
    fn = draw(st.sampled_from(["floor", "ceil", "round", "abs"]))
    a = draw(st.sampled_from(["1d6", "1d4-3", "2d3", "1dF", "-1d4"]))
    b = draw(st.sampled_from(["2", "3", "1d3", "-2", "(1d2+1)"]))
    op = draw(st.sampled_from(["/", "*", "+", "-"]))
    inner = f"{a} {op} {b}"
    if draw(st.booleans()):
        inner = f"{{{inner}, 1d4/2}}kh1"
    return f"{fn}({inner})" + draw(st.sampled_from(["", " + 1d4 / 2"]))


@st.composite
def exploding_keep(draw: st.DrawFn) -> str:
    """Exact odds for an exploding pool with keep (`4d6!kh3`)."""
    n, s = draw(st.integers(1, 3)), draw(st.sampled_from([3, 4, 6]))
    kind = draw(st.sampled_from(["!", "!p"]))
    when = draw(st.sampled_from(["", f">={s - 1}"])) if s >= 4 else ""
    k = draw(st.integers(0, 3))
    count = draw(st.sampled_from(["", f">={s - 1}"]))
    return f"{n}d{s}{count}{kind}{when}{draw(st.sampled_from(['kh', 'kl']))}{k}"


@st.composite
def keep_pools(draw: st.DrawFn) -> str:
    """Keep/drop over a plain or compounding pool (issue 18: keep-highest without a cost
    growing with the pool)."""
    n, s = draw(st.integers(1, 4)), draw(st.sampled_from([2, 3, 4, 6]))
    mods = draw(st.sampled_from(["", "", "!!" if s > 2 else "", ">=2", "r=1"]))
    return f"{n}d{s}{mods}{draw(keep_mod(n))}"


@SETTINGS
@given(st.one_of(fate(), custom(), clamped(), counting(), groups(), functions(), keep_pools()))
def test_new_notations_agree_with_brute_force(text: str) -> None:
    try:
        assert_agrees(text)
    except DiceError as e:
        assert e.code == "division_by_zero", (text, e)


@SETTINGS
@given(exploding_keep())
def test_keep_over_an_exploding_pool_agrees_with_brute_force(text: str) -> None:
    assert_agrees(text)


def test_d66t_agrees_with_brute_force() -> None:
    """`d66` as the tables convention (a tens die and a units die, values 11..66)."""
    assert_agrees("1d66t")
    assert_agrees("2d66t")
    report = probability("1d66t")
    assert sorted(report.dist.pmf) == [10 * t + u for t in range(1, 7) for u in range(1, 7)]
