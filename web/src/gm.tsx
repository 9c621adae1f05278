// The GM screen: create a session, hand out seats, see everything, run the table.
import { useEffect, useState } from "preact/hooks";
import QRCode from "qrcode";
import {
  ApiError,
  KEY_CODES,
  rememberKey,
  createSession,
  makeJoinCode,
  presets as loadPresets,
  send,
  validateDefinition,
  type DefinitionIssue,
  type Json,
  type Member,
  type Preset,
  type SeenCard,
} from "./api";
import { Card, EventLog, Problem, Section, StatusBadge, errorOf, saved, useTable } from "./ui";
import { RollForm } from "./rolls";

const OVERRIDE = "GM override at the table";

export function NewSession({ go }: { go: (hash: string) => void }) {
  const [presets, setPresets] = useState<Preset[]>([]);
  const [preset, setPreset] = useState("standard_deck");
  const [custom, setCustom] = useState("");
  const [issues, setIssues] = useState<DefinitionIssue[]>([]);
  const [party, setParty] = useState<Member[]>([
    { id: "p1", name: "Ash" },
    { id: "p2", name: "Bryn" },
  ]);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    loadPresets().then(setPresets, (e: unknown) => setError(errorOf(e)));
  }, []);

  const parsed = (): unknown => {
    try {
      return JSON.parse(custom);
    } catch (e) {
      throw new ApiError("invalid_json", `The definition is not JSON: ${(e as Error).message}`, "definition");
    }
  };
  const check = async (): Promise<boolean> => {
    const report = await validateDefinition(parsed());
    setIssues([...report.problems, ...report.warnings]);
    return report.valid;
  };
  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    try {
      if (custom.trim() && !(await check())) return;
      const source = custom.trim() ? { definition: parsed() } : { preset };
      const made = await createSession(source, party);
      saved.put(made.session_id, { gm: made.gm_token, spectator: made.spectator_token });
      go(`#/gm/${made.session_id}`);
    } catch (e) {
      setError(errorOf(e));
    }
  };
  const member = (i: number, name: string): void =>
    setParty(party.map((m, j) => (j === i ? { ...m, name } : m)));

  return (
    <form class="panel" onSubmit={create} aria-label="New session">
      <h2>New labyrinth session</h2>
      <label>
        Preset
        <select value={preset} onChange={(e) => setPreset((e.target as HTMLSelectElement).value)}>
          {presets.map((p) => (
            <option value={p.name} key={p.name}>
              {p.title} ({p.variant}, DC {p.dc})
            </option>
          ))}
        </select>
      </label>
      <label>
        Or a custom definition (JSON)
        <textarea
          rows={4}
          value={custom}
          aria-invalid={issues.some((i) => !!i.code)}
          onInput={(e) => setCustom((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      {custom.trim() && (
        <button type="button" onClick={() => void check().catch((e: unknown) => setError(errorOf(e)))}>
          Check definition
        </button>
      )}
      <ul class="issues">
        {issues.map((i, k) => (
          <li key={k}>
            <code>{i.field ?? "definition"}</code>: {i.message}
          </li>
        ))}
      </ul>
      <fieldset>
        <legend>Party</legend>
        {party.map((m, i) => (
          <label key={m.id}>
            Seat {m.id}
            <input value={m.name} onInput={(e) => member(i, (e.target as HTMLInputElement).value)} />
          </label>
        ))}
        <button
          type="button"
          onClick={() => setParty([...party, { id: `p${party.length + 1}`, name: `Player ${party.length + 1}` }])}
        >
          Add a seat
        </button>
      </fieldset>
      <Problem error={error} />
      {error && KEY_CODES.has(error.code) && <KeyEntry />}
      <button type="submit" class="primary">
        Create session
      </button>
    </form>
  );
}

/** Where a GM gives this browser the service's secret key (to create tables). */
export function KeyEntry() {
  const [key, setKey] = useState("");
  return (
    <div class="key-entry">
      <label for="gm-key">This service needs its secret API key to create a table</label>
      <input id="gm-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
      <button type="button" onClick={() => rememberKey(key.trim() || null)}>
        Keep it in this browser
      </button>
    </div>
  );
}

function Seat({ id, member, gm }: { id: string; member: Member; gm: string }) {
  const [code, setCode] = useState<{ code: string; link: string; qr: string } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const make = async (): Promise<void> => {
    try {
      const made = await makeJoinCode(id, gm, member.id);
      const link = `${location.origin}/table/#/join/${made.code}`;
      setCode({ code: made.code, link, qr: await QRCode.toDataURL(link, { margin: 1, width: 120 }) });
    } catch (e) {
      setError(errorOf(e));
    }
  };
  return (
    <li class="seat" data-member={member.id}>
      <strong>{member.name}</strong> ({member.id}){" "}
      <button type="button" onClick={() => void make()}>
        Join code
      </button>
      {code && (
        <div class="join">
          <code class="join-code">{code.code}</code> <a href={code.link}>link</a>
          <img src={code.qr} alt={`QR code to join as ${member.name}`} width={120} height={120} />
        </div>
      )}
      <Problem error={error} />
    </li>
  );
}

export function GmTable({ id }: { id: string }) {
  const token = String(saved.get(id).gm ?? "");
  const spectator = String(saved.get(id).spectator ?? "");
  const { table, events, status, error } = useTable(id, token);
  const [acting, setActing] = useState<ApiError | null>(null);
  if (!token) return <p class="problem">This browser holds no GM token for session {id}.</p>;
  if (!table) return <Problem error={error} />;
  const v = table.view;
  const cards = (v.cards ?? {}) as Record<string, { kind: string; label: string }>;
  // The river in its order, each card with its slot (`slots` also names held cards).
  const slotOf = new Map(Object.entries((v.slots ?? {}) as Record<string, string>).map(([s, c]) => [c, s]));
  const river = ((v.river ?? []) as string[]).map((c) => [slotOf.get(c) ?? c, c] as const);
  const faceUp = new Set((v.face_up ?? []) as string[]);
  const party = (v.party ?? []) as Member[];
  const phase = String(v.phase);
  const live = !["escaped", "ended"].includes(phase);
  // The engine takes card overrides at a turn's decision point only, and never turns
  // the river's last face-down card up (someone must be able to flip).
  const overrides = phase === "turn";
  const revealable = river.filter(([, c]) => !faceUp.has(c)).length > 1;
  const command = async (body: Json): Promise<void> => {
    setActing(null);
    try {
      await send(id, token, { ...body, seen_version: table.version });
    } catch (e) {
      setActing(errorOf(e));
    }
  };
  const seen = (cardId: string, slot?: string): SeenCard => ({
    ...(cards[cardId] ?? {}),
    face_up: faceUp.has(cardId),
    slot,
  });
  const goal = ((v.definition as Json | undefined)?.victory as Json | undefined)?.right_paths;
  return (
    <div class="table gm" data-phase={phase} data-version={table.version}>
      <header class="bar">
        <h1>GM screen</h1>
        <span>
          phase <strong data-testid="phase">{phase}</strong>, round {String(v.round)}, active{" "}
          <strong>{String(v.active ?? "—")}</strong>, right paths {String(v.right_paths)}/{String(goal ?? "?")},
          monster points {String(v.monster_points)}
        </span>
        <StatusBadge status={status} />
      </header>
      <Problem error={error} />
      <Section title="Seats">
        <ul class="seats">
          {party.map((m) => (
            <Seat id={id} member={m} gm={token} key={m.id} />
          ))}
        </ul>
        <p>
          Spectator feed:{" "}
          <a href={`#/watch/${id}/${spectator}`} target="_blank" rel="noreferrer">
            open the public feed
          </a>
        </p>
      </Section>
      <Section title="River">
        <div class="river">
          {river.map(([slot, cardId]) => (
            <div class="gm-card" key={slot}>
              <Card card={seen(cardId, slot)} />
              {overrides && (
                <div class="overrides">
                  {revealable && !faceUp.has(cardId) && (
                    <button
                      type="button"
                      aria-label={`Reveal ${cards[cardId]?.label ?? slot}`}
                      onClick={() => void command({ type: "RevealRiverCard", card: slot, reason: OVERRIDE })}
                    >
                      Reveal
                    </button>
                  )}
                  <button
                    type="button"
                    aria-label={`Discard ${cards[cardId]?.label ?? slot} and refill`}
                    onClick={() =>
                      void command({ type: "MoveRiverCard", card: slot, to: "discard", refill: true, reason: OVERRIDE })
                    }
                  >
                    Discard
                  </button>
                </div>
              )}
            </div>
          ))}
        </div>
        {((v.held ?? []) as string[]).length > 0 && (
          <p>
            Held: <span class="held">{((v.held ?? []) as string[]).map((c) => cards[c]?.label ?? c).join(" · ")}</span>
          </p>
        )}
        <p>
          Deck ({((v.deck ?? []) as string[]).length}):{" "}
          <span class="deck-order">
            {((v.deck ?? []) as string[]).map((c) => cards[c]?.label ?? c).join(" · ")}
          </span>
        </p>
      </Section>
      <Section title="Run the table">
        <div class="actions">
          {phase === "initiative" && (
            <button type="button" onClick={() => void command({ type: "RollInitiative" })}>
              Roll initiative
            </button>
          )}
          {phase === "encounter" &&
            ["monster_defeated", "party_fled", "party_defeated"].map((outcome) => (
              <button type="button" key={outcome} onClick={() => void command({ type: "ResolveEncounter", outcome })}>
                {outcome.replaceAll("_", " ")}
              </button>
            ))}
          {live && (
            <button
              type="button"
              class="danger"
              onClick={() => void command({ type: "EndMaze", reason: "ended_by_gm" })}
            >
              End the maze
            </button>
          )}
          {live && v.active ? (
            <button
              type="button"
              onClick={() => void command({ type: "OverrideTurn", reason: "GM skips the turn" })}
            >
              Skip to the next player
            </button>
          ) : null}
        </div>
        <Problem error={acting} />
      </Section>
      <Section title="Roll log">
        <RollForm id={id} token={token} player={null} disabled={!live} />
        <EventLog events={events} party={v.party} />
      </Section>
    </div>
  );
}
