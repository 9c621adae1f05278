// The campaign clock: runners, the clearing's supplies, downtimes as they pass, live.
import { useEffect, useState } from "preact/hooks";
import { advanceCampaign, createCampaign, followTable, getCampaign } from "./api";
import type { ApiError, Json, TableView } from "./api";
import { KEY_CODES } from "./api";
import { KeyEntry } from "./gm";
import { Problem, Section, errorOf, saved } from "./ui";

export function NewCampaign({ go }: { go: (hash: string) => void }) {
  const [name, setName] = useState("The clearing");
  const [error, setError] = useState<ApiError | null>(null);
  const create = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      const made = await createCampaign({ name });
      saved.put(made.campaign_id, { gm: made.gm_token });
      go(`#/campaign/${made.campaign_id}`);
    } catch (e) {
      setError(errorOf(e));
    }
  };
  return (
    <form class="panel" onSubmit={create} aria-label="New campaign">
      <h2>New campaign</h2>
      <label>
        Name
        <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <Problem error={error} />
      {error && KEY_CODES.has(error.code) && <KeyEntry />}
      <button type="submit" class="primary">
        Create campaign
      </button>
    </form>
  );
}

export function Campaign({ id }: { id: string }) {
  // The GM's token, or a player's (joined with a campaign's code): a player sees the
  // campaign as the service shows it to players and does not run the clock.
  const mine = saved.get(id);
  const gm = mine.gm !== undefined;
  const token = String(mine.gm ?? mine.player ?? "");
  const [table, setTable] = useState<TableView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    const load = (): void => void getCampaign(id, token).then(setTable, (e: unknown) => setError(errorOf(e)));
    let stop = (): void => {};
    getCampaign(id, token).then((first) => {
      setTable(first);
      stop = followTable(id, token, first.version, load, (_, problem) => problem && setError(problem), true);
    }, (e: unknown) => setError(errorOf(e)));
    return () => stop();
  }, [id, token]);
  if (!table) return <Problem error={error} />;
  const v = table.view;
  const runners = (v.runners ?? []) as Json[];
  return (
    <div class="campaign" data-version={table.version}>
      <header class="bar">
        <h1>{String(v.name)}</h1>
        <span>
          Downtime <strong data-testid="downtime">{String(v.downtime)}</strong>, supplies{" "}
          {v.supplies !== undefined && v.supplies !== null && <strong>{String(v.supplies)}</strong>}{" "}
          ({String(v.supplies_level)})
        </span>
      </header>
      <Section title="Runners">
        {runners.length === 0 ? <p>No runners yet.</p> : (
          <ul>
            {runners.map((r, i) => (
              <li key={i}>{String(r.runner ?? r.id ?? r.name)}</li>
            ))}
          </ul>
        )}
      </Section>
      {gm && (<Section title="Clock">
        <button
          type="button"
          class="primary"
          disabled={Boolean(v.ended)}
          onClick={() => void advanceCampaign(id, token).catch((e: unknown) => setError(errorOf(e)))}
        >
          Pass a downtime
        </button>
      </Section>)}
      <Problem error={error} />
    </div>
  );
}
