"""The dice use cases' result models: every key the server answers, typed.

Fields that are only sometimes present (a check's `target_tree`, the `rng` of a roll, a
requested rendering) default to None and are left out of the REST answer when unset.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import model_validator

from api.usecases.markers import FreeForm, LongInt, Named
from api.usecases.table import Result
from services.dice.shown import DieFlag, RolledDie

DieKind = Annotated[Literal["standard", "fate", "custom", "d66"], Named("DieKind")]
NodeType = Annotated[
    Literal["dice", "number", "sum", "product", "negate", "group", "call", "dice_group"],
    Named("RollNodeType"),
]


class RollCheck(Result):
    """A check on the total (`1d20+3 >= 13`): success and margin (positive is better)."""

    op: str
    total: LongInt
    target: LongInt
    success: bool
    margin: LongInt


class RollThrow(Result):
    """One throw of a dice node of the roll's tree."""

    face: LongInt
    value: LongInt
    die: int
    active: bool
    flags: list[DieFlag]


class RollOperand(Result):
    """An operator and its right-hand operand in a sum or product."""

    op: str
    operand: RollNode


class RollNode(Result):
    """A node of the evaluated expression; which fields are set depends on `type`.

    Inside `floor`/`ceil`/`round` division is exact: a node whose value is not a whole
    number has `value` null and its exact value in `fraction` (`"7/2"`).
    """

    type: NodeType
    value: LongInt | None
    fraction: str | None = None
    notation: str | None = None
    kind: DieKind | None = None
    label: str | None = None
    faces: list[LongInt] | None = None
    keep: str | None = None
    items: list[RollNode] | None = None
    kept: bool | None = None
    term: int | None = None
    count: int | None = None
    sides: int | None = None
    throws: list[RollThrow] | None = None
    first: RollNode | None = None
    rest: list[RollOperand] | None = None
    operand: RollNode | None = None
    inner: RollNode | None = None
    fn: str | None = None
    args: list[RollNode] | None = None

    @model_validator(mode="before")
    @classmethod
    def _fraction(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("value"), str):
            return {**data, "value": None, "fraction": data["value"]}
        return data


class RollRng(Result):
    """How the dice were drawn: a seed, or the provably fair inputs."""

    algorithm: str
    seed: str | None = None
    commitment_id: str | None = None
    hash: str | None = None
    server_seed: str | None = None
    client_seed: str | None = None
    nonce: LongInt | None = None


class RollResult(Result):
    """A roll: total, check, every die, the evaluated tree and the renderings asked for."""

    expression: str
    formula: str
    total: LongInt
    check: RollCheck | None
    dice: list[RolledDie]
    tree: RollNode
    target_tree: RollNode | None = None
    rng: RollRng | None = None
    seed: str | None = None
    foundry: FreeForm | None = None  # Foundry VTT `Roll.toJSON()`, for `Roll.fromData`
    dice_so_nice: FreeForm | None = None  # Dice So Nice `show()` data


class ProbabilityPoint(Result):
    """One value and its exact probability."""

    value: LongInt
    fraction: str
    float: float


class ProbabilityTail(Result):
    """The probability mass not enumerated (an open-ended tail) and where it lies."""

    fraction: str
    float: float
    min: LongInt | None
    max: LongInt | None


class ProbabilityPercentile(Result):
    """The smallest value whose cumulative probability reaches `percent`."""

    percent: int
    value: LongInt


class ProbabilityOdds(Result):
    """P(event), exact when `error_bound` is 0 (else `fraction` is a lower bound)."""

    fraction: str
    float: float
    exact: bool
    error_bound: str


class CheckProbability(Result):
    """A check's success and failure odds and the distribution of its margin."""

    op: str
    success: ProbabilityOdds
    failure: ProbabilityOdds
    margin: list[ProbabilityPoint]


class ProbabilityReport(Result):
    """The exact distribution of an expression (null bounds: unbounded, open-ended)."""

    expression: str
    formula: str
    min: LongInt | None
    max: LongInt | None
    exact: bool
    tail: ProbabilityTail
    mean: float
    stddev: float
    percentiles: list[ProbabilityPercentile]
    distribution: list[ProbabilityPoint]
    check: CheckProbability | None = None


class Commitment(Result):
    """The sha256 of a secret server seed, published before any roll."""

    commitment_id: str
    hash: str
    algorithm: str
    expires_at: LongInt


class Reveal(Result):
    """A revealed server seed and the hash it was committed under."""

    commitment_id: str
    server_seed: str
    hash: str


class Verification(Result):
    """The recomputed roll and whether the seed matches its hash (null: none given)."""

    roll: RollResult
    hash_matches: bool
