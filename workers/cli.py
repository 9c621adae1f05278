"""`daedalus simulate`: run a simulation with a progress bar, print the summary, write the chart."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from services.sim.chart import escape_rate_svg
from services.sim.combat import combat_from_spec
from services.sim.runner import SimulationSpec, run_games, shard_seed, shard_sizes
from services.sim.stats import Tally, summarise, wilson
from services.sim.tuner import Target, tune

CHUNK = 2_000


def _spec(args: argparse.Namespace, dc: int | None, games: int) -> SimulationSpec:
    combat: dict[str, object] = {"model": args.combat, "win": args.win}
    combat_from_spec(combat)
    return SimulationSpec(
        preset=args.preset, dc=dc, policy=args.policy, combat=combat, games=games, seed=args.seed
    )


def _run(spec: SimulationSpec, bar: tqdm) -> Tally:
    compiled = spec.compiled()
    total = Tally()
    for i, n in enumerate(shard_sizes(spec.games, max(1, spec.games // CHUNK))):
        total = total.merge(run_games(compiled, spec.policy, n, shard_seed(spec.seed, i)))
        bar.update(n)
    return total


def simulate(args: argparse.Namespace) -> int:
    """Run the main simulation, then the DC sweep for the chart."""
    spec = _spec(args, args.dc, args.games)
    dcs = list(range(args.dc_from, args.dc_to + 1)) if args.chart else []
    with tqdm(total=args.games + len(dcs) * args.chart_games, unit="game", file=sys.stderr) as bar:
        summary = summarise(_run(spec, bar))
        points = []
        for dc in dcs:
            t = _run(_spec(args, dc, args.chart_games), bar)
            low, high = wilson(t.escapes, t.games)
            points.append((dc, t.escapes / t.games, low, high))
    summary["turns"].pop("histogram")
    print(json.dumps(summary, indent=2))
    if args.chart:
        Path(args.chart).write_text(escape_rate_svg(points, f"{spec.maze().name}: {args.policy}"))
        print(f"chart written to {args.chart}", file=sys.stderr)
    return 0


def tune_command(args: argparse.Namespace) -> int:
    """Search DC (and deck) for a target escape rate or mean turns."""
    spec = _spec(args, None, args.games)
    target: Target = "escape_rate" if args.escape_rate is not None else "mean_turns"
    value = args.escape_rate if args.escape_rate is not None else args.mean_turns
    best = tune(spec, target, value, range(args.dc_from, args.dc_to + 1), games=args.games)
    assert best is not None  # nothing cancels it here
    print(
        json.dumps(
            [
                c.to_json()
                | {
                    "summary": {
                        "escape_rate": c.summary["escape_rate"],
                        "mean_turns": c.summary["turns"]["mean"],
                    }
                }
                for c in best
            ],
            indent=2,
        )
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `daedalus` command."""
    parser = argparse.ArgumentParser(prog="daedalus")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("simulate", "tune"):
        p = sub.add_parser(name)
        p.add_argument("--preset", default="enchanted_forest_v2")
        p.add_argument("--policy", default="blind")
        p.add_argument("--combat", default="win_probability", choices=["win_probability", "checks"])
        p.add_argument("--win", type=float, default=0.5)
        p.add_argument("--seed", default="daedalus")
        p.add_argument("--games", type=int, default=20_000 if name == "simulate" else 2_000)
        p.add_argument("--dc-from", type=int, default=8)
        p.add_argument("--dc-to", type=int, default=18)
    sim = sub.choices["simulate"]
    sim.add_argument("--dc", type=int, default=None)
    sim.add_argument("--chart", default=None, help="write the escape-rate-by-DC SVG here")
    sim.add_argument("--chart-games", type=int, default=5_000)
    tun = sub.choices["tune"]
    goal = tun.add_mutually_exclusive_group(required=True)
    goal.add_argument("--escape-rate", type=float)
    goal.add_argument("--mean-turns", type=float)
    args = parser.parse_args(argv)
    return simulate(args) if args.command == "simulate" else tune_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
