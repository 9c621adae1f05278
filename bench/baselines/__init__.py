"""Baselines the benchmarks measure against: simple, specialised versions of the same work."""
