"""Task metrics through Redis: the Celery signal handlers write, the API's collector reads.

Against the embedded Redis; the signals are sent as Celery sends them in a worker.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import redis
from celery import signals
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from api.app import create_app
from api.metrics import WorkerCollector
from infra.logs import JsonFormatter
from infra.settings import Settings
from services.store.connection import SingleConnection, start_embedded
from services.store.schedule import TickSchedule
from workers import metrics
from workers.metrics import Recorder, observe_tick_lag, quick_client, task_fields
from workers.task_metrics import DURATIONS_KEY, SEP, TASKS_KEY, TICK_LAG_KEY, histogram


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SingleConnection]:
    conn = start_embedded(tmp_path_factory.mktemp("task-metrics-redis"))
    conn.client.ping()  # its connection is the module's, not the first test's
    yield conn
    conn.close()


@pytest.fixture
def client(embedded: SingleConnection, monkeypatch: pytest.MonkeyPatch) -> Iterator[redis.Redis]:
    """The embedded Redis, empty, as the workers' Redis of this process's recorder."""
    embedded.client.flushdb()
    monkeypatch.setattr(metrics, "recorder", Recorder(embedded.client))
    yield embedded.client
    embedded.client.flushdb()


class FakeTask:
    """What the handlers read of a Celery task: its name and whether it runs eagerly."""

    def __init__(self, name: str, eager: bool) -> None:
        self.name = name
        self.request = SimpleNamespace(is_eager=eager)


def task(name: str, eager: bool = False) -> FakeTask:
    return FakeTask(name, eager)


def run(sender: Any, task_id: str, outcome: str, args: Any = (), kwargs: Any = None) -> None:
    """The signals a worker sends for one run of `sender` ending in `outcome`."""
    kwargs = kwargs or {}
    signals.task_prerun.send(sender=sender, task_id=task_id, task=sender, args=args, kwargs=kwargs)
    state = {"succeeded": "SUCCESS", "failed": "FAILURE", "retried": "RETRY"}[outcome]
    if outcome == "failed":
        signals.task_failure.send(sender=sender, task_id=task_id, exception=RuntimeError("x"))
    if outcome == "retried":
        signals.task_retry.send(sender=sender, request=None, reason="again", einfo=None)
    signals.task_postrun.send(
        sender=sender, task_id=task_id, task=sender, args=args, kwargs=kwargs, state=state
    )


def scrape(collector: WorkerCollector) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """Every sample of a scrape: name → sorted labels → value."""
    registry = CollectorRegistry()
    registry.register(collector)
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(generate_latest(registry).decode()):
        for sample in family.samples:
            labels = tuple(sorted(sample.labels.items()))
            samples.setdefault(sample.name, {})[labels] = sample.value
    return samples


def test_outcomes_and_durations_are_counted_by_task(
    client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The recorder's clock moves 1 ms a reading, whatever the machine's load: a run
    # (prerun to postrun, a few readings) lasts a few ms, in the 0.01 bucket.
    readings = itertools.count()
    clock = SimpleNamespace(monotonic=lambda: next(readings) * 0.001)
    monkeypatch.setattr(metrics, "time", clock)
    ok, shaky = task("sim.run_shard"), task("campaign.tick")
    run(ok, "a", "succeeded")
    run(ok, "b", "succeeded")
    run(ok, "c", "failed")
    run(shaky, "d", "retried")
    raw = client.hgetall(TASKS_KEY)
    stored = {(k.decode() if isinstance(k, bytes) else k): int(v) for k, v in raw.items()}
    assert stored == {
        f"sim.run_shard{SEP}run": 3,
        f"sim.run_shard{SEP}succeeded": 2,
        f"sim.run_shard{SEP}failed": 1,
        f"campaign.tick{SEP}run": 1,
        f"campaign.tick{SEP}retried": 1,
    }
    durations = client.hgetall(DURATIONS_KEY)
    assert int(durations[f"sim.run_shard{SEP}count".encode()]) == 3
    assert int(durations[f"sim.run_shard{SEP}le{SEP}0.01".encode()]) == 3  # instant runs
    samples = scrape(WorkerCollector(lambda: client))
    tasks = samples["daedalus_tasks_total"]
    assert tasks[(("outcome", "failed"), ("task", "sim.run_shard"))] == 1
    assert tasks[(("outcome", "succeeded"), ("task", "sim.run_shard"))] == 2
    assert tasks[(("outcome", "retried"), ("task", "campaign.tick"))] == 1
    counts = samples["daedalus_task_duration_seconds_count"]
    assert counts[(("task", "sim.run_shard"),)] == 3 and counts[(("task", "campaign.tick"),)] == 1
    buckets = samples["daedalus_task_duration_seconds_bucket"]
    assert buckets[(("le", "0.01"), ("task", "sim.run_shard"))] == 3
    assert buckets[(("le", "+Inf"), ("task", "sim.run_shard"))] == 3


def test_tick_lag_is_a_histogram_and_overdue_comes_from_the_schedule(
    client: redis.Redis,
) -> None:
    for seconds in (0.2, 3.0, 4.0, 7200.0):
        observe_tick_lag(seconds)
    observe_tick_lag(-1.0)  # a clock skew: counted as on time
    schedule = TickSchedule(client)
    schedule.set_due("t1", "c1", 950.0)
    schedule.set_due("t1", "c2", 990.0)
    schedule.set_due("t2", "c3", 2000.0)  # not due yet
    samples = scrape(WorkerCollector(lambda: client, lambda: schedule, clock=lambda: 1000.0))
    lag = {dict(k)["le"]: v for k, v in samples["daedalus_tick_lag_seconds_bucket"].items()}
    assert lag["1.0"] == 2 and lag["2.5"] == 2 and lag["5.0"] == 4 and lag["3600.0"] == 4
    assert lag["+Inf"] == 5
    assert samples["daedalus_tick_lag_seconds_count"][()] == 5
    assert samples["daedalus_tick_lag_seconds_sum"][()] == pytest.approx(7207.2)
    assert samples["daedalus_ticks_overdue_seconds"][()] == 50.0
    assert int(client.hget(TICK_LAG_KEY, "count") or 0) == 5
    nothing_due = scrape(WorkerCollector(lambda: client, lambda: schedule, clock=lambda: 900.0))
    assert nothing_due["daedalus_ticks_overdue_seconds"][()] == 0.0


def test_a_bound_no_longer_configured_counts_in_the_next_bucket_up() -> None:
    read = histogram({f"le{SEP}0.7": 2, f"le{SEP}+Inf": 1, f"le{SEP}5.0": 1, "sum": 9.0}, (1, 5))
    assert read.buckets == [("1.0", 2), ("5.0", 3), ("+Inf", 4)] and read.sum == 9.0


def test_eager_runs_are_not_the_fleets_work(client: redis.Redis) -> None:
    run(task("sim.run_shard", eager=True), "e", "succeeded")
    run(task("sim.run_shard", eager=True), "f", "failed")
    assert client.hgetall(TASKS_KEY) == {} and client.hgetall(DURATIONS_KEY) == {}


def test_a_redis_error_never_fails_a_task_and_pauses_the_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gone = quick_client(f"unix://{tmp_path / 'no.sock'}")
    broken = Recorder(gone)
    monkeypatch.setattr(metrics, "recorder", broken)
    with caplog.at_level(logging.WARNING, logger="workers.metrics"):
        run(task("sim.run_shard"), "g", "failed")
        observe_tick_lag(2.0)
    assert len(caplog.records) == 1  # then paused: no second attempt, no second line
    assert "not recorded" in caplog.records[0].getMessage()


def test_unreadable_worker_metrics_leave_the_rest_of_the_scrape(tmp_path: Path) -> None:
    gone = quick_client(f"unix://{tmp_path / 'no.sock'}")
    assert scrape(WorkerCollector(lambda: gone)) == {}
    assert scrape(WorkerCollector(lambda: None)) == {}


def test_a_task_logs_with_its_id_name_and_campaign(client: redis.Redis) -> None:
    lines: list[dict[str, Any]] = []

    def capture(**_: Any) -> None:
        made = logging.LogRecord("workers.ticks", logging.INFO, __file__, 1, "ticking", (), None)
        lines.append(json.loads(JsonFormatter().format(made)))

    sender = task("campaign.tick")
    signals.task_prerun.send(
        sender=sender, task_id="t-1", task=sender, args=("acme", "camp-9"), kwargs={}
    )
    capture()
    signals.task_postrun.send(sender=sender, task_id="t-1", task=sender, state="SUCCESS")
    capture()
    assert lines[0]["task_id"] == "t-1" and lines[0]["task"] == "campaign.tick"
    assert lines[0]["campaign_id"] == "camp-9" and lines[0]["tenant"] == "acme"
    assert "task_id" not in lines[1]  # the context ends with the task


def test_task_fields_name_what_the_arguments_concern() -> None:
    assert task_fields("sim.run_shard", "i", ["job-1", 0], {}) == {
        "task_id": "i",
        "task": "sim.run_shard",
        "job_id": "job-1",
    }
    assert task_fields("campaign.tick", "i", [], {"tenant": "t", "campaign_id": "c"}) == {
        "task_id": "i",
        "task": "campaign.tick",
        "tenant": "t",
        "campaign_id": "c",
    }


def test_the_apps_metrics_read_the_workers_and_the_clock_from_its_redis(tmp_path: Path) -> None:
    settings = Settings.model_validate({"environment": "test", "DAEDALUS_DATA_DIR": str(tmp_path)})
    app = create_app(settings)
    with TestClient(app) as http:
        runtime = app.state.runtime
        runtime.schedule.set_due("t1", "late", time.time() - 100)
        Recorder(runtime.connection.client).count("campaign.tick", "run")  # as a worker would
        families = {f.name: f for f in text_string_to_metric_families(http.get("/metrics").text)}
    (overdue,) = families["daedalus_ticks_overdue_seconds"].samples
    assert 99 < overdue.value < 200
    (ran,) = families["daedalus_tasks"].samples
    assert ran.labels == {"task": "campaign.tick", "outcome": "run"} and ran.value == 1
