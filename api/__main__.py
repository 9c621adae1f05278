"""`python -m api`: serve Daedalus with uvicorn on the configured host and port."""

from __future__ import annotations

import uvicorn

from api.app import create_app
from api.secret_key import with_stored_key
from api.settings import Settings


def main() -> None:
    """Read the settings, prepare the data folder and serve until interrupted."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings = with_stored_key(settings)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info")


if __name__ == "__main__":
    main()
