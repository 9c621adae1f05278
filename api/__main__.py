"""`python -m api`: serve Daedalus with uvicorn on the configured host and port."""

from __future__ import annotations

import uvicorn

from api.app import create_app
from api.logs import configure_logging
from api.secret_key import with_stored_key
from api.settings import Settings
from api.worker_process import worker_alongside


def main() -> None:
    """Read the settings, prepare the data folder and serve until interrupted."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings = with_stored_key(settings)
    configure_logging(settings.log_level)
    # log_config=None keeps uvicorn off the logging setup; its access log is replaced by
    # api/middleware/access_log.py (JSON, request ids, no query strings).
    with worker_alongside(settings):
        uvicorn.run(
            create_app(settings),
            host=settings.host,
            port=settings.port,
            log_config=None,
            access_log=False,
        )


if __name__ == "__main__":
    main()
