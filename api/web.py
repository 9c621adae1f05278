"""The table pages (`web/`): the built files served at /table/, same origin as the API.

`make run` builds `web/dist` when its sources or lock file changed. A service started
without them answers /table/ with a problem saying so, never a bare 404. Where API keys
are required, the pages use the publishable key `DAEDALUS_TABLE_KEY` (handed to them by
GET /table/config.json; a publishable key is public by design, and the service's own
pages pass its origin check as same-origin requests).
"""

from __future__ import annotations

import os
from os import PathLike

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from api.problems import problem
from infra.settings import Settings


class TablePages(StaticFiles):
    """The built pages; hashed assets may be cached for good, the page itself never."""

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        immutable = f"{os.sep}assets{os.sep}" in os.fspath(full_path)
        response.headers["cache-control"] = (
            "public, max-age=31536000, immutable" if immutable else "no-cache"
        )
        return response


async def _not_built(scope: Scope, receive: Receive, send: Send) -> None:
    response = problem(
        503,
        "pages_not_built",
        "the table pages are not built: `make run` builds them (npm, from web/package-lock.json)",
    )
    await response(scope, receive, send)


async def _to_pages(request: Request) -> Response:
    return RedirectResponse("/table/", status_code=308)


def _config(settings: Settings) -> Route:
    """GET /table/config.json: what the pages need to know of this deployment."""

    async def config(request: Request) -> Response:
        body = {"api_key": settings.table_key}
        return JSONResponse(body, headers={"cache-control": "no-cache"})

    return Route("/table/config.json", config, methods=["GET"])


def routes(settings: Settings) -> list[BaseRoute]:
    """/table redirects to /table/; /table/ serves the built pages (or says they are not)."""
    built = (settings.web_dir / "index.html").is_file()
    pages = TablePages(directory=settings.web_dir, html=True) if built else _not_built
    return [
        Route("/table", _to_pages, methods=["GET", "HEAD"]),
        _config(settings),
        Mount("/table", app=pages),
    ]
