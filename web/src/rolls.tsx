// Rolling at the table: any member (or the GM) rolls into the session's roll log.
import { useState } from "preact/hooks";
import { send, type ApiError } from "./api";
import { Problem, errorOf } from "./ui";

export function RollForm(props: { id: string; token: string; player: string | null; disabled?: boolean }) {
  const [expression, setExpression] = useState("1d20");
  const [visibility, setVisibility] = useState("everyone");
  const [error, setError] = useState<ApiError | null>(null);
  const roll = async (event: Event): Promise<void> => {
    event.preventDefault();
    setError(null);
    try {
      await send(props.id, props.token, { type: "RollDice", player: props.player, expression, visibility });
    } catch (e) {
      setError(errorOf(e));
    }
  };
  return (
    <form class="roll" onSubmit={roll} aria-label="Roll dice">
      <label>
        Dice
        <input
          value={expression}
          aria-invalid={!!error}
          onInput={(e) => setExpression((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Who sees it
        <select value={visibility} onChange={(e) => setVisibility((e.target as HTMLSelectElement).value)}>
          <option value="everyone">everyone</option>
          <option value="gm">the GM only</option>
        </select>
      </label>
      <button type="submit" disabled={props.disabled}>
        Roll
      </button>
      <Problem error={error} />
    </form>
  );
}
