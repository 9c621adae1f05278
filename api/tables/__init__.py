"""The event-sourced tables (labyrinth sessions, The Maze's campaigns) and what they share:
role tokens and their revocations, access by tenant, join codes and listings, and the
generic use cases of a table (api/tables/kind.py) each aggregate fills in with its own
commands and views."""
