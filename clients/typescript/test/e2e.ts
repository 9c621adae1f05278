// End to end against a real server (DAEDALUS_URL): roll over GraphQL, create a session
// over REST, issue two player tokens, follow the GM's subscription, play moves as the
// two players, and check the subscription saw every event once, in order, as REST has
// them. Run by tests/e2e/test_typescript_client.py (make test); exits non-zero on failure.
import assert from "node:assert/strict";
import WebSocket from "ws";
import { createDaedalus, documents, ok, type components, type SessionEventsSubscription } from "../src/index.js";

const baseUrl = process.env.DAEDALUS_URL;
if (!baseUrl) throw new Error("set DAEDALUS_URL");
const daedalus = createDaedalus({ baseUrl, webSocketImpl: WebSocket });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

// Every type below is generated from openapi/openapi.yaml: a player's view and the GM's
// are told apart by what they carry (only the GM's names every card).
type Schemas = components["schemas"];
type TableView = Schemas["LabyrinthTableView"];
type AnyView = TableView | Schemas["LabyrinthGmView"];
const isTableView = (view: AnyView): view is TableView => !("cards" in view);

async function main(): Promise<void> {
  const rolled = await daedalus.graphql(documents.RollDocument, { expression: "3d6", seed: "ts-client" });
  assert.equal(rolled.roll.__typename, "RollResult");
  if (rolled.roll.__typename === "RollResult") {
    assert.equal(rolled.roll.dice.length, 3);
    assert.equal(rolled.roll.total, rolled.roll.dice.reduce((sum, d) => sum + d.face, 0));
  }

  const party = [
    { id: "p1", name: "Ash" },
    { id: "p2", name: "Bryn" },
  ];
  const created = ok(await daedalus.rest.POST("/v1/sessions", { body: { preset: "standard_deck", party } }));
  const sessionId = created.session_id;
  const gm = created.gm_token;
  const players: Record<string, string> = {};
  for (const member of ["p1", "p2"]) {
    const issued = ok(
      await daedalus.rest.POST("/v1/sessions/{session_id}/tokens", {
        params: { path: { session_id: sessionId } },
        body: { role: "player", member },
        ...bearer(gm),
      }),
    );
    players[member] = issued.token;
  }

  const seen: { version: number; type: string }[] = [];
  const following = daedalus.subscribe(
    documents.SessionEventsDocument,
    { sessionId, token: gm, after: 0 },
    (data: SessionEventsSubscription) => {
      const event = data.sessionEvents;
      if (event.__typename === "Problem") throw new Error(`${event.code}: ${event.message}`);
      seen.push({ version: event.version, type: event.type });
    },
  );

  const view = async (token: string): Promise<AnyView> => {
    const got = ok(await daedalus.rest.GET("/v1/sessions/{session_id}", { params: { path: { session_id: sessionId } }, ...bearer(token) }));
    return got.view;
  };
  const send = async (token: string, command: Schemas["CommandBody"]): Promise<void> => {
    ok(
      await daedalus.rest.POST("/v1/sessions/{session_id}/commands", {
        params: { path: { session_id: sessionId } },
        body: command,
        ...bearer(token),
      }),
    );
  };

  let moves = 0;
  for (let step = 0; step < 12 && moves < 6; step++) {
    const table = await view(gm);
    if (table.phase === "escaped" || table.phase === "ended") break;
    if (table.phase === "encounter") {
      await send(gm, { type: "ResolveEncounter", outcome: "party_fled" });
      continue;
    }
    const active = table.active;
    assert.ok(active && players[active], `an active player in phase ${table.phase}`);
    const token = players[active]!;
    const mine = await view(token);
    assert.ok(isTableView(mine), "a player's view, not the GM's");
    if (mine.phase === "trap") await send(token, { type: "SkipDisarm", player: active });
    else if (mine.phase === "choice") {
      const card = mine.choice?.options[0];
      assert.ok(card, "a card to choose");
      await send(token, { type: "ChooseCard", player: active, card });
    }
    else {
      const card = mine.river.find((c) => !c.face_up)?.slot;
      assert.ok(card, "a face-down card to flip");
      await send(token, { type: "FlipCard", player: active, card });
    }
    moves++;
  }
  assert.ok(moves >= 2, "two players moved");

  const events = ok(
    await daedalus.rest.GET("/v1/sessions/{session_id}/events", {
      params: { path: { session_id: sessionId }, query: { after: 0 } },
      ...bearer(gm),
    }),
  );
  const stored = events.events;
  const deadline = Date.now() + 10_000;
  while (seen.length < stored.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  following.stop();
  await daedalus.close();
  assert.deepEqual(seen, stored.map(({ version, type }) => ({ version, type })));
  assert.deepEqual(seen.map((e) => e.version), stored.map((_, i) => i + 1));
  console.log(`ok: ${moves} moves by p1 and p2, ${seen.length} events followed in order`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
