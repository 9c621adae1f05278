"""GraphQL: the Haze queries (checks, probabilities, exhaustion). One type per module."""

from __future__ import annotations

from api.graphql.haze.query import HazeQuery

__all__ = ["HazeQuery"]
