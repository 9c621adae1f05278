"""Every use case the adapters serve, area by area, in a stable order."""

from __future__ import annotations

from api.usecases import dice, haze, labyrinths, maze, mazerats, simulations
from api.usecases.table import UseCase

ROWS: tuple[UseCase, ...] = (
    *dice.ROWS,
    *labyrinths.ROWS,
    *maze.ROWS,
    *haze.ROWS,
    *mazerats.ROWS,
    *simulations.ROWS,
)
