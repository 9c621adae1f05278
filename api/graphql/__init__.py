"""GraphQL API: types generated from the use-case rows' models, a small root schema
(api/graphql/schema.py), failures as union members."""
