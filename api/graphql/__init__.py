"""GraphQL API: one type per module, a small root schema, failures as union members."""

from __future__ import annotations

from api.graphql.schema import DaedalusGraphQL, build_schema, schema

__all__ = ["DaedalusGraphQL", "build_schema", "schema"]
