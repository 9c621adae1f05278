"""Where the service key comes from when the environment gives none.

`make run` keeps a random key in the data folder (created on first start, mode 0600),
so commitments survive restarts; an app built without one gets a random key for the
life of the process. There is no built-in key anyone could know.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import SecretStr

from infra.settings import Settings

KEY_FILE = "secret.key"


def with_ephemeral_key(settings: Settings) -> Settings:
    """The settings, with a random per-process key if none is configured."""
    if settings.secret_key is not None:
        return settings
    return settings.model_copy(update={"secret_key": SecretStr(secrets.token_urlsafe(32))})


def with_stored_key(settings: Settings) -> Settings:
    """The settings, with the data folder's key (created if missing) if none is configured."""
    if settings.secret_key is not None:
        return settings
    path: Path = settings.data_dir / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(32))
    key = path.read_text().strip()
    return settings.model_copy(update={"secret_key": SecretStr(key)})
