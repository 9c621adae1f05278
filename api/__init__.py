"""Daedalus HTTP API: a Starlette app serving REST under /v1 and GraphQL at /graphql."""
