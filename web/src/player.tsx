// The player view: join with a code, see one's seat and the river, act on one's turn.
import { useEffect, useState } from "preact/hooks";
import { chanceOf, join, send, type ApiError, type Json, type SeenCard } from "./api";
import { Card, EventLog, Problem, Section, StatusBadge, errorOf, saved, useTable } from "./ui";
import { RollForm } from "./rolls";

export function Join({ code: given, go }: { code?: string; go: (hash: string) => void }) {
  const [code, setCode] = useState(given ?? "");
  const [error, setError] = useState<ApiError | null>(null);
  const exchange = async (event?: Event): Promise<void> => {
    event?.preventDefault();
    setError(null);
    try {
      const joined = await join(code);
      // A code is spent once it is exchanged: whichever table it opens, keep the token.
      if (joined.kind === "campaign" && joined.campaign_id) {
        saved.put(joined.campaign_id, { player: joined.token, member: joined.member });
        go(`#/campaign/${joined.campaign_id}`);
        return;
      }
      if (!joined.session_id) throw new Error("The service answered a join without its table.");
      saved.put(joined.session_id, { player: joined.token, member: joined.member });
      go(`#/play/${joined.session_id}`);
    } catch (e) {
      setError(errorOf(e));
    }
  };
  useEffect(() => {
    if (given) void exchange();
  }, [given]);
  return (
    <form class="panel" onSubmit={exchange} aria-label="Join a table">
      <h2>Join a table</h2>
      <label>
        Join code
        <input
          value={code}
          autocomplete="off"
          placeholder="K7QF-M2XP"
          aria-invalid={!!error}
          onInput={(e) => setCode((e.target as HTMLInputElement).value)}
        />
      </label>
      <Problem error={error} />
      <button type="submit" class="primary">
        Join
      </button>
    </form>
  );
}

/** Each action: its name, its label, whether it needs a card picked, whether it takes
 * the cards picked (Boost Morale may name the Dead End; the others name none). */
const ACTIONS: [string, string, boolean, boolean][] = [
  ["forge_a_path", "Forge a Path", false, false],
  ["scout_ahead", "Scout Ahead", true, true],
  ["its_elementary", "It's Elementary", false, false],
  ["careful_consideration", "Careful Consideration", true, true],
  ["boost_morale", "Boost Morale", false, true],
];

/** The exact chance of each of the viewer's action checks against the maze's DC. */
function useOdds(checks: Record<string, string>, dc: number): Record<string, number> {
  const [odds, setOdds] = useState<Record<string, number>>({});
  const key = JSON.stringify([checks, dc]);
  useEffect(() => {
    let live = true;
    Promise.all(
      Object.entries(checks).map(async ([action, dice]) => [action, await chanceOf(`${dice} >= ${dc}`)] as const),
    ).then(
      (found) => live && setOdds(Object.fromEntries(found)),
      () => live && setOdds({}),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return odds;
}

export function Play({ id }: { id: string }) {
  const token = String(saved.get(id).player ?? "");
  const me = String(saved.get(id).member ?? "");
  const { table, events, status, error } = useTable(id, token);
  const [acting, setActing] = useState<ApiError | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const view = table?.view ?? {};
  const odds = useOdds(
    (view.checks ?? {}) as Record<string, string>,
    Number((view.maze as Json | undefined)?.dc ?? 0),
  );
  if (!token) return <p class="problem">Join this table with a code first.</p>;
  if (!table) return <Problem error={error} />;
  const v = table.view;
  const phase = String(v.phase);
  const mine = v.active === me;
  const river = (v.river ?? []) as SeenCard[];
  const command = async (body: Json): Promise<void> => {
    setActing(null);
    try {
      await send(id, token, { player: me, ...body, seen_version: table.version });
      setPicked([]);
    } catch (e) {
      setActing(errorOf(e));
    }
  };
  const unavailable = new Set([...((v.locked_actions ?? []) as string[]), ...((v.removed_actions ?? []) as string[])]);
  const choice = (v.choice ?? null) as { options?: SeenCard[] } | null;
  const toggle = (slot: string): void =>
    setPicked(picked.includes(slot) ? picked.filter((s) => s !== slot) : [...picked, slot]);
  return (
    <div class="table player" data-phase={phase} data-version={table.version} data-member={me}>
      <header class="bar">
        <h1>{(v.maze as Json | undefined)?.name as string}</h1>
        <span>
          You are <strong>{me}</strong>. Phase <strong data-testid="phase">{phase}</strong>,{" "}
          {mine ? <strong class="your-turn">your turn</strong> : `${String(v.active ?? "nobody")}'s turn`}. Right paths{" "}
          {String(v.right_paths)}, monster points {String(v.monster_points)}, deck {String(v.deck_count)}.
        </span>
        <StatusBadge status={status} />
      </header>
      <Problem error={error} />
      <Section title="River">
        <div class="river">
          {river.map((card, i) => (
            <Card
              card={card}
              key={card.slot ?? i}
              selected={!!card.slot && picked.includes(card.slot)}
              label={card.face_up ? undefined : `Face-down card ${i + 1}`}
              onClick={card.slot && !card.face_up && mine ? () => toggle(card.slot!) : undefined}
            />
          ))}
        </div>
      </Section>
      {mine && (
        <Section title="Your turn">
          <div class="actions">
            {phase === "turn" && (
              <button
                type="button"
                class="primary"
                disabled={picked.length !== 1}
                onClick={() => void command({ type: "FlipCard", card: picked[0] })}
              >
                Flip the selected card
              </button>
            )}
            {phase === "turn" &&
              !v.action_taken &&
              ACTIONS.filter(([a]) => !unavailable.has(a)).map(([action, label, needsCard, takesCards]) => (
                <button
                  type="button"
                  key={action}
                  disabled={needsCard && picked.length === 0}
                  onClick={() => void command({ type: "TakeAction", action, cards: takesCards ? picked : [] })}
                >
                  {label}
                  {odds[action] !== undefined && (
                    <span class="odds">
                      {" "}
                      {(view.checks as Record<string, string>)[action]}: {Math.round(odds[action]! * 100)}%
                    </span>
                  )}
                </button>
              ))}
            {phase === "choice" &&
              (choice?.options ?? []).map((card, i) => (
                <Card
                  card={card}
                  key={card.slot ?? i}
                  label={`Choose ${card.kind ?? "card"} ${card.label ?? ""}`}
                  onClick={() => void command({ type: "ChooseCard", card: card.slot })}
                />
              ))}
            {phase === "trap" && (
              <>
                <button type="button" class="primary" onClick={() => void command({ type: "AttemptDisarm" })}>
                  Attempt to disarm
                </button>
                <button type="button" onClick={() => void command({ type: "SkipDisarm" })}>
                  Let it go off
                </button>
              </>
            )}
          </div>
          <Problem error={acting} />
        </Section>
      )}
      <Section title="Roll log">
        <RollForm id={id} token={token} player={me} disabled={["escaped", "ended"].includes(phase)} />
        <EventLog events={events} party={v.party} />
      </Section>
    </div>
  );
}
