// The spectator feed: public, read-only, made for a stream (an OBS source at 1920×1080).
import type { Json, SeenCard } from "./api";
import { Card, EventLog, Problem, StatusBadge, useTable } from "./ui";

function Progress(props: { label: string; value: number; max: number }) {
  return (
    <div class="progress">
      <span>
        {props.label} {props.value}/{props.max}
      </span>
      <progress value={props.value} max={props.max} aria-label={props.label} />
    </div>
  );
}

export function Watch({ id, token }: { id: string; token: string }) {
  const { table, events, status, error } = useTable(id, token);
  if (!table) return <Problem error={error} />;
  const v = table.view;
  const started = events.find((e) => e.type === "MazeStarted");
  const victory = (started?.victory ?? {}) as Json;
  const goal = Number(victory.right_paths ?? 5);
  return (
    <div class="table watch" data-phase={String(v.phase)} data-version={table.version}>
      <header class="bar">
        <h1>{String((v.maze as Json | undefined)?.name ?? "The labyrinth")}</h1>
        <span>
          <strong data-testid="phase">{String(v.phase)}</strong> · round {String(v.round)} ·{" "}
          {v.active ? `${String(v.active)} acts` : ""}
        </span>
        <StatusBadge status={status} />
      </header>
      <div class="stage">
        <div class="river big">
          {((v.river ?? []) as SeenCard[]).map((card, i) => (
            <Card card={card} key={i} />
          ))}
        </div>
        <div class="meters">
          <Progress label="Right paths to the exit" value={Number(v.right_paths ?? 0)} max={goal} />
          <Progress label="Monster points" value={Number(v.monster_points ?? 0)} max={2} />
        </div>
        <EventLog events={events} limit={12} party={v.party} />
      </div>
    </div>
  );
}
