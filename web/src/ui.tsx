// Shared pieces of the table pages: the live table hook, cards, dice, the event log.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { throwDice } from "./dice3d";
import {
  ApiError,
  followTable,
  getTable,
  tableEvents,
  type Json,
  type SeenCard,
  type Status,
  type TableEvent,
  type TableView,
} from "./api";

/** Where a role token for a table is kept, so a reload resumes where it was. */
export const saved = {
  get(id: string): Json {
    return JSON.parse(localStorage.getItem(`daedalus.table.${id}`) ?? "{}") as Json;
  },
  put(id: string, value: Json): void {
    localStorage.setItem(`daedalus.table.${id}`, JSON.stringify({ ...saved.get(id), ...value }));
  },
};

export interface LiveTable {
  table: TableView | null;
  events: TableEvent[];
  status: Status | "loading";
  error: ApiError | null;
}

/**
 * A table as `token` may see it, kept live: the view and the redacted events are read
 * over REST, then each new version announced by the subscription reads them again from
 * the last version held (so a reconnect neither loses nor repeats an event).
 */
export function useTable(id: string, token: string): LiveTable {
  const [state, setState] = useState<LiveTable>({
    table: null,
    events: [],
    status: "loading",
    error: null,
  });
  const held = useRef<TableEvent[]>([]);
  useEffect(() => {
    let stop = (): void => {};
    let busy: Promise<void> = Promise.resolve();
    let closed = false;
    let loaded = false; // the first read is history: only what arrives live is thrown
    const refresh = (): Promise<void> =>
      (busy = busy.then(async () => {
        if (closed) return;
        try {
          const after = held.current.at(-1)?.version ?? 0;
          const [table, fresh] = await Promise.all([getTable(id, token), tableEvents(id, token, after)]);
          const arrived = fresh.filter((e) => e.version > after);
          if (loaded) for (const e of arrived) if (e.roll && !e.hidden) void throwDice(e.roll as Json);
          loaded = true;
          held.current = [...held.current, ...arrived];
          setState((s) => ({ ...s, table, events: held.current, error: null }));
        } catch (error) {
          setState((s) => ({ ...s, error: error as ApiError }));
        }
      }));
    void refresh().then(() => {
      if (closed) return;
      const from = held.current.at(-1)?.version ?? 0;
      stop = followTable(
        id,
        token,
        from,
        () => void refresh(),
        (status, problem) => setState((s) => ({ ...s, status, error: problem ?? s.error })),
      );
      setState((s) => ({ ...s, status: "live" }));
    });
    return () => {
      closed = true;
      stop();
    };
  }, [id, token]);
  return state;
}

export function Problem({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p class="problem" role="alert">
      {error.message} <code>{error.code}</code>
    </p>
  );
}

export function Section(props: { title: string; children: ComponentChildren; class?: string }) {
  return (
    <section class={props.class ?? "panel"} aria-label={props.title}>
      <h2>{props.title}</h2>
      {props.children}
    </section>
  );
}

const KIND_LABEL: Record<string, string> = {
  right_path: "Right Path",
  dead_end: "Dead End",
  monster: "Monster",
  trap: "Trap",
};

/** One river card: its face when the viewer may see it, else a card back. */
export function Card(props: {
  card: SeenCard;
  onClick?: () => void;
  label?: string;
  selected?: boolean;
}) {
  const { card } = props;
  const face = card.face_up || card.kind !== undefined;
  const text = face ? `${KIND_LABEL[card.kind ?? ""] ?? card.kind} ${card.label ?? ""}` : "Face-down card";
  const classes = ["card", face ? `face ${card.kind}` : "back", props.selected ? "selected" : ""];
  const body = (
    <>
      <span class="kind">{face ? (KIND_LABEL[card.kind ?? ""] ?? card.kind) : "?"}</span>
      {face && <span class="label">{card.label}</span>}
      {face && !card.face_up && <span class="hidden-note">hidden from players</span>}
    </>
  );
  return props.onClick ? (
    <button
      type="button"
      class={classes.join(" ")}
      onClick={props.onClick}
      aria-label={props.label ?? text}
      aria-pressed={props.selected}
      data-slot={card.slot}
    >
      {body}
    </button>
  ) : (
    <div class={classes.join(" ")} aria-label={text} role="img" data-slot={card.slot}>
      {body}
    </div>
  );
}

interface Roll {
  expression?: string;
  faces?: number[];
  total?: number;
}

/** A roll as the server made it: one die per face, rolling in, then the total. */
export function Dice({ roll }: { roll: Roll }) {
  return (
    <span class="dice" aria-label={`${roll.expression ?? ""} rolled ${roll.total ?? ""}`}>
      {(roll.faces ?? []).map((face, i) => (
        <span class="die" style={{ animationDelay: `${i * 60}ms` }} key={i}>
          {face}
        </span>
      ))}
      <span class="total">= {roll.total}</span>
    </span>
  );
}

/** One line of the table's log, in words; `names` maps member ids to their names. */
export function describe(e: TableEvent, names: Record<string, string> = {}): ComponentChildren {
  const name = (event: Json, key: string): string => {
    const value = event[key];
    if (Array.isArray(value)) return String(value.length);
    const text = String(value ?? "");
    return names[text] ?? text;
  };
  const card = (c: unknown): string => {
    const seen = (c ?? {}) as SeenCard;
    return seen.kind ? `${KIND_LABEL[seen.kind] ?? seen.kind} ${seen.label ?? ""}` : "a card";
  };
  switch (e.type) {
    case "MazeStarted":
      return `The party enters ${String(e.name ?? (e.definition as Json | undefined)?.name ?? "the labyrinth")}.`;
    case "InitiativeRolled":
      return `Initiative: ${((e.order as string[]) ?? []).map((m) => names[m] ?? m).join(", ")}.`;
    case "TurnStarted":
      return `${name(e, "player")}'s turn (round ${name(e, "round")}).`;
    case "RiverDealt":
      return `The river is dealt (${name(e, "dealt")} cards).`;
    case "CardRevealed":
    case "CardChosen":
      return `${name(e, "player")} turns up ${card(e.card)}.`;
    case "ActionAttempted": {
      const roll = (e.roll ?? null) as Roll | null;
      return (
        <>
          {name(e, "player")} tries {name(e, "action").replaceAll("_", " ")}{" "}
          {roll && <Dice roll={roll} />} vs DC {name(e, "dc")}: {e.success ? "success" : "failure"}.
        </>
      );
    }
    case "DisarmAttempted": {
      const roll = (e.roll ?? null) as Roll | null;
      return (
        <>
          {name(e, "player")} tries to disarm {roll && <Dice roll={roll} />}:{" "}
          {e.success ? "disarmed" : "failed"}.
        </>
      );
    }
    case "DiceRolled": {
      if (e.hidden) return `${name(e, "by")} rolled in secret.`;
      const roll = (e.roll ?? {}) as Roll;
      return (
        <>
          {name(e, "by") || "The GM"} rolls {roll.expression} {e.label ? `(${name(e, "label")})` : ""}{" "}
          <Dice roll={roll} />
        </>
      );
    }
    case "RightPathScored":
      return "A Right Path!";
    case "MonsterPointScored":
      return "The monster draws nearer.";
    case "EncounterStarted":
      return "The monster appears!";
    case "EncounterResolved":
      return `Encounter: ${name(e, "outcome").replaceAll("_", " ")}.`;
    case "TrapRolled":
      return `A trap: ${name(e, "trap")}. ${name(e, "text")}`;
    case "TrapSprung":
      return `The trap goes off: ${name(e, "trap")}.`;
    case "MazeEscaped":
      return `The party escaped (${name(e, "reason").replaceAll("_", " ")})!`;
    case "MazeEnded":
      return `The maze is over (${name(e, "reason").replaceAll("_", " ")}).`;
    default:
      return e.type.replace(/([a-z])([A-Z])/g, "$1 $2") + ".";
  }
}

export function EventLog(props: { events: TableEvent[]; limit?: number; party?: unknown }) {
  const { events, limit = 30 } = props;
  const names = Object.fromEntries(
    ((props.party ?? []) as { id: string; name: string }[]).map((m) => [m.id, m.name]),
  );
  const shown = events.slice(-limit).reverse();
  return (
    <ol class="log" aria-live="polite">
      {shown.map((e) => (
        <li key={e.version} data-version={e.version} data-type={e.type}>
          <span class="v">{e.version}</span> {describe(e, names)}
        </li>
      ))}
    </ol>
  );
}

export function StatusBadge({ status }: { status: LiveTable["status"] }) {
  return (
    <span class={`status ${status}`} data-status={status}>
      {status === "live" ? "● live" : status}
    </span>
  );
}

export const errorOf = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError("error", String(error));
