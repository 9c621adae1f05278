"""Hypothesis strategies: random but valid dice expressions within small limits."""

from __future__ import annotations

from hypothesis import strategies as st

SIDES = (2, 3, 4, 6, 8, 10, 12, 20)


@st.composite
def dice_term(draw: st.DrawFn) -> str:
    """A dice term with a random, always-valid combination of modifiers."""
    count = draw(st.integers(1, 3))
    sides = draw(st.sampled_from(SIDES))
    text = f"{count}d{sides}"
    # Success counting goes first: after `!` a comparison is the explosion threshold.
    if draw(st.integers(0, 3)) == 0:
        text += f">={draw(st.integers(1, sides))}"
        if draw(st.booleans()):
            text += f"f<={draw(st.integers(1, 2))}"
    reroll = draw(st.sampled_from(["", "r", "ro"])) if sides >= 4 else ""
    if reroll:
        text += f"{reroll}<={draw(st.integers(1, sides // 2 - 1))}"
    explode = draw(st.sampled_from(["", "!", "!!", "!p"]))
    if explode:
        text += explode
        if draw(st.booleans()) and sides >= 4:
            text += f">={draw(st.integers(sides - 1, sides))}"
    pool = explode in ("!", "!p")
    if not pool and draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        text += f"{mode}{draw(st.integers(0, count))}"
    return text


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}"
        ),
        children.map(lambda c: f"({c})"),
        children.map(lambda c: f"-{c}"),
        st.tuples(children, st.integers(1, 4)).map(lambda t: f"({t[0]}) / {t[1]}"),
        st.tuples(st.sampled_from(["min", "max"]), children, children).map(
            lambda t: f"{t[0]}({t[1]}, {t[2]})"
        ),
    )


@st.composite
def notation_term(draw: st.DrawFn) -> str:
    """A term in one of the notations added for issue 19 (Fate, custom, d66t, labels, ...)."""
    count = draw(st.integers(1, 3))
    die = draw(st.sampled_from(["dF", "d{1,1,2,3}", "d{-1..2}", "d66t", "d6", "d8"]))
    text = f"{count}{die}"
    if die in ("d6", "d8") and draw(st.booleans()):
        text += draw(st.sampled_from(["min2", "mi3", "max5", "ma4", "min2max5"]))
    text += draw(st.sampled_from(["", "cs>=1", "cf<=0", "cs>=2cf=-1"]))
    if die in ("d6", "d8") and draw(st.booleans()):
        text += draw(st.sampled_from(["!", "!p"])) + f"kh{draw(st.integers(0, 3))}"
    elif draw(st.booleans()):
        text += f"{draw(st.sampled_from(['kh', 'kl', 'dh', 'dl']))}{draw(st.integers(0, count))}"
    return text + draw(st.sampled_from(["", "[fire]", " [cold]"]))


def _group(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(
        st.lists(children, min_size=2, max_size=3),
        st.sampled_from(["kh", "kl", "dh", "dl"]),
        st.integers(0, 2),
    ).map(lambda t: "{" + ", ".join(t[0]) + "}" + f"{t[1]}{min(t[2], len(t[0]))}")


def _combine_all(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        _combine(children),
        _group(children),
        st.tuples(st.sampled_from(["floor", "ceil", "round", "abs"]), children).map(
            lambda t: f"{t[0]}({t[1]})"
        ),
        st.tuples(st.sampled_from(["floor", "ceil", "round"]), children, children).map(
            lambda t: f"{t[0]}(({t[1]}) / max(1, {t[2]}))"
        ),
    )


expressions = st.recursive(
    st.one_of(dice_term(), notation_term(), st.integers(0, 20).map(str)),
    _combine_all,
    max_leaves=4,
)

checks = st.tuples(
    expressions, st.sampled_from([">=", ">", "<=", "<", "=="]), st.integers(-5, 30)
).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
