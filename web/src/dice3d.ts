// 3D dice fed with the server's results: the tray throws dice that land on the faces the
// service rolled (dice-box-threejs's predetermined notation `2d6@3,5`), so what a player
// sees is what the server rolled. Loaded on the first roll only; without WebGL the 2D
// dice of the log are all there is, as they are for a reader who asked for reduced motion.
import type DiceBox from "@3d-dice/dice-box-threejs";

const SIDES = new Set([4, 6, 8, 10, 12, 20, 100]);

interface Rolled {
  expression?: string;
  faces?: number[];
  dice?: { sides?: number; value?: number; result?: number }[];
}

/** The tray's notation for a roll, or null when its dice cannot be thrown in 3D. */
export function notationOf(roll: Rolled): string | null {
  const dice = roll.dice ?? [];
  if (dice.length && dice.every((d) => d.sides && SIDES.has(d.sides))) {
    const sides = dice[0]!.sides!;
    if (dice.every((d) => d.sides === sides)) {
      return `${dice.length}d${sides}@${dice.map((d) => d.value ?? d.result).join(",")}`;
    }
  }
  const simple = /^\s*(\d*)d(\d+)\s*([+-]\s*\d+)?\s*$/i.exec(roll.expression ?? "");
  const faces = roll.faces ?? [];
  if (!simple) return null;
  const count = Number(simple[1] || 1);
  const sides = Number(simple[2]);
  if (!SIDES.has(sides) || faces.length !== count || count > 20) return null;
  return `${count}d${sides}@${faces.join(",")}`;
}

let box: Promise<DiceBox | null> | null = null;

function tray(): HTMLElement | null {
  return document.getElementById("dice-tray");
}

async function load(): Promise<DiceBox | null> {
  const canvas = document.createElement("canvas");
  if (!canvas.getContext("webgl2") && !canvas.getContext("webgl")) return null;
  try {
    const { default: Box } = await import("@3d-dice/dice-box-threejs");
    const made = new Box("#dice-tray", { sounds: false, shadows: false, theme_material: "plastic" });
    await made.initialize();
    return made;
  } catch {
    return null;
  }
}

/** Throw `roll`'s dice in the tray (a no-op for dice the tray cannot show). */
export async function throwDice(roll: Rolled): Promise<void> {
  const notation = notationOf(roll);
  const element = tray();
  if (!notation || !element) return;
  element.dataset.notation = notation;
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) {
    element.dataset.state = "reduced-motion"; // the log's dice, without the throw
    return;
  }
  element.dataset.state = "loading";
  box ??= load();
  const ready = await box;
  if (!ready) {
    element.dataset.state = "unavailable";
    return;
  }
  element.dataset.state = "rolling";
  element.classList.add("shown");
  await ready.roll(notation);
  element.dataset.state = "done";
  setTimeout(() => element.classList.remove("shown"), 2500);
}
