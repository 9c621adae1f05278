"""Daedalus domain services: pure code, no I/O (except services/store)."""
