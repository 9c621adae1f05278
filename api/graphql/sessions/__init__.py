"""GraphQL: labyrinth sessions — queries, mutations and the live subscription."""

from __future__ import annotations

from api.graphql.sessions.mutation import SessionMutation
from api.graphql.sessions.query import SessionQuery
from api.graphql.sessions.subscription import Subscription

__all__ = ["SessionMutation", "SessionQuery", "Subscription"]
