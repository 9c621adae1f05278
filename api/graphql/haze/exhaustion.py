"""GraphQL: HazeExhaustion, the exhaustion points of body, mind and soul."""

from __future__ import annotations

import strawberry

from api.graphql.haze.aspect_pool import HazeAspectPool
from services.haze import Exhaustion


@strawberry.type(description="Exhaustion points of the three aspects.")
class HazeExhaustion:
    body: HazeAspectPool
    mind: HazeAspectPool
    soul: HazeAspectPool

    @classmethod
    def from_domain(cls, state: Exhaustion) -> HazeExhaustion:
        """Copy the three pools."""
        return cls(
            body=HazeAspectPool.from_domain(state.body),
            mind=HazeAspectPool.from_domain(state.mind),
            soul=HazeAspectPool.from_domain(state.soul),
        )
