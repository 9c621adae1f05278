"""The Wilson interval, the escape-rate chart and the difficulty tuner."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from services.sim.chart import escape_rate_svg
from services.sim.runner import CHECKPOINT, SimulationSpec, simulate
from services.sim.stats import summarise, wilson
from services.sim.tuner import tune

SVG = "{http://www.w3.org/2000/svg}"


def test_wilson_matches_known_intervals() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(3.8415 / 13.8415, abs=1e-4)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(1 - 3.8415 / 13.8415, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("k", "n"), [(1, 3), (37, 100), (990, 1000), (12_345, 54_321)])
def test_wilson_contains_the_estimate_and_narrows_with_n(k: int, n: int) -> None:
    low, high = wilson(k, n)
    assert 0 <= low <= k / n <= high <= 1
    wider = wilson(k, n)
    narrower = wilson(4 * k, 4 * n)
    assert narrower[1] - narrower[0] < wider[1] - wider[0]


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    import random

    rng = random.Random(7)
    p, n, trials = 0.3, 200, 2_000
    covered = 0
    for _ in range(trials):
        k = sum(rng.random() < p for _ in range(n))
        low, high = wilson(k, n)
        covered += low <= p <= high
    assert abs(covered / trials - 0.95) < 4 * math.sqrt(0.95 * 0.05 / trials)


def _points() -> list[tuple[int, float, float, float]]:
    rates = [0.9, 0.75, 0.6, 0.42, 0.3, 0.2]
    return [(8 + 2 * i, r, *wilson(round(r * 500), 500)) for i, r in enumerate(rates)]


def test_the_chart_is_valid_svg_with_a_point_per_dc() -> None:
    root = ET.fromstring(escape_rate_svg(_points(), "Forest <v2> & friends"))
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f"{SVG}circle")) == len(_points())
    assert root.find(f"{SVG}polyline") is not None and root.find(f"{SVG}polygon") is not None
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Forest <v2> & friends" in texts  # escaped in the document, intact once parsed


def test_the_chart_axes_are_monotone() -> None:
    points = _points()
    root = ET.fromstring(escape_rate_svg(points))
    circles = root.findall(f"{SVG}circle")
    xs = [float(c.get("cx", "nan")) for c in circles]
    ys = [float(c.get("cy", "nan")) for c in circles]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)  # DC grows to the right
    # a lower escape rate is drawn lower (SVG y grows downwards)
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    labels = {t.text: t for t in root.iter(f"{SVG}text")}
    ticks = [float(labels[f"{p}%"].get("y", "nan")) for p in range(0, 101, 20)]
    assert ticks == sorted(ticks, reverse=True)  # 0% at the bottom, 100% at the top
    dc_x = [float(labels[str(dc)].get("x", "nan")) for dc, *_ in points]
    assert dc_x == sorted(dc_x)


def test_the_chart_refuses_no_points() -> None:
    with pytest.raises(ValueError, match="no points"):
        escape_rate_svg([])


def test_the_tuner_finds_a_dc_achieving_the_target_within_tolerance() -> None:
    spec = SimulationSpec(
        preset="enchanted_forest_v2", policy="greedy", combat={"model": "checks"}, seed="tune"
    )
    best = tune(spec, "escape_rate", 0.5, range(8, 21), games=500, best=3)
    assert best is not None
    assert [c.distance for c in best] == sorted(c.distance for c in best)
    chosen = best[0]
    check = spec.model_copy(update={"dc": chosen.dc, "games": 4_000, "seed": "check"})
    if chosen.deck is not None:
        maze = spec.maze().model_copy(update={"dc": chosen.dc, "deck": chosen.deck})
        check = check.model_copy(update={"definition": maze, "dc": None})
    measured = summarise(simulate(check))["escape_rate"]
    assert abs(measured - 0.5) < 0.08


def test_a_tuning_reports_progress_between_checkpoints_and_stops_when_cancelled() -> None:
    spec = SimulationSpec(preset="enchanted_forest_v2", seed="tune-progress")
    games = CHECKPOINT + 500  # two checkpoints per configuration
    reported: list[int] = []
    best = tune(spec, "escape_rate", 0.5, range(10, 13), [], games, progress=reported.append)
    assert best == []  # no deck: nothing tried
    best = tune(spec, "escape_rate", 0.5, range(10, 13), None, games, progress=reported.append)
    assert best is not None
    configurations = len(reported) // 2
    assert configurations >= 3 and len(reported) == 2 * configurations
    assert reported == sorted(reported) and reported[-1] == configurations * games
    # Asked between checkpoints: cancelled after the third report, nothing is played on.
    seen: list[int] = []
    stopped = tune(
        spec,
        "escape_rate",
        0.5,
        range(10, 13),
        None,
        games,
        cancelled=lambda: len(seen) >= 3,
        progress=seen.append,
    )
    assert stopped is None and seen == reported[:3]


def test_a_tuning_played_again_from_its_seed_is_the_same() -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", seed="again")
    first = tune(spec, "mean_turns", 20, range(9, 12), games=300)
    again = tune(spec, "mean_turns", 20, range(9, 12), games=300)
    assert first is not None and again is not None
    assert [c.to_json() for c in first] == [c.to_json() for c in again]
    other = tune(
        spec.model_copy(update={"seed": "other"}), "mean_turns", 20, range(9, 12), games=300
    )
    assert other is not None and [c.summary for c in other] != [c.summary for c in first]
