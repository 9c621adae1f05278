"""Haze rules as pure functions and pydantic models."""
