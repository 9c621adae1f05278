"""Fixtures for The Maze rules: the default catalog and a sample character."""

from __future__ import annotations

import pytest

from services.maze.abilities import Ability
from services.maze.catalog import Catalog, default_catalog
from services.maze.character import Character


@pytest.fixture
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture
def hero() -> Character:
    return Character(
        name="Vex",
        abilities={
            Ability.READY: 10,
            Ability.INTERACTION: 6,
            Ability.SURROUNDINGS: 12,
            Ability.NAVIGATION: 8,
        },
        skills={"Combat": 2, "Deceit": 2, "Recall": 6, "Hardy": 1, "Debate": 1},
        traits=["Soldier", "Crybaby"],
    )
