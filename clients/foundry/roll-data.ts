// Foundry VTT roll data as Daedalus renders it (`render: ["foundry"]`, docs/DICE.md),
// written as Foundry's published types (npm @league-of-foundry-developers/foundry-vtt-types)
// plus the documented Daedalus extensions. tests/unit/dice/test_foundry_types.py renders
// every notation the engine supports into generated/samples.ts, typed `RollData`, and
// runs tsc: a key Foundry's types do not know, or a value of the wrong type, fails it.
//
// Where the published types are narrower than what Foundry itself stores, the type
// below says so: a dice term's modifiers are written with their parameters ("kh3",
// "cs>=8"), as Foundry's own `Die#modifiers` holds them, so they are `DiceTerm.Data`'s
// `string[]` rather than `Die.TermData`'s bare modifier keys ("kh").

type Terms = typeof foundry.dice.terms;
type TermOptions = foundry.dice.terms.RollTerm.Options & { daedalus?: Record<string, unknown> };

interface Evaluated {
  evaluated: boolean;
  options: TermOptions;
}

/** A die's result, with the face and flags of a compounding or penetrating throw. */
export type DieResult = foundry.dice.terms.DiceTerm.Result & {
  daedalus?: { face: number; flags: string[] };
};

export type DieData = Evaluated &
  Omit<foundry.dice.terms.DiceTerm.Data, "class" | "results" | "options" | "method"> & {
    class: "Die" | "FateDie";
    method: string;
    results: DieResult[];
  };

export type OperatorData = Evaluated &
  Omit<foundry.dice.terms.OperatorTerm.TermData, "options"> & { class: "OperatorTerm" };

export type NumericData = Evaluated &
  Omit<foundry.dice.terms.NumericTerm.TermData, "options"> & { class: "NumericTerm" };

export type FunctionData = Evaluated &
  Omit<foundry.dice.terms.FunctionTerm.Data, "class" | "rolls" | "result" | "options"> & {
    class: "FunctionTerm";
    rolls: RollData[];
    result: NonNullable<foundry.dice.terms.FunctionTerm.TermData["result"]>;
  };

export type ParentheticalData = Evaluated &
  Omit<foundry.dice.terms.ParentheticalTerm.TermData, "roll" | "options"> & {
    class: "ParentheticalTerm";
    roll: RollData;
  };

export type PoolData = Evaluated &
  Pick<foundry.dice.terms.PoolTerm.TermData, "terms"> & {
    class: "PoolTerm";
    modifiers: string[];
    rolls: RollData[];
    results: DieResult[];
  };

export type TermData =
  | DieData
  | OperatorData
  | NumericData
  | FunctionData
  | ParentheticalData
  | PoolData;

/** `Roll#toJSON()`, as `Roll.fromData` reads it. */
export interface RollData {
  class: "Roll";
  options: foundry.dice.Roll.Options & { daedalus?: Record<string, unknown> };
  dice: [];
  formula: string;
  terms: TermData[];
  total: number;
  evaluated: boolean;
}

// Each term class named above exists in Foundry's types (a renamed class fails here).
export type Classes = [
  Terms["Die"],
  Terms["FateDie"],
  Terms["OperatorTerm"],
  Terms["NumericTerm"],
  Terms["FunctionTerm"],
  Terms["ParentheticalTerm"],
  Terms["PoolTerm"],
];
