"""What every process of the service stands on, API and workers alike: settings, logs, telemetry;
and the supervisor that keeps `make run`'s worker processes running.

Neither `api` nor `workers` owns these: both import them from here, and this package
imports neither (tests/contracts/test_boundaries.py).
"""
