"""Foundry VTT roll data type-checks against Foundry's published type definitions.

Every notation of tests/unit/dice/test_foundry_notation.py (plus the rules systems'
expressions) is rendered as Foundry roll data and written as a TypeScript array typed
`RollData` (clients/foundry/roll-data.ts: Foundry's term types from npm
`@league-of-foundry-developers/foundry-vtt-types`, plus Daedalus's documented
extensions); `tsc --strict` must accept it, and must refuse a sample with one key
misspelled (so the check is known to bite). `make test` installs clients/foundry.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from services.dice import roll, seeded_rng
from services.dice.render import render_foundry
from tests.unit.dice.test_foundry_notation import CASES

ROOT = Path(__file__).resolve().parents[3]
CHECK = ROOT / "clients" / "foundry"
TSC = CHECK / "node_modules" / ".bin" / "tsc"
# The rules systems' own rolls (api/rolls.py renders them with the same renderer).
RULES = ["1d6!+2", "2d6+1", "1d20+3", "3d10!", "1d10", "1d2"]


def _samples() -> list[dict[str, Any]]:
    expressions = [expression for expression, _, _ in CASES] + RULES
    return [
        render_foundry(roll(expression, seeded_rng(f"{expression}/{seed}")))
        for expression in expressions
        for seed in range(3)
    ]


def _tsc(samples: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    generated = CHECK / "generated"
    generated.mkdir(exist_ok=True)
    text = json.dumps(samples, indent=1, ensure_ascii=False)
    (generated / "samples.ts").write_text(
        'import type { RollData } from "../roll-data";\n\n'
        f"export const samples: RollData[] = {text};\n",
        encoding="utf-8",
    )
    node = shutil.which("node")
    assert node is not None, "node is on every machine (README)"
    return subprocess.run(
        [node, str(TSC), "-p", str(CHECK)], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def installed() -> None:
    if not TSC.exists():
        pytest.fail(f"{CHECK} is not installed: `make test` (or `make foundry-types`) installs it")


def test_every_notation_renders_roll_data_foundrys_types_accept(installed: None) -> None:
    samples = _samples()
    checked = _tsc(samples)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    print(f"{len(samples)} Foundry roll renderings type-checked against foundry-vtt-types")


def test_the_type_check_refuses_a_misspelled_or_mistyped_term(installed: None) -> None:
    samples = _samples()[:2]
    die = next(t for t in samples[0]["terms"] if t["class"] == "Die")
    die["results"][0]["reslt"] = die["results"][0].pop("result")
    samples[1]["terms"][0]["faces"] = "six"
    checked = _tsc(samples)
    assert checked.returncode != 0
    errors = checked.stdout.splitlines()
    assert len(errors) == 2, checked.stdout
    assert "'\"reslt\"' does not exist in type 'DieResult'" in errors[0], errors[0]
    assert "Type 'string' is not assignable to type 'number'" in errors[1], errors[1]
