"""Maze Rats use cases shared by REST and GraphQL: one request model in, one result out."""

from __future__ import annotations

from services.dice import Rng
from services.mazerats.character import Character
from services.mazerats.encounters import InitiativeOutcome, resolve_initiative
from services.mazerats.generator import generate_character
from services.mazerats.play_requests import InitiativeRequest
from services.mazerats.requests import CharacterRequest


def create_character(request: CharacterRequest, rng: Rng, seed: str | None) -> Character:
    """A level-1 sheet: every step the request does not choose is rolled with `rng`."""
    return generate_character(
        rng,
        seed=seed,
        name=request.name,
        gear_package=request.gear_package,
        unique_items=request.unique_items,
        ability_row=request.ability_row,
        path=request.path,
        weapon=request.weapon,
        items=request.items,
    )


def initiative(request: InitiativeRequest, rng: Rng) -> InitiativeOutcome:
    """Who acts first and the surprised characters' WIL saves."""
    return resolve_initiative(rng, request.surprised, request.surprised_wills)
