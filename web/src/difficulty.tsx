// The difficulty page: run a simulation with a live progress bar, then its chart and statistics.
import { useEffect, useState } from "preact/hooks";
import {
  cancelTuning,
  chartUrl,
  followSimulation,
  followTuning,
  getSimulation,
  presets as loadPresets,
  startSimulation,
  startTuning,
} from "./api";
import type { ApiError, Json, Preset, Tuned } from "./api";
import { KEY_CODES } from "./api";
import { KeyEntry } from "./gm";
import { Problem, errorOf } from "./ui";

const percent = (x: unknown): string => (typeof x === "number" ? `${(x * 100).toFixed(1)}%` : "—");

function Tuning({ preset }: { preset: string }) {
  const [target, setTarget] = useState(50);
  const [tuned, setTuned] = useState<Tuned | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    setTuned(null);
    setBusy(true);
    try {
      const started = await startTuning({ preset, target: "escape_rate", value: target / 100, games: 300 });
      const done = await followTuning(started.job_id, setTuned);
      if (done.status === "failed") setError(errorOf(new Error(done.error ?? "the tuning failed")));
    } catch (e) {
      setError(errorOf(e));
    } finally {
      setBusy(false);
    }
  };
  const cancel = (): void => {
    if (tuned) cancelTuning(tuned.job_id).then(setTuned, (e: unknown) => setError(errorOf(e)));
  };
  return (
    <form class="panel" onSubmit={run} aria-label="Tune a labyrinth">
      <h2>Which DC gives the escape rate I want?</h2>
      <label for="tune-target">Target escape rate (%)</label>
      <input
        id="tune-target"
        type="number"
        min={0}
        max={100}
        value={target}
        onInput={(e) => setTarget(Number((e.target as HTMLInputElement).value))}
      />
      <button type="submit" disabled={busy}>
        {busy ? "Tuning…" : "Tune"}
      </button>
      {busy && tuned && (
        <>
          {" "}
          <progress value={tuned.progress} max={1} aria-label="Tuning progress" /> {percent(tuned.progress)}{" "}
          <button type="button" onClick={cancel}>
            Cancel tuning
          </button>
        </>
      )}
      <Problem error={error} />
      {tuned?.candidates && (
        <table class="tuned">
          <caption>Nearest of {tuned.configurations} configurations</caption>
          <thead>
            <tr>
              <th scope="col">DC</th>
              <th scope="col">Escape rate</th>
            </tr>
          </thead>
          <tbody>
            {tuned.candidates.map((c) => (
              <tr key={c.dc}>
                <td>{c.dc}</td>
                <td>{percent(c.statistics.escape_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}

export function Difficulty() {
  const [presets, setPresets] = useState<Preset[]>([]);
  const [preset, setPreset] = useState("enchanted_forest_v2");
  const [games, setGames] = useState(2000);
  const [job, setJob] = useState<Json | null>(null);
  const [result, setResult] = useState<Json | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    loadPresets().then(setPresets, (e: unknown) => setError(errorOf(e)));
  }, []);
  const run = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    setResult(null);
    try {
      const started = await startSimulation({ preset, games });
      setJob({ status: started.status, progress: 0 });
      followSimulation(
        started.job_id,
        (state) => setJob(state),
        (problem) => {
          if (problem) setError(problem);
          getSimulation(started.job_id).then(setResult, (e: unknown) => setError(errorOf(e)));
        },
      );
    } catch (e) {
      setError(errorOf(e));
    }
  };
  const stats = (result?.statistics ?? null) as Json | null;
  const progress = Number(job?.progress ?? 0);
  return (
    <div class="difficulty">
      <form class="panel" onSubmit={run} aria-label="Simulate a labyrinth">
        <h2>How hard is this labyrinth?</h2>
        <label for="sim-preset">Labyrinth</label>
        <select id="sim-preset" value={preset} onChange={(e) => setPreset((e.target as HTMLSelectElement).value)}>
          {presets.map((p) => (
            <option value={p.name} key={p.name}>
              {p.title} ({p.variant})
            </option>
          ))}
        </select>
        <label for="sim-games">Games</label>
        <input
          id="sim-games"
          type="number"
          min={1}
          value={games}
          onInput={(e) => setGames(Number((e.target as HTMLInputElement).value))}
        />
        <button type="submit" class="primary">
          Simulate
        </button>
        <Problem error={error} />
      {error && KEY_CODES.has(error.code) && <KeyEntry />}
      </form>
      <Tuning preset={preset} />
      {job && (
        <div class="panel" aria-label="Progress">
          <progress value={progress} max={1} aria-label="Simulation progress" data-progress={progress} />{" "}
          <span data-testid="job-status">{String(job.status)}</span> {percent(progress)}
          {job.status === "failed" && <Problem error={errorOf(new Error(String(job.error ?? "failed")))} />}
        </div>
      )}
      {result && result.status === "succeeded" && stats && (
        <div class="panel" aria-label="Results">
          <h2>Results</h2>
          <dl class="stats">
            <dt>Escape rate</dt>
            <dd data-testid="escape-rate">{percent(stats.escape_rate)}</dd>
            <dt>95% interval</dt>
            <dd>{((stats.escape_ci95 ?? []) as number[]).map(percent).join(" – ")}</dd>
            <dt>Turns (mean)</dt>
            <dd>{String((stats.turns as Json | undefined)?.mean ?? "—")}</dd>
            <dt>Encounters per game</dt>
            <dd>{String((stats.encounters as Json | undefined)?.mean ?? "—")}</dd>
          </dl>
          <img class="chart" src={chartUrl(String(result.job_id))} alt="Escape rate against the labyrinth's DC" />
        </div>
      )}
    </div>
  );
}
