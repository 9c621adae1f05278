// All of the pages' data access: REST over fetch, live updates over graphql-ws.
// Kept in this one module so it moves to the generated client (clients/typescript) in
// one step. The pages are served by Daedalus at /table/, so every call is same-origin.
import { createClient, type Client } from "graphql-ws";

export type Json = Record<string, unknown>;

/** A refusal as the API words it: a stable code, a message, and the field it concerns. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field: string | null = null,
    readonly status = 0,
  ) {
    super(message);
  }
}

/** What the service tells its own pages (GET /table/config.json): the pages' key. */
const config: Promise<{ api_key?: string | null }> = fetch("/table/config.json")
  .then((r) => (r.ok ? r.json() : {}))
  .catch(() => ({}));

const GM_KEY = "daedalus.apiKey";

/** The key a request carries: a key the GM entered in this browser, else the pages' key. */
const apiKey = async (): Promise<string | null> =>
  localStorage.getItem(GM_KEY) ?? (await config).api_key ?? null;

/** Keep (or, with null, forget) a GM's secret key in this browser only. */
export const rememberKey = (key: string | null): void =>
  key ? localStorage.setItem(GM_KEY, key) : localStorage.removeItem(GM_KEY);

/** Codes that mean "this call needs a (different) API key". */
export const KEY_CODES = new Set(["missing_api_key", "invalid_api_key", "secret_key_required"]);

async function rest<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const key = await apiKey();
  if (key) headers["x-api-key"] = key;
  let response: Response;
  try {
    response = await fetch(`/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network_error", "The service cannot be reached; check your connection.");
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as Json) : {};
  if (!response.ok) {
    const errors = Array.isArray(data.errors) ? (data.errors as Json[]) : [];
    const first = errors[0];
    const loc = first && Array.isArray(first.loc) ? (first.loc as unknown[]).join(".") : null;
    const message = String(first?.msg ?? data.detail ?? data.title ?? response.statusText);
    throw new ApiError(String(data.code ?? "error"), message, loc, response.status);
  }
  return data as T;
}

// ---- labyrinth sessions -------------------------------------------------------------

export interface Member {
  id: string;
  name: string;
}
export interface Preset {
  name: string;
  title: string;
  variant: string;
  dc: number;
  alias_of: string | null;
}
export interface Created {
  session_id: string;
  gm_token: string;
  spectator_token: string;
  version: number;
}
export interface SeenCard {
  face_up: boolean;
  slot?: string;
  kind?: string;
  label?: string;
}
export interface TableView {
  session_id: string;
  role: "gm" | "player" | "spectator";
  member: string | null;
  version: number;
  view: Json;
}
export interface TableEvent extends Json {
  version: number;
  type: string;
}
export interface DefinitionIssue {
  field: string | null;
  code: string;
  message: string;
}
export interface DefinitionReport {
  valid: boolean;
  problems: DefinitionIssue[];
  warnings: DefinitionIssue[];
}

export const presets = async (): Promise<Preset[]> =>
  (await rest<{ presets: Preset[] }>("GET", "/labyrinths/presets")).presets.filter(
    (p) => p.alias_of === null,
  );

export const validateDefinition = (definition: unknown): Promise<DefinitionReport> =>
  rest("POST", "/labyrinths/validate", { definition });

export const createSession = (
  source: { preset: string } | { definition: unknown },
  party: Member[],
): Promise<Created> => rest("POST", "/sessions", { ...source, party });

export const getTable = (id: string, token: string): Promise<TableView> =>
  rest("GET", `/sessions/${encodeURIComponent(id)}`, undefined, token);

export const tableEvents = async (id: string, token: string, after = 0): Promise<TableEvent[]> => {
  const found: TableEvent[] = [];
  for (;;) {
    const page = await rest<{ events: TableEvent[]; next_after: number | null }>(
      "GET",
      `/sessions/${encodeURIComponent(id)}/events?after=${after}`,
      undefined,
      token,
    );
    found.push(...page.events);
    // Where the next page starts (null once read through): the events shown may end
    // before the page does.
    if (page.next_after === null) return found;
    after = page.next_after;
  }
};

export const send = (id: string, token: string, command: Json): Promise<Json> =>
  rest("POST", `/sessions/${encodeURIComponent(id)}/commands`, command, token);

export interface JoinCode {
  code: string;
  member: string;
  expires_at: string;
}
export const makeJoinCode = (id: string, gmToken: string, member: string): Promise<JoinCode> =>
  rest("POST", `/sessions/${encodeURIComponent(id)}/join-codes`, { member }, gmToken);

export interface Joined {
  kind: "session" | "campaign";
  session_id?: string;
  campaign_id?: string;
  token: string;
  role: string;
  member: string | null;
}
export const join = (code: string): Promise<Joined> => rest("POST", "/join", { code });

/** The exact chance that a check such as `1d20+2 >= 13` succeeds. */
export const chanceOf = async (check: string): Promise<number> => {
  const report = await rest<{ check: { success: { float: number } } | null }>(
    "POST",
    "/dice/probability",
    { expression: check },
  );
  if (!report.check) throw new ApiError("not_a_check", `${check} is not a check`);
  return report.check.success.float;
};

// ---- campaigns ----------------------------------------------------------------------

export interface CampaignCreated {
  campaign_id: string;
  gm_token: string;
  version: number;
}
export const createCampaign = (body: Json): Promise<CampaignCreated> =>
  rest("POST", "/campaigns", body);
export const getCampaign = (id: string, token: string): Promise<TableView> =>
  rest("GET", `/campaigns/${encodeURIComponent(id)}`, undefined, token);
/** Pass one downtime now (a GM's manual tick). */
export const advanceCampaign = (id: string, token: string): Promise<Json> =>
  rest("POST", `/campaigns/${encodeURIComponent(id)}/advance`, {}, token);

// ---- simulations --------------------------------------------------------------------

export interface Job extends Json {
  job_id: string;
  status: string;
}
export const startSimulation = (body: Json): Promise<Job> => rest("POST", "/simulations", body);
export const getSimulation = (id: string): Promise<Job> =>
  rest("GET", `/simulations/${encodeURIComponent(id)}`);
export interface Tuned extends Job {
  progress: number;
  error: string | null;
  configurations: number;
  candidates: { dc: number; distance: number; statistics: Json }[] | null;
}
/** Queue a tuning (a worker job): the labyrinth's DCs nearest a target escape rate. */
export const startTuning = (body: Json): Promise<Job> => rest("POST", "/tunings", body);
export const getTuning = (id: string): Promise<Tuned> =>
  rest("GET", `/tunings/${encodeURIComponent(id)}`);
export const cancelTuning = (id: string): Promise<Tuned> =>
  rest("DELETE", `/tunings/${encodeURIComponent(id)}`);
const FINISHED = new Set(["succeeded", "failed", "cancelled"]);
/** Read the tuning every `everyMs` until it has finished, telling `onState` each time. */
export async function followTuning(
  id: string,
  onState: (tuned: Tuned) => void,
  everyMs = 250,
): Promise<Tuned> {
  for (;;) {
    const tuned = await getTuning(id);
    onState(tuned);
    if (FINISHED.has(tuned.status)) return tuned;
    await new Promise((done) => setTimeout(done, everyMs));
  }
}
export const chartUrl = (id: string): string => `/v1/simulations/${encodeURIComponent(id)}/chart.svg`;

// ---- live updates -------------------------------------------------------------------

const SESSION_EVENTS = `subscription Follow($id: ID!, $token: String, $after: Long!) {
  sessionEvents(id: $id, token: $token, after: $after) {
    __typename
    ... on SessionEvent { version type }
    ... on Problem { code message }
  }
}`;
const CAMPAIGN_EVENTS = `subscription FollowCampaign($id: ID!, $token: String, $after: Long!) {
  campaignEvents(id: $id, token: $token, after: $after) {
    __typename
    ... on CampaignEvent { version type }
    ... on Problem { code message }
  }
}`;
const SIMULATION_PROGRESS = `subscription Progress($id: ID!) {
  simulationProgress(id: $id) {
    __typename
    ... on Simulation { jobId status progress gamesDone totalGames totalGamesDone chart { ready } }
    ... on Problem { code message }
  }
}`;

export type Status = "live" | "reconnecting" | "ended";

function socket(onConnected?: () => void): Client {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  return createClient({
    url,
    lazy: true,
    retryAttempts: 0,
    connectionParams: async () => {
      const key = await apiKey();
      return key ? { api_key: key } : {};
    },
    on: onConnected ? { connected: onConnected } : undefined,
  });
}

interface Followed {
  version: number;
  type: string;
}

/**
 * Follow a stream of versioned events from `after`: each new version once, in order.
 * A lost socket is reopened after a second from the last version seen, so nothing is
 * lost or repeated; the returned function stops following.
 */
function followVersions(
  query: string,
  variables: (after: number) => Json,
  after: number,
  onEvent: (event: Followed) => void,
  onStatus: (status: Status, problem?: ApiError) => void,
): () => void {
  let stopped = false;
  let last = after;
  let client: Client | null = null;
  const run = async (): Promise<void> => {
    while (!stopped) {
      client = socket(() => onStatus("live"));
      const ended = await new Promise<boolean>((resolve) => {
        client!.subscribe<Json>(
          { query, variables: variables(last) },
          {
            next: ({ data }) => {
              const payload = data ? (Object.values(data)[0] as Json) : null;
              if (!payload) return;
              if (payload.__typename === "Problem") {
                onStatus("ended", new ApiError(String(payload.code), String(payload.message)));
                stopped = true;
                return;
              }
              onStatus("live");
              const event = payload as unknown as Followed;
              if (typeof event.version === "number" && event.version > last) {
                last = event.version;
                onEvent(event);
              }
            },
            error: () => resolve(false),
            complete: () => resolve(true),
          },
        );
      });
      void client.dispose();
      if (ended || stopped) {
        if (!stopped) onStatus("ended");
        return;
      }
      onStatus("reconnecting");
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void run();
  return () => {
    stopped = true;
    void client?.dispose();
  };
}

/** Follow a session (or, `campaign`, a campaign) as `token` sees it, from `after`. */
export const followTable = (
  id: string,
  token: string,
  after: number,
  onEvent: (event: Followed) => void,
  onStatus: (status: Status, problem?: ApiError) => void,
  campaign = false,
): (() => void) =>
  followVersions(
    campaign ? CAMPAIGN_EVENTS : SESSION_EVENTS,
    (a) => ({ id, token, after: a }),
    after,
    onEvent,
    onStatus,
  );

/** The job's state as it changes, until it has finished. */
export function followSimulation(
  id: string,
  onJob: (job: Json) => void,
  onDone: (problem?: ApiError) => void,
): () => void {
  const client = socket();
  const stop = client.subscribe<Json>(
    { query: SIMULATION_PROGRESS, variables: { id } },
    {
      next: ({ data }) => {
        const job = data?.simulationProgress as Json | undefined;
        if (job?.__typename === "Problem") onDone(new ApiError(String(job.code), String(job.message)));
        // GraphQL's JobStatus enum is upper case; the page reads REST's lower case.
        else if (job) onJob({ ...job, status: String(job.status).toLowerCase() });
      },
      error: () => onDone(new ApiError("network_error", "The progress feed was lost.")),
      complete: () => onDone(),
    },
  );
  return () => {
    stop();
    void client.dispose();
  };
}
