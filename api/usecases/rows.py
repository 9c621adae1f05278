"""Every use case the adapters serve, area by area, in a stable order."""

from __future__ import annotations

from api.usecases import (
    campaigns,
    dice,
    haze,
    labyrinths,
    maze,
    mazerats,
    sessions,
    simulations,
    tables,
)
from api.usecases.table import UseCase

ROWS: tuple[UseCase, ...] = (
    *dice.ROWS,
    *labyrinths.ROWS,
    *maze.ROWS,
    *haze.ROWS,
    *mazerats.ROWS,
    *simulations.ROWS,
    *sessions.ROWS,
    *campaigns.ROWS,
    *tables.ROWS,
)
