"""Table settings: every reading of haze.txt that a table may choose differently.

Each field is one decision recorded in docs/RULES.md (Haze) (quote → decision → setting).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.markers import Named


class HazeRules(BaseModel):
    """The variant rules in force; the defaults are the reading documented as default."""

    # REST sends snake_case keys; GraphQL's HazeRulesInput is camelCased by the generator.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    fumble_always_fails: bool = Field(
        default=True, description="A 10 on the action die fails even when the target is 10+."
    )
    fumble_die_explodes: bool = Field(
        default=True, description="The fumble's one effect die is open-ended like all effect dice."
    )
    unskilled_penalty: int = Field(
        default=3, ge=0, le=10, description="Penalty to the ability score for unskilled actions."
    )
    unskilled_penalty_on_effect: bool = Field(
        default=False, description="Whether the unskilled penalty also lowers the effect dice."
    )
    reaction_tie: Annotated[Literal["attacker", "defender"], Named("HazeReactionTie")] = Field(
        default="attacker",
        description="Who wins when a re-action's success rate equals the attacker's.",
    )
    recovery: Annotated[Literal["rest", "each_round"], Named("HazeRecovery")] = Field(
        default="rest",
        description="rest: points come back only by resting a round; each_round: every round.",
    )
    rest_scope: Annotated[Literal["all", "aspect"], Named("HazeRestScope")] = Field(
        default="all",
        description="all: a rest is a round with no action at all; aspect: none in that aspect.",
    )
    fumble_ends_complex: bool = Field(
        default=True, description="A fumble ends a complex action as a failure."
    )
    max_wind: int = Field(default=5, ge=0, le=20, description="Largest cross-wind difficulty.")
    per_unit_rounding: Annotated[Literal["down", "up"], Named("HazeRounding")] = Field(
        default="down",
        description="Lift (per 100 lb) and vault (per foot): part units round down or up.",
    )
    initiative_ties: Annotated[Literal["simultaneous", "wits"], Named("HazeInitiativeTies")] = (
        Field(
            default="simultaneous",
            description="Equal initiative success rates act together, or the higher wits first.",
        )
    )


DEFAULT_RULES = HazeRules()
