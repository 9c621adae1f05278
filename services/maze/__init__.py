"""The Maze rules as pure functions and pydantic models."""
