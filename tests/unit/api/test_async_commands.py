"""Session commands on a started app run in the event loop, on the asyncio store
(services/store/aio.py): no thread hop, the same answers, metrics and token checks."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from api.app import create_app
from api.tables import revocation
from api.tables.access import now
from api.tables.revocation import RevocationWatch
from api.tables.tokens import TokenRevoked, read_token
from infra.settings import Settings
from tests.running_app import serving


class NoThreads(Executor):
    """An executor that refuses work: a request that needs a thread fails (500)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        raise RuntimeError("this request was not to leave the event loop")


async def _table(http: httpx.AsyncClient) -> tuple[str, str, str, dict[str, Any]]:
    party = [{"id": "p1", "name": "Ash"}]
    created = await http.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
    session = created.json()["session_id"]
    gm = created.json()["gm_token"]
    issued = await http.post(
        f"/v1/sessions/{session}/tokens",
        json={"role": "player", "member": "p1"},
        headers={"Authorization": f"Bearer {gm}"},
    )
    player = issued.json()["token"]
    look = await http.get(f"/v1/sessions/{session}", headers={"Authorization": f"Bearer {player}"})
    return session, gm, player, look.json()["view"]


def _appended(metrics: str) -> float:
    lines = [x for x in metrics.splitlines() if x.startswith("daedalus_events_appended_total")]
    return sum(float(x.split()[-1]) for x in lines)


def test_a_command_is_recorded_without_a_thread_and_a_revoked_token_still_refused(
    tmp_path: Path,
) -> None:
    app: Starlette = create_app(
        Settings.model_validate({"environment": "test", "data_dir": tmp_path})
    )

    async def scenario() -> None:
        async with serving(app) as http:
            assert app.state.runtime.aio is not None  # opened by the lifespan
            session, gm, player, view = await _table(http)
            before = _appended((await http.get("/metrics")).text)
            threads, app.state.threads = app.state.threads, NoThreads()
            try:
                slot = next(c["slot"] for c in view["river"] if not c["face_up"])
                flip = {"type": "FlipCard", "player": "p1", "card": slot}
                auth = {"Authorization": f"Bearer {player}"}
                done = await http.post(f"/v1/sessions/{session}/commands", json=flip, headers=auth)
                assert done.status_code == 200, done.text
                events = done.json()["events"]
                assert events and events[0]["type"] == "CardRevealed"
                mutation = {
                    "query": "mutation($id: ID!, $t: String!) { sendCommand(id: $id, token: $t,"
                    ' command: {endMaze: {reason: "late"}}) { ... on CommandResult { version }'
                    " ... on Problem { code } } }",
                    "variables": {"id": session, "t": gm},
                }
                ended = (await http.post("/graphql", json=mutation)).json()
                assert ended["data"]["sendCommand"]["version"] > done.json()["version"]
            finally:
                app.state.threads = threads
            after = _appended((await http.get("/metrics")).text)
            assert after - before == len(events) + 1  # counted by the asyncio store too
            revoke = {"role": "player"}
            gm_auth = {"Authorization": f"Bearer {gm}"}
            await http.post(f"/v1/sessions/{session}/revocations", json=revoke, headers=gm_auth)
            refused = await http.post(
                f"/v1/sessions/{session}/commands",
                json={"type": "SkipDisarm", "player": "p1"},
                headers={"Authorization": f"Bearer {player}"},
            )
            assert (refused.status_code, refused.json()["code"]) == (401, "token_revoked")

    asyncio.run(scenario())


def test_table_reads_and_token_issue_need_no_thread_and_a_revoked_token_is_refused_there(
    tmp_path: Path,
) -> None:
    app: Starlette = create_app(
        Settings.model_validate({"environment": "test", "data_dir": tmp_path})
    )
    query = (
        "query($id: ID!, $t: String!) { session(id: $id, token: $t) {"
        " ... on SessionView { version } ... on Problem { code } } }"
    )

    async def scenario() -> None:
        async with serving(app) as http:
            session, gm, player, view = await _table(http)
            one = f"/v1/sessions/{session}"
            gm_auth = {"Authorization": f"Bearer {gm}"}
            issued = await http.post(f"{one}/tokens", json={"role": "spectator"}, headers=gm_auth)
            revoked = issued.json()["token"]
            await http.post(
                f"{one}/revocations", json={"token_id": issued.json()["token_id"]}, headers=gm_auth
            )
            # A renewed GM token, revoked; a campaign's spectator token, revoked.
            renewed = await http.post(f"{one}/tokens", json={"role": "gm"}, headers=gm_auth)
            old_gm = renewed.json()["token"]
            await http.post(
                f"{one}/revocations", json={"token_id": renewed.json()["token_id"]}, headers=gm_auth
            )
            campaign = (await http.post("/v1/campaigns", json={"name": "Glade"})).json()
            at = f"/v1/campaigns/{campaign['campaign_id']}"
            campaign_gm = {"Authorization": f"Bearer {campaign['gm_token']}"}
            watcher = await http.post(
                f"{at}/tokens", json={"role": "spectator"}, headers=campaign_gm
            )
            await http.post(
                f"{at}/revocations",
                json={"token_id": watcher.json()["token_id"]},
                headers=campaign_gm,
            )
            threads, app.state.threads = app.state.threads, NoThreads()
            try:
                looked = await http.get(one, headers={"Authorization": f"Bearer {player}"})
                assert looked.status_code == 200, looked.text
                assert looked.json()["view"] == view and looked.json()["role"] == "player"
                as_gm = await http.get(one, params={"view": "gm"}, headers=gm_auth)
                assert as_gm.status_code == 200 and "cards" in as_gm.json()["view"]
                graphql = await http.post(
                    "/graphql", json={"query": query, "variables": {"id": session, "t": player}}
                )
                assert graphql.json()["data"]["session"] == {"version": looked.json()["version"]}
                at_campaign = await http.get(at, headers=campaign_gm)
                assert at_campaign.status_code == 200, at_campaign.text
                # A page of events, and a token issued: on the loop too.
                page = await http.get(
                    f"{one}/events",
                    params={"after": 0},
                    headers={"Authorization": f"Bearer {player}"},
                )
                assert page.status_code == 200, page.text
                assert page.json()["version"] == looked.json()["version"]
                assert page.json()["events"][0]["version"] == 1
                token = await http.post(
                    f"{one}/tokens", json={"role": "spectator"}, headers=gm_auth
                )
                assert token.status_code == 201 and token.json()["role"] == "spectator"
                watching = await http.get(
                    one, headers={"Authorization": f"Bearer {token.json()['token']}"}
                )
                assert watching.json()["role"] == "spectator"
                campaign_page = await http.get(f"{at}/events", headers=campaign_gm)
                assert campaign_page.status_code == 200 and campaign_page.json()["events"]
                runner_token = await http.post(
                    f"{at}/tokens", json={"role": "spectator"}, headers=campaign_gm
                )
                assert runner_token.status_code == 201, runner_token.text
                # The revoked token: refused on the loop, whether it looks or sends a command
                # the engine refuses before any append (one that never reaches the script).
                refused = await http.get(one, headers={"Authorization": f"Bearer {revoked}"})
                assert (refused.status_code, refused.json()["code"]) == (401, "token_revoked")
                paged = await http.get(
                    f"{one}/events", headers={"Authorization": f"Bearer {revoked}"}
                )
                assert (paged.status_code, paged.json()["code"]) == (401, "token_revoked")
                # The revoked GM token: refused before the GM view's or the issue's checks.
                old_auth = {"Authorization": f"Bearer {old_gm}"}
                for refused_too in (
                    await http.get(one, params={"view": "gm"}, headers=old_auth),
                    await http.post(f"{one}/tokens", json={"role": "spectator"}, headers=old_auth),
                    await http.get(
                        at, headers={"Authorization": f"Bearer {watcher.json()['token']}"}
                    ),
                    await http.get(
                        f"{at}/events",
                        headers={"Authorization": f"Bearer {watcher.json()['token']}"},
                    ),
                ):
                    assert (refused_too.status_code, refused_too.json()["code"]) == (
                        401,
                        "token_revoked",
                    ), refused_too.text
                told = await http.post(
                    "/graphql", json={"query": query, "variables": {"id": session, "t": revoked}}
                )
                assert told.json()["data"]["session"] == {"code": "token_revoked"}
                skip = {"type": "SkipDisarm", "player": "p1"}
                sent = await http.post(
                    f"{one}/commands", json=skip, headers={"Authorization": f"Bearer {revoked}"}
                )
                assert (sent.status_code, sent.json()["code"]) == (401, "token_revoked")
            finally:
                app.state.threads = threads

    asyncio.run(scenario())


def test_an_open_subscriptions_revocation_check_reads_on_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app: Starlette = create_app(
        Settings.model_validate({"environment": "test", "data_dir": tmp_path})
    )

    def no_thread(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("this check was not to leave the event loop")

    async def scenario() -> None:
        async with serving(app) as http:
            session, gm, player, _ = await _table(http)
            grant = read_token(app.state.settings.secret_key_bytes, player, now())
            stream = app.state.runtime.sessions_for(grant.tenant).stream(session)
            conn = SimpleNamespace(app=app)  # what the watch reads of a connection
            monkeypatch.setattr(revocation, "run_in_threadpool", no_thread)
            await RevocationWatch().ensure_live(conn, stream, grant)  # type: ignore[arg-type]
            # Fifty watchers of one table checking at once: one read, which they share.
            reads = []
            store = app.state.runtime.async_store_for(grant.tenant)
            original = store.revocation_table

            async def counted(at: str) -> dict[str, int]:
                reads.append(at)
                await asyncio.sleep(0.05)  # long enough for every watcher to find it pending
                table: dict[str, int] = await original(at)
                return table

            monkeypatch.setattr(store, "revocation_table", counted)
            watch = RevocationWatch()
            checks = [watch.ensure_live(conn, stream, grant) for _ in range(50)]  # type: ignore[arg-type]
            await asyncio.gather(*checks)
            assert reads == [stream]
            revoke = {"role": "player"}
            gm_auth = {"Authorization": f"Bearer {gm}"}
            done = await http.post(
                f"/v1/sessions/{session}/revocations", json=revoke, headers=gm_auth
            )
            assert done.status_code == 200, done.text
            with pytest.raises(TokenRevoked):
                await RevocationWatch().ensure_live(conn, stream, grant)  # type: ignore[arg-type]

    asyncio.run(scenario())
