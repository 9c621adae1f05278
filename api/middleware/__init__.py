"""ASGI middleware, one concept per module, assembled by api/app.py."""
