import { SelectionError } from "./errors.js";

/** A Python-style slice: `start`, `stop` and `step`, each optional (null = the default). */
export interface Slice {
  /** Discriminates slices from other selection items. */
  readonly kind: "slice";
  /** First index (negative counts from the end); null = the start (or the end for negative steps). */
  readonly start: number | null;
  /** Index to stop before (negative counts from the end); null = past the last element. */
  readonly stop: number | null;
  /** Step, any non-zero integer; null = 1. */
  readonly step: number | null;
}

/**
 * Makes a slice, like Python's `slice()`: `slice(stop)`, `slice(start, stop)` or
 * `slice(start, stop, step)`. `slice(null, null, -1)` reverses an axis.
 *
 * ```ts
 * await arr.get([slice(10, 20), slice(null, null, -1), 3]);
 * ```
 * @category Selections
 */
export function slice(
  startOrStop?: number | null,
  stop?: number | null,
  step?: number | null,
): Slice {
  if (stop === undefined && step === undefined) {
    return { kind: "slice", start: null, stop: startOrStop ?? null, step: null };
  }
  return { kind: "slice", start: startOrStop ?? null, stop: stop ?? null, step: step ?? null };
}

/** Whether a value is a {@link Slice}. */
export function isSlice(value: unknown): value is Slice {
  return typeof value === "object" && value !== null && (value as Slice).kind === "slice";
}

/** Formats a slice the way Python prints it in an index expression (`1:10:2`, `::-1`). */
export function formatSlice(s: Slice): string {
  const part = (v: number | null) => (v === null ? "" : String(v));
  return s.step === null
    ? `${part(s.start)}:${part(s.stop)}`
    : `${part(s.start)}:${part(s.stop)}:${s.step}`;
}

/**
 * Parses a selection written as text, NumPy style: `"0:10, ::-1, 3, ..."` (as the CLI's
 * `--select` takes it). Empty text selects everything.
 * @throws SelectionError for text that is not a selection
 */
export function parseSelection(text: string): (number | Slice | null | "...")[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part, axis) => {
    const item = part.trim();
    if (item === "...") return "...";
    if (item === "" || item === ":") return null;
    if (item.includes(":")) {
      const fields = item.split(":");
      if (fields.length > 3)
        throw new SelectionError(`Cannot parse slice "${item}" (item ${axis})`);
      const [start, stop, step] = fields.map((f) => parseIntOrNull(f.trim(), item));
      return { kind: "slice", start: start ?? null, stop: stop ?? null, step: step ?? null };
    }
    const value = parseIntOrNull(item, item);
    if (value === null) throw new SelectionError(`Cannot parse index "${item}" (item ${axis})`);
    return value;
  });
}

function parseIntOrNull(text: string, item: string): number | null {
  if (text === "") return null;
  if (!/^[+-]?\d+$/.test(text))
    throw new SelectionError(`Cannot parse "${item}": "${text}" is not an integer`);
  return Number(text);
}
