"""Maze Rats rules as pure functions and pydantic models."""
